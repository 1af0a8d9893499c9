package anthropic_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
)

// sdkEvent is one event as an SDK's SSE decoder hands it over.
type sdkEvent struct {
	Name string
	Data map[string]any
}

// sdkEvents reads a stream the way the official SDKs do: events of
// "event:" and "data:" lines ended by a blank line, each data a JSON object
// whose type is the event name. It fails on anything else.
func sdkEvents(raw []byte) []sdkEvent {
	GinkgoHelper()
	text := string(raw)
	Expect(text).To(HaveSuffix("\n\n"))
	var out []sdkEvent
	for _, block := range strings.Split(strings.TrimSuffix(text, "\n\n"), "\n\n") {
		lines := strings.Split(block, "\n")
		Expect(lines).To(HaveLen(2), block)
		name, ok := strings.CutPrefix(lines[0], "event: ")
		Expect(ok).To(BeTrue(), block)
		data, ok := strings.CutPrefix(lines[1], "data: ")
		Expect(ok).To(BeTrue(), block)
		var d map[string]any
		Expect(json.Unmarshal([]byte(data), &d)).To(Succeed(), block)
		Expect(d["type"]).To(Equal(name))
		out = append(out, sdkEvent{name, d})
	}
	return out
}

func names(events []sdkEvent) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Name)
	}
	return out
}

// flushRecorder counts writes and flushes, like an http.ResponseWriter.
type flushRecorder struct {
	bytes.Buffer
	writes, flushes int
}

func (f *flushRecorder) Write(p []byte) (int, error) { f.writes++; return f.Buffer.Write(p) }
func (f *flushRecorder) Flush()                      { f.flushes++ }

type failWriter struct{ after int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.after--; f.after < 0 {
		return 0, errors.New("broken pipe")
	}
	return len(p), nil
}

var _ = Describe("StreamOf", func() {
	DescribeTable("renders a message as the stream the API sends, which assembles back to the same message",
		func(name string) {
			msg := fixture(name + ".json")
			stream, err := anthropic.StreamOf(msg)
			Expect(err).NotTo(HaveOccurred())
			events := sdkEvents(stream)
			Expect(events[0].Name).To(Equal("message_start"))
			start := events[0].Data["message"].(map[string]any)
			Expect(start["content"]).To(BeEmpty())
			Expect(start["stop_reason"]).To(BeNil())
			Expect(start["usage"]).To(HaveKey("input_tokens"))
			Expect(events[len(events)-2].Name).To(Equal("message_delta"))
			Expect(events[len(events)-2].Data["usage"]).To(HaveKey("output_tokens"))
			Expect(events[len(events)-1].Name).To(Equal("message_stop"))
			back, err := anthropic.AssembleStream(stream)
			Expect(err).NotTo(HaveOccurred())
			Expect(back).To(MatchJSON(msg))
			again, err := anthropic.StreamOf(back)
			Expect(err).NotTo(HaveOccurred())
			Expect(again).To(Equal(stream), "StreamOf is stable on its own assembled output")
		},
		Entry(nil, "text"), Entry(nil, "tool_use"), Entry(nil, "parallel_tools"), Entry(nil, "response_tool_use"),
		Entry(nil, "thinking_tool_use"), Entry(nil, "redacted_thinking"),
	)

	It("sends each block as start, one delta, stop, in order", func() {
		stream, err := anthropic.StreamOf(fixture("tool_use.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(names(sdkEvents(stream))).To(Equal([]string{"message_start",
			"content_block_start", "content_block_delta", "content_block_stop",
			"content_block_start", "content_block_delta", "content_block_stop",
			"message_delta", "message_stop"}))
		Expect(string(stream)).To(ContainSubstring(`"delta":{"type":"input_json_delta","partial_json":"{\"pattern\":\"ERROR|FAIL|✗\",`))
		Expect(string(stream)).To(ContainSubstring(`"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"Grep","input":{}}`))
	})

	It("refuses a malformed message with its position, and an error body with the API error", func() {
		_, err := anthropic.StreamOf([]byte(`{"content":[{"type":"text","text":"x"}`))
		Expect(err).To(MatchError(`anthropic: message: 1:39 (byte 38): content: want ',' or ']', got the end of the input`))
		_, err = anthropic.StreamOf(fixture("error_body.json"))
		var apiErr *anthropic.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue())
	})
})

var _ = Describe("WriteStream", func() {
	resp := core.Response{Text: "db-9 failed at line 333.", ToolCalls: []core.ToolCall{
		{ID: "toolu_1", Name: "Grep", Arguments: json.RawMessage(`{"pattern":"café ✗"}`)},
		{ID: "toolu_2", Name: "Now", Arguments: json.RawMessage(`not json`)},
	}, FinishReason: core.FinishToolCalls, Usage: core.Usage{InputTokens: 100, OutputTokens: 20}}

	It("streams text in several deltas and each input in two pieces, with a ping, flushing after each event", func() {
		var w flushRecorder
		Expect(anthropic.WriteStream(&w, resp, "msg_1", "claude-test")).To(Succeed())
		events := sdkEvents(w.Bytes())
		Expect(names(events)).To(Equal([]string{"message_start", "ping",
			"content_block_start", "content_block_delta", "content_block_delta", "content_block_delta", "content_block_delta",
			"content_block_delta", "content_block_stop",
			"content_block_start", "content_block_delta", "content_block_delta", "content_block_stop",
			"content_block_start", "content_block_delta", "content_block_delta", "content_block_stop",
			"message_delta", "message_stop"}))
		Expect(events[3].Data["delta"]).To(Equal(map[string]any{"type": "text_delta", "text": "db-9 "}))
		Expect(events[10].Data["delta"]).To(Equal(map[string]any{"type": "input_json_delta", "partial_json": `{"pattern":`}))
		Expect(events[11].Data["delta"]).To(Equal(map[string]any{"type": "input_json_delta", "partial_json": `"café ✗"}`}))
		Expect(events[14].Data["delta"]).To(Equal(map[string]any{"type": "input_json_delta", "partial_json": `{`}))
		Expect(w.flushes).To(Equal(len(events)))
		Expect(w.writes).To(Equal(len(events)))
	})

	It("assembles to exactly what EncodeResponse renders", func() {
		var w bytes.Buffer
		Expect(anthropic.WriteStream(&w, resp, "msg_1", "claude-test")).To(Succeed())
		out, err := anthropic.AssembleStream(w.Bytes())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(string(anthropic.EncodeResponse(resp, "msg_1", "claude-test"))))
		back, err := anthropic.DecodeResponse(out)
		Expect(err).NotTo(HaveOccurred())
		Expect(back.Text).To(Equal(resp.Text))
		Expect(string(back.ToolCalls[1].Arguments)).To(Equal("{}"))
	})

	It("splits an input on a UTF-8 boundary", func() {
		var w bytes.Buffer
		r := core.Response{ToolCalls: []core.ToolCall{{ID: "t", Name: "n", Arguments: json.RawMessage(`{"k":"ééééé"}`)}}}
		Expect(anthropic.WriteStream(&w, r, "m", "x")).To(Succeed())
		Expect(string(w.Bytes())).NotTo(ContainSubstring(`\ufffd`))
		out, err := anthropic.AssembleStream(w.Bytes())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(ContainSubstring(`"input":{"k":"ééééé"}`))
	})

	It("returns the writer's error", func() {
		Expect(anthropic.WriteStream(&failWriter{after: 3}, resp, "m", "x")).To(MatchError("broken pipe"))
	})
})
