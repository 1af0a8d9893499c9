package responses_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/core/jsonspan"
)

var _ = Describe("Wire", func() {
	w := responses.Wire{}

	It("reads every *_call_output whose output is text, named by its call, and leaves the rest", func() {
		body := []byte(`{"stream":true,"previous_response_id":"resp_9","input":[
			{"role":"user","content":"first"},
			{"type":"function_call","call_id":"a","name":"exec_command","arguments":"{}"},
			{"type":"function_call_output","call_id":"a","output":"out a"},
			{"type":"custom_tool_call","call_id":"b","name":"apply_patch","input":"p"},
			{"type":"custom_tool_call_output","call_id":"b","output":[{"type":"input_text","text":"ok "},{"type":"input_text","text":"b"}]},
			{"type":"local_shell_call","call_id":"c","action":{"type":"exec","command":["ls"]}},
			{"type":"local_shell_call_output","id":"c","output":"out c"},
			{"type":"apply_patch_call_output","call_id":"d","status":"completed","output":null},
			{"type":"shell_call_output","call_id":"e","output":[{"stdout":"x","stderr":"","outcome":{"type":"exit","exit_code":0}}]},
			{"type":"computer_call_output","call_id":"f","output":{"type":"computer_screenshot","image_url":"data:"}},
			{"type":"function_call_output","call_id":"g","output":[{"type":"input_text","text":"t"},{"type":"input_image","image_url":"u"}]},
			{"type":"message","role":"user","content":[{"type":"input_text","text":"second"}]},
			{"type":"reasoning","encrypted_content":"x","summary":[]}]}`)
		c, err := w.Read(body)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Outputs).To(Equal([]gateway.ToolOutput{
			{Index: 0, CallID: "a", Tool: "exec_command", Content: "out a", Provider: "openai"},
			{Index: 1, CallID: "b", Tool: "apply_patch", Content: "ok b", Provider: "openai"},
			{Index: 2, CallID: "c", Tool: "local_shell", Content: "out c", Provider: "openai"},
		}))
		Expect(c.Query).To(Equal("second"))
		Expect(c.Stream).To(BeTrue())
		Expect(c.HiddenHistory).To(Equal("previous_response_id"))
	})

	It("reads a string input as the question, and no history without previous_response_id", func() {
		c, err := w.Read([]byte(`{"input":"why?","previous_response_id":null}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Query).To(Equal("why?"))
		Expect(c.Outputs).To(BeEmpty())
		Expect(c.HiddenHistory).To(BeEmpty())
		c, _ = w.Read([]byte(`{"input":[],"conversation":{"id":"conv_1"}}`))
		Expect(c.HiddenHistory).To(Equal("conversation"))
	})

	It("rewrites a compressed output to its marker text and offers expand_context as a function tool", func() {
		body := []byte(`{"input":[{"type":"custom_tool_call_output","call_id":"b","output":[{"type":"input_text","text":"long"}]}],"tools":[{"type":"custom","name":"apply_patch"}]}`)
		c, err := w.Read(body)
		Expect(err).NotTo(HaveOccurred())
		out, err := c.Rewrite([]gateway.Result{{Index: 0, Action: gateway.ActionCompressed, Text: "<<<SHADOW:s>>>\nshort"}}, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"input":[{"type":"custom_tool_call_output","call_id":"b","output":"<<<SHADOW:s>>>\nshort"}],"tools":[{"type":"custom","name":"apply_patch"},` +
			`{"type":"function","name":"expand_context","description":` + string(mustJSON(gateway.ExpandToolDescription)) + `,"parameters":` + gateway.ExpandParams + `}]}`))
	})

	resp := []byte(`{"id":"resp_2","status":"completed","output":[` +
		`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"enc"},` +
		`{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Checking."}]},` +
		`{"type":"function_call","id":"fc_1","call_id":"x1","name":"expand_context","arguments":"{\"shadow_id\":\"shadow_1\"}"},` +
		`{"type":"function_call","id":"fc_2","call_id":"r1","name":"exec_command","arguments":"{}"},` +
		`{"type":"local_shell_call","id":"ls_1","call_id":"r2","action":{}},` +
		`{"type":"web_search_call","id":"ws_1","status":"completed"}],"usage":{"input_tokens":5,"output_tokens":3,"total_tokens":8}}`)

	It("finds the phantom calls of a response", func() {
		calls, err := w.PhantomCalls(resp)
		Expect(err).NotTo(HaveOccurred())
		Expect(calls).To(HaveLen(1))
		Expect(calls[0].ID).To(Equal("x1"))
		Expect(calls[0].ShadowID).To(Equal("shadow_1"))
	})

	It("appends the response's items less its real calls, then the answers", func() {
		body := []byte(`{"store":false,"input":[{"role":"user","content":"q"}]}`)
		calls, _ := w.PhantomCalls(resp)
		out, err := w.AppendExpansions(body, resp, calls, []string{"the original"})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"store":false,"input":[{"role":"user","content":"q"},` +
			`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"enc"},` +
			`{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Checking."}]},` +
			`{"type":"function_call","id":"fc_1","call_id":"x1","name":"expand_context","arguments":"{\"shadow_id\":\"shadow_1\"}"},` +
			`{"type":"web_search_call","id":"ws_1","status":"completed"},` +
			`{"type":"function_call_output","call_id":"x1","output":"the original"}]}`))
	})

	It("makes a string input a list, and leaves out a reasoning item it could not send back unstored", func() {
		r := []byte(`{"output":[{"type":"reasoning","id":"rs_1","summary":[]},{"type":"function_call","call_id":"x","name":"expand_context","arguments":"{}"}]}`)
		calls, _ := w.PhantomCalls(r)
		out, err := w.AppendExpansions([]byte(`{"input":"q","store":false}`), r, calls, []string{"a"})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"input":[{"role":"user","content":"q"},{"type":"function_call","call_id":"x","name":"expand_context","arguments":"{}"},{"type":"function_call_output","call_id":"x","output":"a"}],"store":false}`))
		out, err = w.AppendExpansions([]byte(`{"model":"m"}`), r, calls, []string{"a"})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(HavePrefix(`{"model":"m","input":[{"type":"reasoning","id":"rs_1","summary":[]},`), "stored: the API resolves it by id")
	})

	It("strips the expand_context tool the response echoes from the request", func() {
		r := []byte(`{"output":[],"tools":[{"type":"function","name":"exec_command"},{"type":"function","name":"expand_context","parameters":{}},{"type":"web_search"}]}`)
		out, err := w.StripPhantom(r)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"output":[],"tools":[{"type":"function","name":"exec_command"},{"type":"web_search"}]}`))
	})

	It("strips the phantom calls and nothing else", func() {
		out, err := w.StripPhantom(resp)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(strings.Replace(string(resp),
			`{"type":"function_call","id":"fc_1","call_id":"x1","name":"expand_context","arguments":"{\"shadow_id\":\"shadow_1\"}"},`, "", 1)))
		same, _ := w.StripPhantom(out)
		Expect(same).To(Equal(out))
	})

	It("re-streams a response, pretty-printed or not, as a stream that assembles back to it", func() {
		pretty := []byte("{\n  \"id\": \"resp_3\",\n  \"status\": \"completed\",\n  \"output\": [\n    {\"type\": \"reasoning\", \"id\": \"rs\", \"summary\": []}\n  ]\n}\n")
		for _, body := range [][]byte{resp, pretty} {
			stream, err := w.Restream(body)
			Expect(err).NotTo(HaveOccurred())
			back, err := w.Assemble(stream)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(back)).To(Equal(strings.TrimSpace(strings.ReplaceAll(string(body), "\n", " "))))
		}
	})

	It("renders the OpenAI error object", func() {
		Expect(string(w.ErrorBody(400, "bad"))).To(Equal(`{"error":{"message":"bad","type":"invalid_request_error","code":null}}`))
	})

	It("reads the requests Codex CLI sends: the turn 2 output is a tool output of exec_command", func() {
		body, err := os.ReadFile(filepath.Join("testdata", "codex", "turn2-request.json"))
		Expect(err).NotTo(HaveOccurred())
		c, err := w.Read(body)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Outputs).To(HaveLen(1))
		Expect(c.Outputs[0].Tool).To(Equal("exec_command"))
		Expect(c.Outputs[0].Content).To(ContainSubstring("toolout-codex-check"))
		Expect(c.Stream).To(BeTrue())
		Expect(c.HiddenHistory).To(BeEmpty())
		for _, name := range []string{"turn1-response.sse", "turn2-response.sse"} {
			raw, err := os.ReadFile(filepath.Join("testdata", "codex", name))
			Expect(err).NotTo(HaveOccurred())
			_, err = w.Assemble(raw)
			Expect(err).NotTo(HaveOccurred(), name)
		}
	})
})

func mustJSON(s string) []byte { return jsonspan.String(s) }
