package anthropic_test

import (
	"encoding/json"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
)

var _ = Describe("EncodeResponse", func() {
	It("renders text, tool_use blocks, stop_reason, a null stop_sequence and usage, leaving <, > and & unescaped", func() {
		resp := core.Response{Text: "<<<SHADOW:shadow_1>>> a & b", ToolCalls: []core.ToolCall{
			{ID: "toolu_1", Name: "Read", Arguments: json.RawMessage(`{ "file_path" : "/a" }`)},
		}, Usage: core.Usage{InputTokens: 10, OutputTokens: 3}, FinishReason: core.FinishToolCalls}
		out := anthropic.EncodeResponse(resp, "msg_1", "claude-test")
		Expect(string(out)).To(Equal(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[` +
			`{"type":"text","text":"<<<SHADOW:shadow_1>>> a & b"},{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/a"}}],` +
			`"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":3}}`))
	})

	It("renders no text block for empty text, and an empty content list for an empty answer", func() {
		out := anthropic.EncodeResponse(core.Response{}, "m", "x")
		Expect(out).To(MatchJSON(`{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}`))
	})

	DescribeTable("gives every tool_use a JSON object input",
		func(args, want string) {
			out := anthropic.EncodeResponse(core.Response{ToolCalls: []core.ToolCall{{ID: "t", Name: "n", Arguments: json.RawMessage(args)}}}, "m", "x")
			Expect(json.Valid(out)).To(BeTrue(), string(out))
			var m struct {
				Content []struct{ Input json.RawMessage }
			}
			Expect(json.Unmarshal(out, &m)).To(Succeed())
			Expect(string(m.Content[0].Input)).To(Equal(want))
		},
		Entry("empty", ``, `{}`),
		Entry("invalid", `{"a":`, `{}`),
		Entry("an array", `[1]`, `{}`),
		Entry("a string", `"{}"`, `{}`),
		Entry("trailing data", `{} {}`, `{}`),
		Entry("white space", " {\n\t\"a\" : [1, 2]\n} ", `{"a":[1,2]}`),
		Entry("invalid UTF-8 in a string", "{\"a\":\"x\xffy\"}", "{\"a\":\"x\ufffdy\"}"),
		Entry("escapes kept", `{"a":"\u003c\ud800"}`, `{"a":"\u003c\ud800"}`),
	)

	DescribeTable("maps the finish reason to stop_reason",
		func(finish string, calls int, want string) {
			resp := core.Response{FinishReason: finish}
			for range calls {
				resp.ToolCalls = append(resp.ToolCalls, core.ToolCall{ID: "t", Name: "n", Arguments: json.RawMessage(`{}`)})
			}
			Expect(anthropic.StopReason(resp)).To(Equal(want))
			var m struct {
				StopReason string `json:"stop_reason"`
			}
			Expect(json.Unmarshal(anthropic.EncodeResponse(resp, "m", "x"), &m)).To(Succeed())
			Expect(m.StopReason).To(Equal(want))
		},
		Entry(nil, "", 0, "end_turn"),
		Entry(nil, core.FinishStop, 0, "end_turn"),
		Entry(nil, core.FinishLength, 0, "max_tokens"),
		Entry(nil, "max_tokens", 1, "max_tokens"),
		Entry(nil, core.FinishToolCalls, 1, "tool_use"),
		Entry(nil, core.FinishStop, 2, "tool_use"),
		Entry("tool_calls without calls (phantom calls stripped)", core.FinishToolCalls, 0, "end_turn"),
		Entry(nil, "stop_sequence", 0, "stop_sequence"),
		Entry(nil, "refusal", 0, "refusal"),
		Entry(nil, "pause_turn", 0, "pause_turn"),
		Entry(nil, "content_filter", 0, "end_turn"),
	)
})

var _ = Describe("DecodeResponse", func() {
	It("maps a recorded response with text and a tool_use", func() {
		resp, err := anthropic.DecodeResponse(fixture("response_tool_use.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("The compressed log does not show which request failed first; I'll expand it."))
		Expect(resp.ToolCalls).To(HaveLen(1))
		Expect(resp.ToolCalls[0].ID).To(Equal("toolu_01D7FLrfh4GYq7yT1ULFeyMV"))
		Expect(resp.ToolCalls[0].Name).To(Equal("expand_context"))
		Expect(string(resp.ToolCalls[0].Arguments)).To(Equal(`{"shadow_id":"shadow_8a1f0c55e2d34b7a9c6e1f2a3b4c5d6e"}`))
		Expect(resp.FinishReason).To(Equal(core.FinishToolCalls))
		Expect(resp.Usage).To(Equal(core.Usage{InputTokens: 2095, OutputTokens: 71}))
	})

	It("concatenates several text blocks as they are", func() {
		resp, err := anthropic.DecodeResponse([]byte(`{"type":"message","content":[{"type":"text","text":"The answer is "},{"type":"text","text":"42."}],"stop_reason":"end_turn"}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("The answer is 42."))
		Expect(resp.FinishReason).To(Equal(core.FinishStop))
	})

	DescribeTable("round-trips a core.Response through EncodeResponse",
		func(resp core.Response) {
			back, err := anthropic.DecodeResponse(anthropic.EncodeResponse(resp, "m", "x"))
			Expect(err).NotTo(HaveOccurred())
			Expect(back).To(Equal(resp))
		},
		Entry("text", core.Response{Text: "hi \u2028 \x00 \"there\"", FinishReason: core.FinishStop, Usage: core.Usage{InputTokens: 5, OutputTokens: 1}}),
		Entry("calls", core.Response{Text: "x", FinishReason: core.FinishToolCalls, ToolCalls: []core.ToolCall{
			{ID: "a", Name: "A", Arguments: json.RawMessage(`{"k":[1,{"z":null}]}`)}, {ID: "b", Name: "B", Arguments: json.RawMessage(`{}`)}}}),
		Entry("length", core.Response{Text: "cut", FinishReason: core.FinishLength}),
		Entry("refusal", core.Response{FinishReason: "refusal"}),
	)

	It("gives an *APIError with the documented status for an error body", func() {
		_, err := anthropic.DecodeResponse(fixture("error_body.json"))
		Expect(err).To(MatchError("anthropic: response: 1:1 (byte 0): error: overloaded_error: Overloaded"))
		var apiErr *anthropic.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue())
		Expect(apiErr.Type).To(Equal("overloaded_error"))
		Expect(apiErr.Status()).To(Equal(529))
	})

	DescribeTable("refuses content it cannot map with ErrUnsupported",
		func(body string) {
			_, err := anthropic.DecodeResponse([]byte(body))
			Expect(err).To(MatchError(anthropic.ErrUnsupported))
		},
		Entry("server tool", `{"type":"message","content":[{"type":"server_tool_use","id":"s","name":"web_search","input":{"query":"q"}}]}`),
		Entry("citations", `{"type":"message","content":[{"type":"text","text":"x","citations":[{"type":"char_location"}]}]}`),
	)

	DescribeTable("refuses a malformed response with its position",
		func(body, want string) {
			_, err := anthropic.DecodeResponse([]byte(body))
			Expect(err).To(MatchError(want))
		},
		Entry(nil, `{"type":"message","content":[{"type":"text","text":1}]}`,
			`anthropic: response: 1:52 (byte 51): content[0].text: want a string, got a number`),
		Entry(nil, `{"type":"completion"}`, `anthropic: response: 1:1 (byte 0): want type "message", got "completion"`),
		Entry(nil, `{"content":[{"type":"tool_use","id":"t","name":"n","input":"{}"}]}`,
			`anthropic: response: 1:60 (byte 59): content[0].input: want an object, got a string`),
		Entry(nil, `{"usage":{"input_tokens":1.5}}`, `anthropic: response: 1:26 (byte 25): usage.input_tokens: want a non-negative integer, got 1.5`),
		Entry(nil, `{"usage":{"x":1,"x":2}}`, `anthropic: response: 1:17 (byte 16): usage.x: duplicate key "x"`),
		Entry(nil, `{"content":[{"type":"text","type":"tool_use"}]}`, `anthropic: response: 1:28 (byte 27): content[0].type: duplicate key "type"`),
	)
})
