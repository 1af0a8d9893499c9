package importer_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolout/toolout/harness/importer"
)

// adversarialTrace builds a trace of about n bytes of one kind: many tiny
// messages, text full of secrets, text full of near-secrets, one oversized
// tool result.
func adversarialTrace(n int, kind string) []byte {
	leak := map[string]any{"role": "assistant", "content": `<tool_call>{"name":"t","arguments":{}}</tool_call>`}
	var msgs []map[string]any
	switch kind {
	case "many-messages":
		for len(msgs)*40 < n {
			msgs = append(msgs, map[string]any{"role": "user", "content": "TURN-FAILED x"})
		}
		msgs = append(msgs, map[string]any{"role": "user", "content": "q"}, leak)
	case "secrets":
		msgs = []map[string]any{{"role": "user", "content": strings.Repeat("Bearer abcdefghij https://u:p@h/ sk-aaaaaaaaaaaaaaaaaaaa ", n/60)}, leak}
	case "near-secrets":
		msgs = []map[string]any{{"role": "user", "content": strings.Repeat("a://b:", n/6)}, leak}
	case "oversized":
		call := map[string]any{"id": "c", "type": "function", "function": map[string]any{"name": "t", "arguments": "{}"}}
		msgs = []map[string]any{{"role": "user", "content": "q"}, {"role": "assistant", "content": nil, "tool_calls": []any{call}},
			{"role": "tool", "tool_call_id": "c", "content": strings.Repeat("ts=1 host=web-1 level=INFO msg=ok\n", n/34)}}
	}
	b, err := json.Marshal(msgs)
	if err != nil {
		panic(err)
	}
	return b
}

// BenchmarkImportAdversarial times Import at 1 MiB and 10 MiB on the
// adversarial traces; 10 MiB should cost about ten times 1 MiB.
func BenchmarkImportAdversarial(b *testing.B) {
	benchImport(b, []string{"many-messages", "secrets", "near-secrets", "oversized"}, adversarialTrace,
		importer.ImportOptions{Dir: "d", Name: "x", TraceName: "t.json", At: -1, RedactEmails: true})
}
