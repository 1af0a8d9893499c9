package responses_test

import (
	"encoding/json"
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/responses"
)

var answer = core.Response{Text: "Running it.", ToolCalls: []core.ToolCall{
	{ID: "call_1", Name: "shell", Arguments: json.RawMessage(`{"command":["ls"]}`)},
	{ID: "call_2", Name: "apply_patch", Arguments: json.RawMessage(`"*** Begin Patch\n*** End Patch\n"`), Custom: true}},
	Usage: core.Usage{InputTokens: 12, OutputTokens: 7}, FinishReason: core.FinishToolCalls}

// events returns the types of a stream's events, in order, checking that
// each data line is an object whose type is the event's name and whose
// sequence_number counts from 0.
func events(stream []byte) []string {
	GinkgoHelper()
	var types []string
	for _, block := range strings.Split(strings.TrimSuffix(string(stream), "\n\n"), "\n\n") {
		name, data, ok := strings.Cut(block, "\ndata: ")
		Expect(ok).To(BeTrue(), block)
		var ev struct {
			Type string `json:"type"`
			Seq  *int   `json:"sequence_number"`
		}
		Expect(json.Unmarshal([]byte(data), &ev)).To(Succeed())
		Expect(name).To(Equal("event: " + ev.Type))
		Expect(ev.Seq).NotTo(BeNil())
		Expect(*ev.Seq).To(Equal(len(types)))
		types = append(types, ev.Type)
	}
	return types
}

var _ = Describe("EncodeResponse and DecodeResponse", func() {
	It("write a response object with a message, a function call and a custom tool call, and read it back", func() {
		body := responses.EncodeResponse(answer, "resp_7", "scripted")
		Expect(string(body)).To(Equal(`{"id":"resp_7","object":"response","created_at":0,"status":"completed","error":null,"incomplete_details":null,"model":"scripted","output":[` +
			`{"id":"msg_7","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Running it."}]},` +
			`{"id":"fc_7_0","type":"function_call","status":"completed","call_id":"call_1","name":"shell","arguments":"{\"command\":[\"ls\"]}"},` +
			`{"id":"ctc_7_1","type":"custom_tool_call","status":"completed","call_id":"call_2","name":"apply_patch","input":"*** Begin Patch\n*** End Patch\n"}],` +
			`"parallel_tool_calls":true,"tool_choice":"auto","tools":[],"usage":{"input_tokens":12,"input_tokens_details":{"cached_tokens":0},"output_tokens":7,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":19}}`))
		back, err := responses.DecodeResponse(body)
		Expect(err).NotTo(HaveOccurred())
		Expect(back).To(Equal(answer))
	})

	It("mark a response cut by max_output_tokens incomplete, and read it as length", func() {
		body := responses.EncodeResponse(core.Response{Text: "par", FinishReason: core.FinishLength}, "resp_1", "m")
		Expect(string(body)).To(ContainSubstring(`"status":"incomplete","error":null,"incomplete_details":{"reason":"max_output_tokens"}`))
		back, err := responses.DecodeResponse(body)
		Expect(err).NotTo(HaveOccurred())
		Expect(back.FinishReason).To(Equal(core.FinishLength))
	})

	It("refuse a failed response with its message, and a malformed one with the position", func() {
		_, err := responses.DecodeResponse([]byte(`{"status":"failed","error":{"code":"server_error","message":"boom"},"output":[]}`))
		Expect(err).To(MatchError("responses: response: 1:11 (byte 10): status: the response failed: boom"))
		_, err = responses.DecodeResponse([]byte(`{"output":[{"type":"function_call","call_id":"c","name":7,"arguments":"{}"}]}`))
		Expect(err).To(MatchError("responses: response: 1:57 (byte 56): output[0].name: want a string, got a number"))
	})
})

var _ = Describe("EncodeStream and Assemble", func() {
	It("stream the events the API sends, and assemble them to the response object", func() {
		stream := responses.EncodeStream(answer, "resp_7", "scripted")
		Expect(events(stream)).To(Equal([]string{"response.created", "response.in_progress",
			"response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.done", "response.content_part.done", "response.output_item.done",
			"response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.done", "response.output_item.done",
			"response.output_item.added", "response.custom_tool_call_input.delta", "response.custom_tool_call_input.done", "response.output_item.done",
			"response.completed"}))
		Expect(string(stream)).To(ContainSubstring("event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_7\",\"object\":\"response\",\"created_at\":0,\"status\":\"in_progress\","))
		Expect(string(stream)).To(ContainSubstring(`"output":[],"parallel_tool_calls":true,"tool_choice":"auto","tools":[],"usage":null}}`))
		Expect(string(stream)).To(ContainSubstring(`{"type":"response.output_item.added","sequence_number":8,"output_index":1,"item":{"id":"fc_7_0","type":"function_call","status":"in_progress","call_id":"call_1","name":"shell","arguments":""}}`))
		Expect(string(stream)).To(ContainSubstring(`{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_7","output_index":0,"content_index":0,"delta":"Running it.","logprobs":[]}`))
		Expect(string(stream)).To(ContainSubstring(`{"type":"response.custom_tool_call_input.delta","sequence_number":13,"item_id":"ctc_7_1","output_index":2,"delta":"*** Begin Patch\n*** End Patch\n"}`))
		body, err := responses.Assemble(stream)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(body)).To(Equal(string(responses.EncodeResponse(answer, "resp_7", "scripted"))))
	})

	It("assembles the items of output_item.done events when the terminal response has no output", func() {
		raw := "event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":1,\"item\":{\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"f\",\"arguments\":\"{}\"}}\n\n" +
			"data: {\"type\":\"response.output_item.done\",\"output_index\":0,\n" +
			"data: \"item\":{\"type\":\"reasoning\",\"id\":\"rs\",\"summary\":[]}}\n\n" +
			": keep-alive\n\n" +
			"event: response.completed\r\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"status\":\"completed\",\"output\":[]}}\r\n\r\n"
		body, err := responses.Assemble([]byte(raw))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(body)).To(Equal(`{"id":"r","status":"completed","output":[{"type":"reasoning","id":"rs","summary":[]},{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}]}`))
		body, err = responses.Assemble([]byte(strings.Replace(raw, `"output":[]`, `"usage":null`, 1)))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(body)).To(Equal(`{"id":"r","status":"completed","usage":null,"output":[{"type":"reasoning","id":"rs","summary":[]},{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}]}`))
	})

	DescribeTable("refuses a stream it cannot assemble, with the position",
		func(raw, want string, sentinel error) {
			_, err := responses.Assemble([]byte(raw))
			Expect(err).To(MatchError(want))
			if sentinel != nil {
				Expect(errors.Is(err, sentinel)).To(BeTrue())
			}
		},
		Entry("a cut stream", "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{}}\n\n",
			"responses: stream: 4:1 (byte 73): the stream ended before response.completed (cut)", responses.ErrIncomplete),
		Entry("an error event", "event: error\ndata: {\"type\":\"error\",\"code\":\"rate_limit_exceeded\",\"message\":\"slow\\ndown\",\"param\":null}\n\n",
			`responses: stream: 2:7 (byte 19): event error: error event "rate_limit_exceeded": slow down`, responses.ErrStreamError),
		Entry("data that is not JSON", "data: {\"type\":\"response.created\"\n\n",
			"responses: stream: 1:33 (byte 32): data: invalid JSON: unexpected end of input", nil),
		Entry("a bad value in the second data line", "data: {\"type\":\"response.completed\",\ndata: \"response\":[]}\n\n",
			"responses: stream: 2:18 (byte 53): event response.completed: response: want an object, got an array", nil),
		Entry("an event without a type", "data: {\"x\":1}\n\n", "responses: stream: 1:7 (byte 6): type: missing", nil),
		// Found by FuzzAssemble: the terminal response's items were taken
		// as they were, while an output_item.done event's item must be an
		// object, so StreamOf made a stream of the result Assemble refused.
		Entry("a terminal response whose output item is not an object",
			"data:{\"type\":\"response.failed\",\"response\":{\"output\":[0]}}\r\r",
			"responses: stream: 1:54 (byte 53): event response.failed: response.output[0]: want an object, got a number", nil),
	)

	It("StreamOf refuses a response whose output item is not an object, with the position", func() {
		_, err := responses.StreamOf([]byte(`{"output":[{"type":"message","content":[]},"x"]}`))
		Expect(err).To(MatchError("responses: response: 1:44 (byte 43): output[1]: want an object, got a string"))
	})
})
