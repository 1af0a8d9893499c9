package responses_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/responses"
)

var tag = core.Tag{Site: core.SiteSessionTurn, Turn: 2}

var _ = Describe("DecodeRequest", func() {
	It("reads a string input as one user message, and instructions as the system text", func() {
		req, stream, err := responses.DecodeRequest([]byte(`{"model":"gpt-5","instructions":"Be brief.","input":"hi","stream":true,"store":false,"max_output_tokens":64}`), tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(stream).To(BeTrue())
		Expect(req).To(Equal(core.Request{Tag: tag, MaxOutputTokens: 64, Messages: []core.Message{
			{Role: core.RoleSystem, Content: "Be brief."}, {Role: core.RoleUser, Content: "hi"}}}))
	})

	It("reads a conversation of items: messages, function and custom calls, their outputs, and skips the rest", func() {
		body := `{"model":"gpt-5","previous_response_id":null,"input":[
			{"type":"message","role":"developer","content":[{"type":"input_text","text":"env"}]},
			{"role":"user","content":[{"type":"input_text","text":"list"},{"type":"input_image","image_url":"x"},{"type":"input_text","text":"files"}]},
			{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAA"},
			{"type":"message","role":"assistant","id":"msg_1","content":[{"type":"output_text","text":"Looking.","annotations":[]}]},
			{"type":"function_call","id":"fc_1","call_id":"call_1","name":"shell","arguments":"{\"command\":[\"ls\"]}"},
			{"type":"custom_tool_call","id":"ctc_1","call_id":"call_2","name":"apply_patch","input":"*** Begin Patch\n*** End Patch"},
			{"type":"function_call_output","call_id":"call_1","output":"a\nb"},
			{"type":"custom_tool_call_output","call_id":"call_2","output":[{"type":"input_text","text":"Done"},{"type":"input_text","text":"!"}]},
			{"type":"local_shell_call","id":"lsh_1","call_id":"call_3","status":"completed","action":{"type":"exec","command":["pwd"],"env":{}}},
			{"type":"local_shell_call_output","id":"call_3","output":"/src"},
			{"type":"compaction","encrypted_content":"opaque"},
			{"type":"item_reference","id":"msg_0"},
			{"id":"msg_00"},
			{"type":"web_search_call","id":"ws_1","status":"completed"},
			{"type":"future_item","x":[1]}
		],"tools":[{"type":"function","name":"shell","description":"Run","parameters":{"type":"object"},"strict":false},
			{"type":"custom","name":"apply_patch","description":"Patch","format":{"type":"grammar","syntax":"lark","definition":"start: x"}},
			{"type":"web_search"}]}`
		req, stream, err := responses.DecodeRequest([]byte(body), tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(stream).To(BeFalse())
		Expect(req.Messages).To(Equal([]core.Message{
			{Role: core.RoleSystem, Content: "env"},
			{Role: core.RoleUser, Content: "list\nfiles"},
			{Role: core.RoleAssistant, Content: "Looking.", ToolCalls: []core.ToolCall{
				{ID: "call_1", Name: "shell", Arguments: json.RawMessage(`{"command":["ls"]}`)},
				{ID: "call_2", Name: "apply_patch", Arguments: json.RawMessage(`"*** Begin Patch\n*** End Patch"`), Custom: true}}},
			{Role: core.RoleTool, Content: "a\nb", ToolCallID: "call_1", Name: "shell"},
			{Role: core.RoleTool, Content: "Done!", ToolCallID: "call_2", Name: "apply_patch"},
			{Role: core.RoleAssistant, ToolCalls: []core.ToolCall{{ID: "call_3", Name: "local_shell", Arguments: json.RawMessage(`{"type":"exec","command":["pwd"],"env":{}}`)}}},
			{Role: core.RoleTool, Content: "/src", ToolCallID: "call_3", Name: "local_shell"},
		}))
		Expect(req.Tools).To(Equal([]core.Tool{
			{Name: "shell", Description: "Run", InputSchema: json.RawMessage(`{"type":"object"}`)},
			{Name: "apply_patch", Description: "Patch", Custom: true}}))
	})

	It("keeps arguments that are not JSON as a JSON string, and empty arguments as none", func() {
		req, _, err := responses.DecodeRequest([]byte(`{"input":[{"type":"function_call","call_id":"c","name":"f","arguments":"{oops"},{"type":"function_call","call_id":"d","name":"g","arguments":""}]}`), tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(req.Messages[0].ToolCalls).To(Equal([]core.ToolCall{
			{ID: "c", Name: "f", Arguments: json.RawMessage(`"{oops"`)}, {ID: "d", Name: "g"}}))
	})

	DescribeTable("refuses a malformed body with the position and path",
		func(body, want string) {
			_, _, err := responses.DecodeRequest([]byte(body), tag)
			Expect(err).To(MatchError(want))
			var e *responses.Error
			Expect(err).To(BeAssignableToTypeOf(e))
		},
		Entry("not JSON", `{"input":`, "responses: request: 1:10 (byte 9): invalid JSON: unexpected end of input"),
		Entry("not an object", `[1]`, "responses: request: 1:1 (byte 0): want an object, got an array"),
		Entry("input a number", `{"input":3}`, "responses: request: 1:10 (byte 9): input: want a string or an array of items, got a number"),
		Entry("an item not an object", `{"input":["x"]}`, "responses: request: 1:11 (byte 10): input[0]: want an object, got a string"),
		Entry("an item without a type", `{"input":[{"content":"x"}]}`, "responses: request: 1:11 (byte 10): input[0]: item without a type"),
		Entry("a type not a string", `{"input":[{"type":1}]}`, "responses: request: 1:19 (byte 18): input[0].type: want a string, got a number"),
		Entry("a bad role", "{\"input\":[\n {\"role\":\"tool\",\"content\":\"x\"}]}", `responses: request: 2:10 (byte 20): input[0].role: want role "user", "assistant", "system" or "developer", got "tool"`),
		Entry("content missing", `{"input":[{"role":"user"}]}`, "responses: request: 1:11 (byte 10): input[0].content: message without content"),
		Entry("a part's text not a string", `{"input":[{"role":"user","content":[{"type":"input_text","text":null}]}]}`, "responses: request: 1:65 (byte 64): input[0].content[0].text: want a string, got null"),
		Entry("a call without call_id", `{"input":[{"type":"function_call","name":"f","arguments":"{}"}]}`, "responses: request: 1:11 (byte 10): input[0].call_id: missing"),
		Entry("arguments an object", `{"input":[{"type":"function_call","call_id":"c","name":"f","arguments":{}}]}`, "responses: request: 1:72 (byte 71): input[0].arguments: want a string, got an object"),
		Entry("custom input missing", `{"input":[{"type":"custom_tool_call","call_id":"c","name":"f"}]}`, "responses: request: 1:11 (byte 10): input[0].input: missing"),
		Entry("an output without output", `{"input":[{"type":"function_call_output","call_id":"c"}]}`, "responses: request: 1:11 (byte 10): input[0].output: missing"),
		Entry("an output part without type", `{"input":[{"type":"function_call_output","call_id":"c","output":[{"text":"x"}]}]}`, "responses: request: 1:66 (byte 65): input[0].output[0].type: missing"),
		Entry("a duplicate call_id", `{"input":[{"type":"function_call_output","call_id":"c","call_id":"d","output":""}]}`, `responses: request: 1:56 (byte 55): input[0]: duplicate key "call_id"`),
		Entry("a duplicate input", `{"input":"a","input":"b"}`, `responses: request: 1:14 (byte 13): duplicate key "input"`),
		Entry("stream a string", `{"stream":"yes"}`, "responses: request: 1:11 (byte 10): stream: want a boolean, got a string"),
		Entry("max_output_tokens negative", `{"max_output_tokens":-1}`, "responses: request: 1:22 (byte 21): max_output_tokens: want a non-negative integer, got -1"),
		Entry("instructions a list", `{"instructions":[]}`, "responses: request: 1:17 (byte 16): instructions: want a string, got an array"),
		Entry("previous_response_id a number", `{"previous_response_id":1}`, "responses: request: 1:25 (byte 24): previous_response_id: want a string, got a number"),
		Entry("a tool without a name", `{"tools":[{"type":"function"}]}`, "responses: request: 1:11 (byte 10): tools[0].name: missing"),
		Entry("parameters a string", `{"tools":[{"type":"function","name":"f","parameters":"x"}]}`, "responses: request: 1:54 (byte 53): tools[0].parameters: want an object, got a string"),
	)
})

var _ = Describe("EncodeRequest", func() {
	It("writes a request DecodeRequest reads back the same", func() {
		req := core.Request{Tag: tag, MaxOutputTokens: 100, Messages: []core.Message{
			{Role: core.RoleSystem, Content: "sys"},
			{Role: core.RoleUser, Content: "do it"},
			{Role: core.RoleAssistant, ToolCalls: []core.ToolCall{
				{ID: "c1", Name: "shell", Arguments: json.RawMessage(`{"cmd":"ls"}`)},
				{ID: "c2", Name: "patch", Arguments: json.RawMessage(`"raw text"`), Custom: true}}},
			{Role: core.RoleTool, Content: "a b", ToolCallID: "c1", Name: "shell"},
			{Role: core.RoleTool, Content: "ok", ToolCallID: "c2", Name: "patch"},
			{Role: core.RoleAssistant, Content: "done"},
		}, Tools: []core.Tool{{Name: "shell", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`)}, {Name: "patch", Custom: true}}}
		body := responses.EncodeRequest(req, "gpt-5")
		Expect(string(body)).To(ContainSubstring(`{"type":"custom_tool_call_output","call_id":"c2","output":"ok"}`))
		back, stream, err := responses.DecodeRequest(body, tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(stream).To(BeFalse())
		Expect(back).To(Equal(req))
	})
})
