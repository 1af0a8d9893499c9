package importer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/harness/importer"
)

// adversarialRollout builds a Codex rollout of about n bytes of one kind:
// many calls and their outputs, a line each; one message of many tiny
// content parts; many lines the reader skips (event_msg); one oversized
// output. Each ends with an oversized output or a call leaked as text, so
// that the whole import runs.
func adversarialRollout(n int, kind string) []byte {
	var b strings.Builder
	b.WriteString(rolloutLine("session_meta", `{"id":"s","base_instructions":{"text":"You are Codex."}}`) + "\n")
	item := func(payload string) { b.WriteString(rolloutLine("response_item", payload) + "\n") }
	item(`{"type":"message","role":"user","content":[{"type":"input_text","text":"why?"}]}`)
	leak := `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}]}`
	switch kind {
	case "calls":
		for i := 0; b.Len() < n; i++ {
			item(fmt.Sprintf(`{"type":"function_call","call_id":"c%d","name":"exec_command","arguments":"{\"cmd\":\"ls %d\"}"}`, i, i))
			item(fmt.Sprintf(`{"type":"function_call_output","call_id":"c%d","output":"a.go"}`, i))
		}
		item(leak)
	case "parts":
		item(`{"type":"message","role":"user","content":[` + strings.Repeat(`{"type":"input_text","text":"x"},`, n/33) + `{"type":"input_text","text":"y"}]}`)
		item(leak)
	case "skipped":
		for b.Len() < n {
			b.WriteString(rolloutLine("event_msg", `{"type":"token_count","info":{"total_token_usage":{"input_tokens":1200}}}`) + "\n")
		}
		item(leak)
	default: // oversized
		item(`{"type":"function_call","call_id":"c1","name":"exec_command","arguments":"{\"cmd\":\"seq 1 9999999\"}"}`)
		item(`{"type":"function_call_output","call_id":"c1","output":"` + strings.Repeat(`ts=1 host=web-1 level=INFO msg=ok\n`, n/36) + `"}`)
		item(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}`)
	}
	return []byte(b.String())
}

// BenchmarkImportRolloutAdversarial times Import at 1 MiB and 10 MiB on
// the adversarial rollouts; 10 MiB should cost about ten times 1 MiB.
func BenchmarkImportRolloutAdversarial(b *testing.B) {
	benchImport(b, []string{"calls", "parts", "skipped", "oversized"}, adversarialRollout,
		importer.ImportOptions{Dir: "d", Name: "x", TraceName: "t.jsonl", At: -1, Format: importer.FormatCodexRollout})
}

// adversarialResponses builds a Responses log of about n bytes of one
// kind: many calls, each repeating the history before it (as Codex sends
// them); many calls chained by previous_response_id, each sending only
// its new items; one call of many items; one oversized output. Each ends
// with a call leaked as text or an oversized output.
func adversarialResponses(n int, kind string) []byte {
	user := `{"type":"message","role":"user","content":[{"type":"input_text","text":"why?"}]}`
	leak := `[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}]}]`
	call := func(output string, input ...string) string {
		return respCall(`{"model":"m","instructions":"You are Codex.","input":[`+strings.Join(input, ",")+`]}`,
			`{"status":"completed","output":`+output+`}`) + "\n"
	}
	var b strings.Builder
	switch kind {
	case "history":
		more := `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"more?"}]}`
		yes := `{"type":"message","role":"user","content":"yes"}`
		msgs := []string{user}
		for b.Len() < n {
			b.WriteString(call("["+more+"]", msgs...))
			msgs = append(msgs, more, yes)
		}
		b.WriteString(call(leak, msgs...))
	case "chained":
		for i := 0; b.Len() < n; i++ {
			out := fmt.Sprintf(`[{"type":"function_call","call_id":"c%d","name":"t","arguments":"{}"}]`, i)
			in := user
			if i > 0 {
				in = fmt.Sprintf(`{"type":"function_call_output","call_id":"c%d","output":"ok"}`, i-1)
			}
			prev := ""
			if i > 0 {
				prev = fmt.Sprintf(`,"previous_response_id":"r%d"`, i-1)
			}
			b.WriteString(respCall(`{"input":[`+in+`]`+prev+`}`, fmt.Sprintf(`{"id":"r%d","output":%s}`, i, out)) + "\n")
		}
		b.WriteString(lastChained(b.String()))
	case "items":
		var items []string
		for i := 0; len(items)*100 < n; i++ {
			items = append(items, fmt.Sprintf(`{"type":"function_call","call_id":"c%d","name":"t","arguments":"{}"}`, i),
				fmt.Sprintf(`{"type":"function_call_output","call_id":"c%d","output":"ok"}`, i))
		}
		b.WriteString(call(leak, append([]string{user}, items...)...))
	default: // oversized
		use := `{"type":"function_call","call_id":"c1","name":"t","arguments":"{}"}`
		out := `{"type":"function_call_output","call_id":"c1","output":"` + strings.Repeat(`ts=1 host=web-1 level=INFO msg=ok\n`, n/36) + `"}`
		b.WriteString(call(`[{"type":"message","role":"assistant","content":"done"}]`, user, use, out))
	}
	return []byte(b.String())
}

// lastChained ends a chained log: a call that answers the last call of
// log and is answered with a call leaked as text.
func lastChained(log string) string {
	k := strings.Count(log, "\n") - 1
	return respCall(fmt.Sprintf(`{"input":[{"type":"function_call_output","call_id":"c%d","output":"ok"}],"previous_response_id":"r%d"}`, k, k),
		`{"id":"end","output":[{"type":"message","role":"assistant","content":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}]}`) + "\n"
}

// BenchmarkImportResponsesAdversarial times Import at 1 MiB and 10 MiB
// on the adversarial Responses logs; 10 MiB should cost about ten times
// 1 MiB.
func BenchmarkImportResponsesAdversarial(b *testing.B) {
	benchImport(b, []string{"history", "chained", "items", "oversized"}, adversarialResponses,
		importer.ImportOptions{Dir: "d", Name: "x", TraceName: "t.jsonl", At: -1, Format: importer.FormatResponsesLog})
}
