package anthropic_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/internal/hostile"
)

// bigStream is a stream of about size bytes: a text block in 40-byte
// deltas, then a tool_use whose input comes in 40-byte pieces, with a ping
// every 100 events.
func bigStream(size int) []byte {
	resp := core.Response{Text: strings.Repeat("word ", size/20)}
	args, _ := json.Marshal(map[string]string{"content": strings.Repeat("x", size/10)})
	resp.ToolCalls = []core.ToolCall{{ID: "t", Name: "Write", Arguments: args}}
	var w bytes.Buffer
	_ = anthropic.WriteStream(&w, resp, "m", "x")
	// WriteStream cuts inputs in two; recut the tool input into 40-byte deltas.
	out := w.Bytes()
	i := bytes.Index(out, []byte("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1"))
	var b bytes.Buffer
	b.Write(out[:i])
	b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"Write\",\"input\":{}}}\n\n")
	in := string(args)
	for k := 0; k < len(in); k += 40 {
		piece, _ := json.Marshal(in[k:min(k+40, len(in))])
		fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":%s}}\n\n", piece)
		if k%4000 == 0 {
			b.WriteString("event: ping\ndata: {\"type\": \"ping\"}\n\n")
		}
	}
	b.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n")
	b.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":9}}\n\n")
	b.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	return b.Bytes()
}

// thinkingStream is a stream of about size bytes: a thinking block in
// 40-byte thinking_delta pieces (with escapes and non-ASCII text), its
// signature, then the text and tool_use of bigStream at a tenth of size.
func thinkingStream(size int) []byte {
	var b bytes.Buffer
	small := bigStream(size / 10)
	i := bytes.Index(small, []byte("event: content_block_start"))
	b.Write(small[:i])
	b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}\n\n")
	for b.Len() < size {
		b.WriteString("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"the log is cut \\\"here\\\" — caf\\u00e9\\n\"}}\n\n")
	}
	b.WriteString("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"" + strings.Repeat("QUJD", 64) + "\"}}\n\n")
	b.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
	// The blocks of the small stream, renumbered after the thinking block.
	rest := string(small[i:])
	rest = strings.ReplaceAll(rest, `"index":1`, `"index":2`)
	rest = strings.ReplaceAll(rest, `"index":0`, `"index":1`)
	b.WriteString(rest)
	return b.Bytes()
}

// bigRequest is a request of about size bytes with 2 KiB tool results.
func bigRequest(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"model":"m","max_tokens":1024,"messages":[{"role":"user","content":"go"}`)
	result := strings.Repeat("line of tool output\\n", 100)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `,{"role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"cat f%d"}}]}`, i, i)
		fmt.Fprintf(&b, `,{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]}`, i, result)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// tinyValues is a hostile body of many tiny values: {"metadata":[0,0,...]} of
// about size bytes (a key the decoder skips), then a messages array.
func tinyValues(size int) []byte {
	return []byte(`{"metadata":[` + strings.Repeat("0,", size/2) + `0],"messages":[]}`)
}

// hostileStreams are streams of about size bytes built to be slow: many
// tiny events, one event of many data lines, many blocks, a deep value.
var hostileStreams = []hostile.Input{
	{Name: "pings", Make: func(n int) []byte { return bytes.Repeat([]byte("event: ping\ndata: {\"type\": \"ping\"}\n\n"), n/36) }},
	{Name: "data-lines", Make: func(n int) []byte { return bytes.Repeat([]byte("data: [1,\n"), n/10) }},
	{Name: "blocks", Make: func(n int) []byte {
		var b bytes.Buffer
		b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"content\":[]}}\n\n")
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "data: {\"type\":\"content_block_start\",\"index\":%d,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n", i)
		}
		return b.Bytes()
	}},
	{Name: "usage", Make: func(n int) []byte {
		var b bytes.Buffer
		b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"content\":[],\"usage\":{")
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "\"k%d\":%d,", i, i)
		}
		b.WriteString("\"output_tokens\":1}}}\n\n")
		return b.Bytes()
	}},
	{Name: "deep", Make: func(n int) []byte {
		return []byte("event: message_start\ndata: " + strings.Repeat(`{"a":`, n/5) + "\n\n")
	}},
}

// BenchmarkAssembleStreamAdversarial assembles streams at 1 MiB and 10 MiB
// (make bench-linear's pairs): a long answer, a long thinking block, and the
// hostile streams, which must fail.
func BenchmarkAssembleStreamAdversarial(b *testing.B) {
	hostile.Pairs(b, []hostile.Input{{Name: "answer", Make: bigStream}, {Name: "thinking", Make: thinkingStream}}, func(b *testing.B, raw []byte) {
		for b.Loop() {
			if _, err := anthropic.AssembleStream(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	hostile.Pairs(b, hostileStreams, func(b *testing.B, raw []byte) {
		for b.Loop() {
			if _, err := anthropic.AssembleStream(raw); err == nil {
				b.Fatal("a hostile stream assembled")
			}
		}
	})
}

func BenchmarkStreamOf(b *testing.B) {
	for _, n := range hostile.Sizes {
		msg, err := anthropic.AssembleStream(bigStream(n))
		if err != nil {
			b.Fatal(err)
		}
		thinking, err := anthropic.AssembleStream(thinkingStream(n))
		if err != nil {
			b.Fatal(err)
		}
		b.Run("size="+hostile.SizeName(n), func(b *testing.B) {
			b.SetBytes(int64(len(msg)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := anthropic.StreamOf(msg); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("thinking/size="+hostile.SizeName(n), func(b *testing.B) {
			msg := thinking
			b.SetBytes(int64(len(msg)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := anthropic.StreamOf(msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// requestInputs are request bodies of about the size given: 2 KiB tool
// results, a skipped key of tiny values, many tiny blocks of each kind,
// replayed thinking, one string of escapes.
var requestInputs = []hostile.Input{
	{Name: "tool-results", Make: bigRequest}, {Name: "tiny-values", Make: tinyValues},
	{Name: "text-blocks", Make: func(n int) []byte {
		return []byte(`{"messages":[{"role":"user","content":[` + strings.Repeat(`{"type":"text","text":"a"},`, n/27) + `{"type":"text","text":"a"}]}]}`)
	}},
	{Name: "tool-uses", Make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"messages":[{"role":"assistant","content":[`)
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, `{"type":"tool_use","id":"t%d","name":"n","input":{}},`, i)
		}
		b.WriteString(`{"type":"text","text":""}]}]}`)
		return []byte(b.String())
	}},
	{Name: "parallel-results", Make: func(n int) []byte {
		var uses, results strings.Builder
		for i := 0; uses.Len()+results.Len() < n; i++ {
			fmt.Fprintf(&uses, `{"type":"tool_use","id":"t%d","name":"n","input":{}},`, i)
			fmt.Fprintf(&results, `{"type":"tool_result","tool_use_id":"t%d","content":"ok"},`, i)
		}
		return []byte(`{"messages":[{"role":"assistant","content":[` + strings.TrimSuffix(uses.String(), ",") +
			`]},{"role":"user","content":[` + strings.TrimSuffix(results.String(), ",") + `]}]}`)
	}},
	{Name: "thinking-replay", Make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"messages":[{"role":"user","content":"go"}`)
		thinking := strings.Repeat(`the log is cut \"here\" \u00e9\n`, 100)
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, `,{"role":"assistant","content":[{"type":"thinking","thinking":"%s","signature":"EqQB%d"},`+
				`{"type":"tool_use","id":"t%d","name":"n","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"ok"}]}`,
				thinking, i, i, i)
		}
		b.WriteString(`]}`)
		return []byte(b.String())
	}},
	{Name: "escapes", Make: func(n int) []byte {
		return []byte(`{"messages":[{"role":"user","content":"` + strings.Repeat(`\ud83d\ude00\n`, n/14) + `"}]}`)
	}},
}

// BenchmarkDecodeRequestAdversarial decodes each of requestInputs at 1 MiB
// and 10 MiB (make bench-linear's pairs).
func BenchmarkDecodeRequestAdversarial(b *testing.B) {
	hostile.Pairs(b, requestInputs, decodeRequests)
}

// BenchmarkDecodeRequestLarge decodes each of requestInputs at 32 MiB, twice
// the gateway's default max_body_bytes.
func BenchmarkDecodeRequestLarge(b *testing.B) {
	for _, in := range requestInputs {
		b.Run("input="+in.Name+"/size=32MiB", func(b *testing.B) {
			body := in.Make(32 << 20)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			decodeRequests(b, body)
		})
	}
}

func decodeRequests(b *testing.B, body []byte) {
	for b.Loop() {
		if _, _, err := anthropic.DecodeRequest(body, core.Tag{}); err != nil {
			b.Fatal(err)
		}
	}
}
