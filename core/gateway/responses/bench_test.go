package responses_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/internal/hostile"
)

// fill repeats row(i) between open and close until the text is about size
// bytes, rows separated by sep.
func fill(size int, open, sep, close string, row func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(open)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(row(i))
	}
	b.WriteString(close)
	return []byte(b.String())
}

// hostileRequests are request bodies of about size bytes: the shape of a
// coding agent's long conversation, and the shapes that make a reader of
// items slow (the most items per byte, tiny values it skips, escapes,
// calls whose outputs come last, nesting at the limit).
var hostileRequests = []hostile.Input{
	{Name: "conversation", Make: func(n int) []byte {
		out := strings.Repeat(`line of tool output \"quoted\"\n`, 64)
		return fill(n, `{"model":"m","stream":true,"input":[{"role":"user","content":"go"}`, "", `]}`, func(i int) string {
			return fmt.Sprintf(`,{"type":"reasoning","id":"rs_%d","summary":[],"encrypted_content":"gAAA"},`+
				`{"type":"function_call","call_id":"c%d","name":"exec_command","arguments":"{\"cmd\":\"cat f%d\"}"},`+
				`{"type":"function_call_output","call_id":"c%d","output":"%s"}`, i, i, i, i, out)
		})
	}},
	{Name: "tiny-items", Make: func(n int) []byte {
		return fill(n, `{"input":[`, ",", `]}`, func(int) string { return `{"id":"m"}` })
	}},
	{Name: "tiny-values", Make: func(n int) []byte {
		return fill(n, `{"metadata":[`, ",", `],"input":"q"}`, func(int) string { return "0" })
	}},
	{Name: "escapes", Make: func(n int) []byte {
		return fill(n, `{"input":[{"role":"user","content":"`, "", `"}]}`, func(int) string { return `\u00e9\"\\\n` })
	}},
	{Name: "outputs-first", Make: func(n int) []byte {
		return fill(n, `{"input":[`, ",", `]}`, func(i int) string {
			return fmt.Sprintf(`{"type":"custom_tool_call_output","call_id":"c%d","output":[{"type":"input_text","text":"x"}]}`, i)
		})
	}},
	{Name: "deep", Make: func(n int) []byte {
		chain := strings.Repeat(`[`, 500) + strings.Repeat(`]`, 500)
		return fill(n, `{"input":[`, ",", `]}`, func(int) string { return `{"type":"future","x":` + chain + `}` })
	}},
}

// BenchmarkDecodeRequestAdversarial decodes each of hostileRequests at
// 1 MiB and 10 MiB (make bench-linear's pairs).
func BenchmarkDecodeRequestAdversarial(b *testing.B) {
	tag := core.Tag{Site: core.SiteSessionTurn}
	hostile.Pairs(b, hostileRequests, func(b *testing.B, body []byte) {
		for b.Loop() {
			_, _, _ = responses.DecodeRequest(body, tag)
		}
	})
}

// BenchmarkReadAdversarial reads each of hostileRequests as the gateway
// does, at 1 MiB and 10 MiB.
func BenchmarkReadAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileRequests, func(b *testing.B, body []byte) {
		for b.Loop() {
			_, _ = responses.Wire{}.Read(body)
		}
	})
}

// hostileStreams are event streams of about size bytes: a long answer in
// small deltas, many items sent only as output_item.done, one event of
// many data lines, and comments and blank lines.
var hostileStreams = []hostile.Input{
	{Name: "deltas", Make: func(n int) []byte {
		head := "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"r\",\"output\":[]}}\n\n"
		s := fill(n, head, "", "", func(i int) string {
			return fmt.Sprintf("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"sequence_number\":%d,\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"w\\u00e9 \"}\n\n", i+1)
		})
		return append(s, "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"output\":[{\"type\":\"message\",\"content\":[]}]}}\n\n"...)
	}},
	{Name: "done-items", Make: func(n int) []byte {
		s := fill(n, "", "", "", func(i int) string {
			return fmt.Sprintf("data: {\"type\":\"response.output_item.done\",\"output_index\":%d,\"item\":{\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"f\",\"arguments\":\"{}\"}}\n\n", (i*7919)%1000003)
		})
		return append(s, "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"output\":[]}}\n\n"...)
	}},
	{Name: "data-lines", Make: func(n int) []byte {
		s := fill(n, "data: {\"type\":\"response.completed\",\"response\":{\"output\":[\"", "", "", func(int) string { return "\ndata: x" })
		return append(s, "\"]}}\n\n"...)
	}},
	{Name: "comments", Make: func(n int) []byte {
		s := fill(n, "", "", "", func(int) string { return ": keep-alive\n\n\r\n" })
		return append(s, "data: {\"type\":\"response.completed\",\"response\":{\"output\":[]}}\n\n"...)
	}},
}

// BenchmarkAssembleAdversarial assembles each of hostileStreams at 1 MiB
// and 10 MiB.
func BenchmarkAssembleAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileStreams, func(b *testing.B, raw []byte) {
		for b.Loop() {
			_, _ = responses.Assemble(raw)
		}
	})
}
