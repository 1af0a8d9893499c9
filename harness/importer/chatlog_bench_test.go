package importer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/harness/importer"
)

// adversarialChatLog builds a chat completions log of about n bytes of one
// kind: many calls, each extending the one before; one call of many tiny
// messages; one oversized tool result; a reply among many choices; many
// blank lines before the call. Each ends with a call leaked as text or an
// oversized result, so that the whole import runs.
func adversarialChatLog(n int, kind string) []byte {
	leak := `{"role":"assistant","content":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}`
	call := func(reply string, choices int, msgs ...string) string {
		more := strings.Repeat(`,{"index":1,"message":{"role":"assistant","content":"other"}}`, choices)
		return `{"request":{"model":"m","messages":[` + strings.Join(msgs, ",") + `]},"response":{"object":"chat.completion","choices":[{"index":0,"message":` +
			reply + `}` + more + `]}}` + "\n"
	}
	user := `{"role":"user","content":"why?"}`
	switch kind {
	case "calls":
		var b strings.Builder
		msgs := []string{user}
		for b.Len() < n {
			reply := `{"role":"assistant","content":"more?"}`
			b.WriteString(call(reply, 0, msgs...))
			msgs = append(msgs, reply, `{"role":"user","content":"yes"}`)
		}
		b.WriteString(call(leak, 0, msgs...))
		return []byte(b.String())
	case "messages":
		msgs := []string{user}
		for len(msgs)*36 < n {
			msgs = append(msgs, `{"role":"user","content":"q"}`)
		}
		return []byte(call(leak, 0, msgs...))
	case "choices":
		return []byte(call(leak, n/62, user))
	case "blank-lines":
		return []byte(strings.Repeat("\n", n) + call(leak, 0, user))
	}
	use := `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"t","arguments":"{}"}}]}`
	result := fmt.Sprintf(`{"role":"tool","tool_call_id":"c1","content":%q}`, strings.Repeat("ts=1 host=web-1 level=INFO msg=ok\n", n/36))
	return []byte(call(`{"role":"assistant","content":"done"}`, 0, user, use, result))
}

// BenchmarkImportChatLogAdversarial times Import at 1 MiB and 10 MiB on the
// adversarial chat completions logs; 10 MiB should cost about ten times
// 1 MiB.
func BenchmarkImportChatLogAdversarial(b *testing.B) {
	o := importer.ImportOptions{Dir: "d", Name: "x", TraceName: "t.jsonl", At: -1, Format: importer.FormatChatCompletionsLog}
	for _, kind := range []string{"calls", "messages", "choices", "blank-lines", "oversized"} {
		if _, err := importer.Import(adversarialChatLog(64<<10, kind), o); err != nil && kind != "oversized" {
			b.Fatalf("%s: %v", kind, err)
		}
	}
	benchImport(b, []string{"calls", "messages", "choices", "blank-lines", "oversized"}, adversarialChatLog, o)
}
