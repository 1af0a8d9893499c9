package importer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/harness/importer"
)

// adversarialAnthropic builds an Anthropic Messages log of about n bytes
// of one kind: a reply of many tiny text blocks; many tool_use blocks and
// as many tool_result blocks; many calls, each extending the one before;
// one oversized tool result. Each ends with a call leaked as text or an
// oversized result, so that the whole import runs.
func adversarialAnthropic(n int, kind string) []byte {
	user := `{"role":"user","content":"why?"}`
	leak := `{"type":"text","text":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}`
	call := func(reply string, msgs ...string) string {
		return `{"request":{"max_tokens":1024,"messages":[` + strings.Join(msgs, ",") + `]},"response":{"type":"message","role":"assistant","content":[` + reply + `]}}` + "\n"
	}
	switch kind {
	case "blocks":
		return []byte(call(strings.Repeat(`{"type":"text","text":"x"},`, n/27)+leak, user))
	case "results":
		var uses, results []string
		for i := 0; len(uses)*110 < n; i++ {
			uses = append(uses, fmt.Sprintf(`{"type":"tool_use","id":"toolu_%d","name":"t","input":{"i":%d}}`, i, i))
			results = append(results, fmt.Sprintf(`{"type":"tool_result","tool_use_id":"toolu_%d","content":"ok"}`, i))
		}
		asked := `{"role":"assistant","content":[` + strings.Join(uses, ",") + `]}`
		return []byte(call(leak, user, asked, `{"role":"user","content":[`+strings.Join(results, ",")+`]}`))
	case "calls":
		var b strings.Builder
		msgs := []string{user}
		for b.Len() < n {
			b.WriteString(call(`{"type":"text","text":"more?"}`, msgs...))
			msgs = append(msgs, `{"role":"assistant","content":[{"type":"text","text":"more?"}]}`, `{"role":"user","content":"yes"}`)
		}
		b.WriteString(call(leak, msgs...))
		return []byte(b.String())
	}
	use := `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"t","input":{}}]}`
	result := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"` +
		strings.Repeat(`ts=1 host=web-1 level=INFO msg=ok\n`, n/36) + `"}]}]}`
	return []byte(call(`{"type":"text","text":"done"}`, user, use, result))
}

// BenchmarkImportAnthropicAdversarial times Import at 1 MiB and 10 MiB on
// the adversarial logs; 10 MiB should cost about ten times 1 MiB.
func BenchmarkImportAnthropicAdversarial(b *testing.B) {
	benchImport(b, []string{"blocks", "results", "calls", "oversized"}, adversarialAnthropic,
		importer.ImportOptions{Dir: "d", Name: "x", TraceName: "t.jsonl", At: -1, Format: importer.FormatAnthropicMessages})
}
