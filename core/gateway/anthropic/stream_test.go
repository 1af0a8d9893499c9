package anthropic_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/anthropic"
)

// sse renders events (name, data) as a stream, each ended by a blank line.
func sse(events ...string) []byte {
	var b strings.Builder
	for i := 0; i+1 < len(events); i += 2 {
		b.WriteString("event: " + events[i] + "\ndata: " + events[i+1] + "\n\n")
	}
	return []byte(b.String())
}

const (
	msgStart  = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`
	textStart = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	toolStart = `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}`
	textDelta = `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`
	jsonDelta = `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`
	stop0     = `{"type":"content_block_stop","index":0}`
	msgDelta  = `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`
	msgStop   = `{"type":"message_stop"}`
)

// usageKeys returns n usage members "k0":0,... each followed by a comma.
func usageKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	return b.String()
}

var _ = Describe("AssembleStream", func() {
	DescribeTable("rebuilds the message the API returns without streaming, from recorded-style streams",
		func(name string) {
			out, err := anthropic.AssembleStream(fixture(name + ".sse"))
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(MatchJSON(fixture(name + ".json")))
		},
		Entry("text with pings and several deltas", "text"),
		Entry("text then a tool_use whose input comes in many input_json_delta pieces", "tool_use"),
		Entry("three parallel tool_use blocks, one without input, cumulative usage in message_delta", "parallel_tools"),
		Entry("a thinking block with its signature, text, then an expand_context tool_use (the phantom-call shape)", "thinking_tool_use"),
		Entry("a redacted_thinking block whole in its start, a thinking block started without a signature, text, a tool_use", "redacted_thinking"),
	)

	DescribeTable("reads any SSE line ending, comments, id and retry fields, a BOM, multi-line data and unknown events",
		func(transform func(string) string) {
			raw := transform(string(fixture("tool_use.sse")))
			out, err := anthropic.AssembleStream([]byte(raw))
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(MatchJSON(fixture("tool_use.json")))
		},
		Entry("CRLF", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }),
		Entry("CR", func(s string) string { return strings.ReplaceAll(s, "\n", "\r") }),
		Entry("BOM, comments, id and retry", func(s string) string {
			return "\uFEFF: keep-alive\nretry: 3000\n\n" + strings.ReplaceAll(s, "event: ping\n", "id: 7\n: comment\nevent: ping\n")
		}),
		Entry("data split over two lines", func(s string) string {
			return strings.Replace(s, `data: {"type":"content_block_stop","index":1}`, "data: {\"type\":\"content_block_stop\",\ndata: \"index\":1}", 1)
		}),
		Entry("no space after the colon", func(s string) string { return strings.ReplaceAll(s, "data: ", "data:") }),
		Entry("an unknown event", func(s string) string {
			return strings.Replace(s, "event: ping\n", "event: future_event\ndata: {\"type\":\"future_event\",\"x\":[1]}\n\nevent: ping\n", 1)
		}),
		Entry("events without event lines", func(s string) string {
			var keep []string
			for _, line := range strings.Split(s, "\n") {
				if !strings.HasPrefix(line, "event: ") {
					keep = append(keep, line)
				}
			}
			return strings.Join(keep, "\n")
		}),
	)

	It("takes the usage of message_start and the non-null values of message_delta's usage over it", func() {
		out, err := anthropic.AssembleStream(sse("message_start", msgStart,
			"message_delta", `{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"input_tokens":null,"output_tokens":9,"server_tool_use":{"web_search_requests":1}}}`,
			"message_stop", msgStop))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":"max_tokens","stop_sequence":null,` +
			`"usage":{"input_tokens":7,"output_tokens":9,"server_tool_use":{"web_search_requests":1}}}`))
	})

	It("keeps interleaved blocks apart, in index order", func() {
		out, err := anthropic.AssembleStream(sse("message_start", msgStart,
			"content_block_start", textStart,
			"content_block_start", strings.Replace(toolStart, `"index":0`, `"index":1`, 1),
			"content_block_delta", strings.Replace(jsonDelta, `"index":0`, `"index":1`, 1),
			"content_block_delta", textDelta,
			"content_block_stop", `{"type":"content_block_stop","index":1}`, "content_block_stop", stop0,
			"message_delta", msgDelta, "message_stop", msgStop))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(ContainSubstring(`"content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"t","name":"n","input":{"a":1}}]`))
	})

	It("fails on a stream cut anywhere before the blank line after message_stop, with ErrIncomplete", func() {
		raw := fixture("tool_use.sse")
		_, err := anthropic.AssembleStream(fixture("cut.sse"))
		Expect(err).To(MatchError(anthropic.ErrIncomplete))
		Expect(err).To(MatchError(`anthropic: stream: 40:3 (byte 1900): the stream ended before message_stop`))
		for n := range len(raw) {
			_, err := anthropic.AssembleStream(raw[:n])
			Expect(errors.Is(err, anthropic.ErrIncomplete)).To(BeTrue(), "cut at %d: %v", n, err)
		}
		_, err = anthropic.AssembleStream(raw)
		Expect(err).NotTo(HaveOccurred())
	})

	It("fails on an error event with the API's error", func() {
		_, err := anthropic.AssembleStream(fixture("overloaded.sse"))
		Expect(err).To(MatchError(`anthropic: stream: 14:7 (byte 576): event error: error: overloaded_error: Overloaded`))
		var apiErr *anthropic.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue())
		Expect(apiErr).To(Equal(&anthropic.APIError{Type: "overloaded_error", Message: "Overloaded"}))
		Expect(apiErr.Status()).To(Equal(529))
	})

	DescribeTable("refuses a stream out of order or malformed, naming the line and column",
		func(raw []byte, want string) {
			_, err := anthropic.AssembleStream(raw)
			Expect(err).To(MatchError(want))
			var e *anthropic.Error
			Expect(errors.As(err, &e)).To(BeTrue())
			Expect(e.Input).To(Equal("stream"))
		},
		Entry("malformed JSON in data", []byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":}}\n\n"),
			`anthropic: stream: 2:47 (byte 67): event message_start: message.id: want a JSON value, got '}'`),
		Entry("content before message_start", sse("content_block_start", textStart),
			`anthropic: stream: 2:7 (byte 33): event content_block_start: event before message_start`),
		Entry("a second message_start", sse("message_start", msgStart, "message_start", msgStart),
			`anthropic: stream: 5:7 (byte 251): event message_start: a second message_start`),
		Entry("delta before its block starts", sse("message_start", msgStart, "content_block_delta", textDelta),
			`anthropic: stream: 5:45 (byte 295): event content_block_delta: index: content block 0 was not started`),
		Entry("delta after its block stopped", sse("message_start", msgStart, "content_block_start", textStart, "content_block_stop", stop0, "content_block_delta", textDelta),
			`anthropic: stream: 11:45 (byte 485): event content_block_delta: index: content block 0 was stopped`),
		Entry("a block started twice", sse("message_start", msgStart, "content_block_start", textStart, "content_block_start", textStart),
			`anthropic: stream: 8:45 (byte 412): event content_block_start: index: content block 0 started after 1 block(s): want index 1`),
		Entry("a block index out of sequence", sse("message_start", msgStart, "content_block_start", strings.Replace(textStart, `"index":0`, `"index":2`, 1)),
			`anthropic: stream: 5:45 (byte 295): event content_block_start: index: content block 2 started after 0 block(s): want index 0`),
		Entry("a usage of more than 64 members", sse("message_start", strings.Replace(msgStart, `"usage":{`, `"usage":{`+usageKeys(65), 1)),
			`anthropic: stream: 2:727 (byte 747): event message_start: message.usage.k64: usage with more than 64 members`),
		Entry("message_stop before a block stopped", sse("message_start", msgStart, "content_block_start", textStart, "message_stop", msgStop),
			`anthropic: stream: 8:7 (byte 367): event message_stop: message_stop before content block 0 stopped`),
		Entry("an event after message_stop", sse("message_start", msgStart, "message_stop", msgStop, "message_delta", msgDelta),
			`anthropic: stream: 8:7 (byte 302): event message_delta: event after message_stop`),
		Entry("text_delta for a tool_use block", sse("message_start", msgStart, "content_block_start", toolStart, "content_block_delta", textDelta),
			`anthropic: stream: 8:55 (byte 447): event content_block_delta: delta: text_delta for a tool_use block`),
		Entry("tool input that is not JSON", sse("message_start", msgStart, "content_block_start", toolStart,
			"content_block_delta", strings.Replace(jsonDelta, `{\"a\":1}`, `{\"a\":`, 1), "content_block_stop", stop0),
			`anthropic: stream: 11:7 (byte 534): event content_block_stop: content block 0: tool input: want a JSON value, got the end of the input (byte 5 of the joined partial_json)`),
		Entry("tool input that is not an object", sse("message_start", msgStart, "content_block_start", toolStart,
			"content_block_delta", strings.Replace(jsonDelta, `{\"a\":1}`, `[1]`, 1), "content_block_stop", stop0),
			`anthropic: stream: 11:7 (byte 530): event content_block_stop: content block 0: tool input: want an object, got an array (byte 0 of the joined partial_json)`),
		Entry("event name and data type differ", sse("message_stop", msgStart),
			`anthropic: stream: 2:15 (byte 34): event message_stop: type: want type "message_stop", got "message_start"`),
		Entry("no index", sse("message_start", msgStart, "content_block_stop", `{"type":"content_block_stop"}`),
			`anthropic: stream: 5:7 (byte 256): event content_block_stop: no index`),
		Entry("a negative index", sse("message_start", msgStart, "content_block_stop", `{"type":"content_block_stop","index":-1}`),
			`anthropic: stream: 5:44 (byte 293): event content_block_stop: index: want a non-negative integer, got -1`),
	)

	DescribeTable("keeps every error on one line, with long or odd keys and values quoted and cut",
		func(raw string, want string) {
			_, err := anthropic.AssembleStream([]byte(raw))
			Expect(err).To(MatchError(want))
		},
		Entry("a key with a newline (found by FuzzAssembleStream)", "data:{\"\\n\":A\n\n",
			`anthropic: stream: 1:12 (byte 11): ["\n"]: want a JSON value, got 'A'`),
		Entry("an error message with newlines", "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"a\\nb\\r\\nc\"}}\n\n",
			`anthropic: stream: 2:7 (byte 19): event error: error: api_error: a b  c`),
		Entry("a long type", "event: message_start\ndata: "+`{"type":"`+strings.Repeat("x", 100)+`"}`+"\n\n",
			`anthropic: stream: 2:15 (byte 35): event message_start: type: want type "message_start", got "`+strings.Repeat("x", 64)+`..."`),
		Entry("a long key", "data: {\""+strings.Repeat("k", 100)+"\":[}\n\n",
			`anthropic: stream: 1:112 (byte 111): ["`+strings.Repeat("k", 64)+`..."][0]: want a JSON value, got '}'`),
	)

	DescribeTable("refuses content it cannot map with ErrUnsupported",
		func(raw []byte) {
			_, err := anthropic.AssembleStream(raw)
			Expect(err).To(MatchError(anthropic.ErrUnsupported))
		},
		Entry("a server_tool_use block", sse("message_start", msgStart, "content_block_start",
			`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}`)),
		Entry("a web_search_tool_result block", sse("message_start", msgStart, "content_block_start",
			`{"type":"content_block_start","index":0,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}}`)),
		Entry("a citations_delta", sse("message_start", msgStart, "content_block_start", textStart, "content_block_delta",
			`{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"char_location"}}}`)),
		Entry("a message_start with content", sse("message_start", strings.Replace(msgStart, `"content":[]`, `"content":[{"type":"text","text":"x"}]`, 1))),
	)

	It("reads a 4 MiB text delta and thousands of events without a line limit", func() {
		big := strings.Repeat("x", 4<<20)
		var events []string
		events = append(events, "message_start", msgStart, "content_block_start", textStart,
			"content_block_delta", strings.Replace(textDelta, `"hi"`, `"`+big+`"`, 1))
		for range 5000 {
			events = append(events, "ping", `{"type": "ping"}`, "content_block_delta", textDelta)
		}
		events = append(events, "content_block_stop", stop0, "message_delta", msgDelta, "message_stop", msgStop)
		out, err := anthropic.AssembleStream(sse(events...))
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Contains(out, []byte(big+strings.Repeat("hi", 5000)+`"}`))).To(BeTrue())
	})
})
