package openai_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/internal/hostile"
)

// fill writes rows made by row after open until the text holds about size
// bytes, then close.
func fill(size int, open, close string, row func(i int) string) []byte {
	var b strings.Builder
	b.Grow(size + 4096)
	b.WriteString(open)
	for i := 0; b.Len() < size-len(close); i++ {
		b.WriteString(row(i))
	}
	b.WriteString(close)
	return []byte(b.String())
}

// streamEnd ends a stream: a finish_reason, then [DONE].
const streamEnd = "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"

// hostileStreams are chat-completions streams of about size bytes built
// to make assembly slow: many tiny content deltas; one tool call whose
// arguments come in 4-byte pieces (as a model streams a long argument);
// a name sent in 1-byte pieces that never repeat the whole; a new call
// in every chunk; keep-alive comments; one data line as large as the
// stream.
var hostileStreams = []hostile.Input{
	{Name: "content-deltas", Make: func(n int) []byte {
		return fill(n, "", streamEnd, func(int) string { return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word \"}}]}\n\n" })
	}},
	{Name: "argument-pieces", Make: func(n int) []byte {
		first := "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"write\",\"arguments\":\"{\\\"x\\\":\\\"\"}}]}}]}\n\n"
		return fill(n, first, streamEnd, func(int) string {
			return "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"abcd\"}}]}}]}\n\n"
		})
	}},
	{Name: "name-pieces", Make: func(n int) []byte {
		return fill(n, "", streamEnd, func(i int) string {
			return fmt.Sprintf("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"%c\"}}]}}]}\n\n", 'a'+i%2)
		})
	}},
	{Name: "many-calls", Make: func(n int) []byte {
		return fill(n, "", streamEnd, func(i int) string {
			return fmt.Sprintf("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":%d,\"id\":\"c%d\",\"function\":{\"name\":\"t\",\"arguments\":\"{}\"}}]}}]}\n\n", i, i)
		})
	}},
	{Name: "comments", Make: func(n int) []byte { return fill(n, "", streamEnd, func(int) string { return ": keep-alive\n\n" }) }},
	{Name: "one-line", Make: func(n int) []byte {
		return []byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + strings.Repeat(`a\"\u00e9\n`, n/14) + "\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}},
}

// BenchmarkAssembleStreamAdversarial assembles each of hostileStreams at
// 1 MiB and 10 MiB (make bench-linear's pairs).
func BenchmarkAssembleStreamAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileStreams, func(b *testing.B, raw []byte) {
		for b.Loop() {
			if _, err := (openai.Wire{}).Assemble(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// hostileRequests are chat-completions request bodies of about size
// bytes: many tiny messages; 2 KiB tool results answering calls; content
// as a list of many tiny text parts in tool messages; one string of
// escapes; many tool calls in one message; a tool whose parameters nest
// 500 deep (the gateway refuses past 512); a skipped key of tiny values.
var hostileRequests = []hostile.Input{
	{Name: "many-messages", Make: func(n int) []byte {
		return fill(n, `{"model":"m","messages":[{"role":"system","content":"s"}`, `]}`, func(int) string { return `,{"role":"user","content":"hi"}` })
	}},
	{Name: "tool-results", Make: func(n int) []byte {
		result := strings.Repeat(`line of tool output\n`, 100)
		return fill(n, `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}`, `]}`, func(i int) string {
			return fmt.Sprintf(`,{"role":"assistant","content":null,"tool_calls":[{"id":"c%d","type":"function","function":{"name":"bash","arguments":"{}"}}]}`+
				`,{"role":"tool","tool_call_id":"c%d","content":"%s"}`, i, i, result)
		})
	}},
	{Name: "content-parts", Make: func(n int) []byte {
		return fill(n, `{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"t","arguments":"{}"}}]},`+
			`{"role":"tool","tool_call_id":"c","content":[{"type":"text","text":"a"}`, `]}]}`, func(int) string { return `,{"type":"text","text":"a"}` })
	}},
	{Name: "escapes", Make: func(n int) []byte {
		return []byte(`{"messages":[{"role":"user","content":"` + strings.Repeat(`\ud83d\ude00\n`, n/14) + `"}]}`)
	}},
	{Name: "tool-calls", Make: func(n int) []byte {
		return fill(n, `{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"t","arguments":"{}"}}`,
			`]}]}`, func(i int) string {
				return fmt.Sprintf(`,{"id":"c%d","type":"function","function":{"name":"t","arguments":"{\"i\":%d}"}}`, i, i)
			})
	}},
	{Name: "deep-parameters", Make: func(n int) []byte {
		deep := strings.Repeat(`{"a":`, 500) + "1" + strings.Repeat("}", 500)
		return fill(n, `{"messages":[{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"t0","parameters":{}}}`, `]}`, func(i int) string {
			return fmt.Sprintf(`,{"type":"function","function":{"name":"t%d","parameters":%s}}`, i, deep)
		})
	}},
	{Name: "tiny-values", Make: func(n int) []byte {
		return []byte(`{"metadata":[` + strings.Repeat("0,", n/2) + `0],"messages":[{"role":"user","content":"q"}]}`)
	}},
}

// BenchmarkDecodeRequestAdversarial maps each of hostileRequests to a
// core.Request (the scripted fakes read requests so too: fakes/llmwire)
// at 1 MiB and 10 MiB.
func BenchmarkDecodeRequestAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileRequests, func(b *testing.B, body []byte) {
		for b.Loop() {
			if _, _, err := openai.DecodeRequest(body, core.Tag{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReadAdversarial reads each of hostileRequests as the gateway
// does (Wire.Read: one jsonspan parse, the tool messages and the query)
// at 1 MiB and 10 MiB.
func BenchmarkReadAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileRequests, func(b *testing.B, body []byte) {
		for b.Loop() {
			if _, err := (openai.Wire{}).Read(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// hostileResponses are chat completions of about size bytes: one answer
// of escapes, many tool calls, many choices (only the first is read).
var hostileResponses = []hostile.Input{
	{Name: "escapes", Make: func(n int) []byte {
		return []byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":"` + strings.Repeat(`\ud83d\ude00\n`, n/14) + `"},"finish_reason":"stop"}]}`)
	}},
	{Name: "tool-calls", Make: func(n int) []byte {
		return fill(n, `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"t","arguments":"{}"}}`,
			`]},"finish_reason":"tool_calls"}]}`, func(i int) string {
				return fmt.Sprintf(`,{"id":"c%d","type":"function","function":{"name":"t","arguments":"{\"i\":%d}"}}`, i, i)
			})
	}},
	{Name: "choices", Make: func(n int) []byte {
		return fill(n, `{"choices":[{"index":0,"message":{"role":"assistant","content":"a"},"finish_reason":"stop"}`, `]}`, func(i int) string {
			return fmt.Sprintf(`,{"index":%d,"message":{"role":"assistant","content":"a"},"finish_reason":"stop"}`, i+1)
		})
	}},
}

// BenchmarkDecodeResponseAdversarial maps each of hostileResponses to a
// core.Response (what Client.Complete reads) at 1 MiB and 10 MiB.
func BenchmarkDecodeResponseAdversarial(b *testing.B) {
	hostile.Pairs(b, hostileResponses, func(b *testing.B, body []byte) {
		for b.Loop() {
			if _, err := openai.DecodeResponse(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}
