package serve_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/harness/serve"
)

const responsesScenario = "testdata/responses.yaml"

// Codex-like requests: the user's question, then the same with the turn
// Codex replays (reasoning, the function call, its output).
const (
	respTools = `"tools":[{"type":"function","name":"shell","parameters":{"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}}}}},` +
		`{"type":"custom","name":"apply_patch","description":"Edit files"}]`
	respTurn1 = `{"model":"gpt-5-codex","instructions":"You are Codex.","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"How many build steps are there?"}]}],` +
		respTools + `,"store":false,"stream":false}`
	respTurn2 = `{"model":"gpt-5-codex","instructions":"You are Codex.","input":[` +
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"How many build steps are there?"}]},` +
		`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAA"},` +
		`{"type":"function_call","call_id":"call-1","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"seq 1 3\"]}"},` +
		`{"type":"function_call_output","call_id":"call-1","output":"build step 1\nbuild step 2\nbuild step 3"}],` +
		respTools + `,"store":false,"stream":true}`
)

// respUser is a Responses request whose input is one user message.
func respUser(text string, extra string) string {
	return `{"model":"m","input":` + strconv.Quote(text) + extra + `}`
}

// events are a stream's event names, in order, each checked against its
// data: the same type, sequence numbers 0, 1, 2...
func events(body string) []string {
	var names []string
	for i, ev := range strings.Split(strings.TrimSuffix(body, "\n\n"), "\n\n") {
		name, data, ok := strings.Cut(ev, "\ndata: ")
		ExpectWithOffset(1, ok).To(BeTrue(), ev)
		name = strings.TrimPrefix(name, "event: ")
		var v struct {
			Type string `json:"type"`
			Seq  int    `json:"sequence_number"`
		}
		ExpectWithOffset(1, json.Unmarshal([]byte(data), &v)).To(Succeed(), data)
		ExpectWithOffset(1, v.Type).To(Equal(name))
		ExpectWithOffset(1, v.Seq).To(Equal(i))
		names = append(names, name)
	}
	return names
}

var _ = Describe("toolout serve's Responses wire", func() {
	It("answers a function call, then streams the final text to the turn Codex replays", func() {
		r := start(serve.Options{}, responsesScenario)
		a := post(r.base+"/v1/responses", respTurn1)
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get("Content-Type")).To(Equal("application/json"))
		Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=1"))
		Expect(a.body).To(MatchRegexp(`^\{"id":"resp_1","object":"response",.*"output":\[\{"id":"fc_1_0","type":"function_call","status":"completed",` +
			`"call_id":"call-1","name":"shell","arguments":"\{\\"command\\":\[\\"bash\\",\\"-lc\\",\\"seq 1 3\\"\]\}"\}\]`))
		Expect(a.body).To(MatchRegexp(`"usage":\{"input_tokens":[1-9]\d*,"input_tokens_details":\{"cached_tokens":0\},"output_tokens":[1-9]\d*,`))

		a = post(r.base+"/v1/responses", respTurn2)
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get("Content-Type")).To(Equal("text/event-stream"))
		Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=2"), "reasoning, the call and its output are one turn")
		Expect(events(a.body)).To(Equal([]string{"response.created", "response.in_progress",
			"response.output_item.added", "response.content_part.added", "response.output_text.delta",
			"response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed"}))
		Expect(a.body).To(ContainSubstring(`"id":"resp_2"`))
		body, err := responses.Assemble([]byte(a.body))
		Expect(err).NotTo(HaveOccurred())
		resp, err := responses.DecodeResponse(body)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("There are 3 build steps."), "no final-report wrapper: Codex names none")
	})

	It("streams a function call's arguments in the step's chunks", func() {
		r := start(serve.Options{}, responsesScenario)
		a := post(r.base+"/v1/responses", strings.Replace(respTurn1, `"stream":false`, `"stream":true`, 1))
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(events(a.body)).To(Equal([]string{"response.created", "response.in_progress",
			"response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.delta",
			"response.function_call_arguments.done", "response.output_item.done", "response.completed"}))
		Expect(a.body).To(ContainSubstring(`"item":{"id":"fc_1_0","type":"function_call","status":"in_progress","call_id":"call-1","name":"shell","arguments":""}`))
		body, err := responses.Assemble([]byte(a.body))
		Expect(err).NotTo(HaveOccurred())
		resp, err := responses.DecodeResponse(body)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(resp.ToolCalls[0].Arguments)).To(Equal(`{"command":["bash","-lc","seq 1 3"]}`))
	})

	It("answers a step's custom tool call on the Responses wire, and refuses it on the others as a problem", func() {
		r := start(serve.Options{}, responsesScenario)
		patch := "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n"
		a := post(r.base+"/v1/responses", respUser("patch it", ""))
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		out := a.json()["output"].([]any)
		Expect(out).To(HaveLen(2))
		Expect(out[0]).To(HaveKeyWithValue("type", "message"))
		Expect(out[1]).To(Equal(map[string]any{"id": "ctc_1_0", "type": "custom_tool_call", "status": "completed",
			"call_id": "call_p", "name": "apply_patch", "input": patch}))

		a = post(r.base+"/v1/responses", respUser("patch it", `,"stream":true`))
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(strings.Count(a.body, "event: response.custom_tool_call_input.delta\n")).To(Equal(2))
		Expect(a.body).To(ContainSubstring("event: response.custom_tool_call_input.done\n"))
		body, err := responses.Assemble([]byte(a.body))
		Expect(err).NotTo(HaveOccurred())
		resp, err := responses.DecodeResponse(body)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.ToolCalls).To(HaveLen(1))
		Expect(resp.ToolCalls[0].Custom).To(BeTrue())
		Expect(resp.ToolCalls[0].Input()).To(Equal(patch))

		a = post(r.base+"/v1/chat/completions", `{"messages":[{"role":"user","content":"patch it"}]}`)
		Expect(a.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(a.body).To(ContainSubstring("a custom tool call has no form on this wire, only on the Responses API: apply_patch (post to /v1/responses)"))
		Expect(r.srv.Check()).To(MatchError(ContainSubstring(
			`testdata/responses.yaml: answered POST "/v1/chat/completions": 422 llmwire: a custom tool call has no form on this wire`)))
	})

	DescribeTable("counts the turns of the input's items: one per run of the model's items",
		func(input string, header []string, tag string) {
			r := start(serve.Options{}, responsesScenario)
			a := post(r.base+"/v1/responses", `{"model":"m","input":[`+input+`]}`, header...)
			Expect(a.status).To(Equal(http.StatusOK), a.body)
			Expect(a.header.Get(serve.TagHeader)).To(Equal(tag))
		},
		func(input string, header []string, tag string) string { return tag + ": " + input },
		Entry(nil, `{"role":"user","content":"count"}`, nil, "session.turn turn=1"),
		Entry(nil, `{"role":"user","content":"x"},{"type":"reasoning","summary":[]},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"I will look."}]},`+
			`{"type":"function_call","call_id":"a","name":"shell","arguments":"{}"},{"type":"function_call","call_id":"b","name":"shell","arguments":"{}"},`+
			`{"type":"function_call_output","call_id":"a","output":"1"},{"type":"function_call_output","call_id":"b","output":"2"},{"role":"user","content":"count"}`,
			nil, "session.turn turn=2"),
		Entry(nil, `{"role":"user","content":"x"},{"type":"function_call","call_id":"a","name":"shell","arguments":"{}"},{"type":"function_call_output","call_id":"a","output":"1"},`+
			`{"type":"custom_tool_call","call_id":"b","name":"apply_patch","input":"p"},{"type":"custom_tool_call_output","call_id":"b","output":"ok"},{"role":"user","content":"count"}`,
			nil, "session.turn turn=3"),
		Entry(nil, `{"role":"user","content":"x"},{"role":"assistant","content":"a"},{"role":"user","content":"y"},{"role":"assistant","content":"b"},{"role":"user","content":"count"}`,
			nil, "session.turn turn=3"),
		Entry("behind the gateway, its expand_context round is not the agent's turn",
			`{"role":"user","content":"count"},{"type":"function_call","call_id":"e","name":"expand_context","arguments":"{}"},{"type":"function_call_output","call_id":"e","output":"full"}`,
			[]string{proxy.RoundHeader, "2"}, "session.turn turn=1 round=2"),
	)

	It("continues a stored response named by previous_response_id, and refuses an unknown one with a counted 400", func() {
		r := start(serve.Options{}, responsesScenario)
		a := post(r.base+"/v1/responses", strings.Replace(respTurn1, `"store":false`, `"store":true`, 1))
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		a = post(r.base+"/v1/responses", `{"model":"m","previous_response_id":"resp_1","input":[{"type":"function_call_output","call_id":"call-1","output":"build step 3"}]}`)
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=2"), "the stored turn counts")
		Expect(a.body).To(ContainSubstring("There are 3 build steps."))

		a = post(r.base+"/v1/responses", respUser("count", `,"store":false`))
		Expect(a.status).To(Equal(http.StatusOK))
		for _, prev := range []string{"resp_3", "resp_9"} {
			a = post(r.base+"/v1/responses", `{"model":"m","previous_response_id":"`+prev+`","input":"count"}`)
			Expect(a.status).To(Equal(http.StatusBadRequest), "store: false keeps nothing; resp_9 was never answered")
			Expect(a.json()["error"]).To(HaveKeyWithValue("message", ContainSubstring(`previous_response_id "`+prev+`": no response of this scenario has that id`)))
		}
		Expect(r.srv.Rejected()).To(Equal(2))
		Expect(r.srv.Calls("responses")).To(HaveLen(3))
	})

	It("ends a stream with the API's error event after error_after chunks, or drops it mid-event", func() {
		r := start(serve.Options{}, responsesScenario)
		a := post(r.base+"/v1/responses", respUser("error", `,"stream":true`))
		Expect(a.status).To(Equal(http.StatusOK))
		names := events(a.body)
		Expect(names[len(names)-2:]).To(Equal([]string{"response.output_text.delta", "error"}))
		Expect(a.body).To(MatchRegexp(`event: error\ndata: \{"type":"error","sequence_number":5,"code":"server_error","message":"scripted stream error after 1 chunk\(s\)","param":null\}\n\n$`))
		_, err := responses.Assemble([]byte(a.body))
		Expect(err).To(MatchError(ContainSubstring(`error event "server_error": scripted stream error after 1 chunk(s)`)))

		req, err := http.NewRequest(http.MethodPost, r.base+"/v1/responses", strings.NewReader(respUser("cut", `,"stream":true`)))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("Content-Type", "application/json")
		resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		Expect(errors.Is(err, io.ErrUnexpectedEOF)).To(BeTrue(), "%v", err)
		Expect(string(got)).To(MatchRegexp(`"delta":"Request 10"[^\n]*\n\nevent: response.output_text.delta\ndata: \{"type":"response.output_text.delta","sequence_number[^\n]*$`), "half of the next event")
	})

	It("serves /v1/responses under each base path, query strings ignored, and refuses other paths and methods", func() {
		r := start(serve.Options{}, responsesScenario, overCap)
		a := post(r.base+"/responses/v1/responses?api-version=1", respUser("count", ""))
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get(serve.ScenarioHeader)).To(Equal("responses"))
		a = post(r.base+"/responses/v1/responses/compact", respUser("count", ""))
		Expect(a.status).To(Equal(http.StatusNotFound))
		Expect(a.body).To(ContainSubstring(`no route \"/v1/responses/compact\" under /responses/v1 (routes: POST /v1/chat/completions, POST /v1/responses,`))
		a = send(ctx(), http.MethodGet, r.base+"/responses/v1/responses", "")
		Expect(a.status).To(Equal(http.StatusMethodNotAllowed))
		a = post(r.base+"/responses/v1/responses", `{"model":"m","input":[{"type":"message","role":"user","content":7}]}`)
		Expect(a.status).To(Equal(http.StatusBadRequest))
		Expect(a.json()["error"]).To(HaveKeyWithValue("type", "invalid_request_error"))
		Expect(r.srv.Rejected()).To(Equal(3))
		Expect(regexp.MustCompile(`rejected POST /responses/v1/responses: 400 `).MatchString(r.srv.Check().Error())).To(BeTrue(), r.srv.Check().Error())
	})
})

var _ = Describe("toolout serve and Codex", func() {
	codexBody := func(name string) string {
		b, err := os.ReadFile("../../core/gateway/responses/testdata/codex/" + name)
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}

	It("answers the two requests Codex CLI 0.171.0 sent, streamed, turn by turn, every step used", func() {
		r := start(serve.Options{}, "testdata/codex.yaml")
		a := post(r.base+"/v1/responses", codexBody("turn1-request.json"), "Accept", "text/event-stream", "originator", "codex_exec")
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get("Content-Type")).To(Equal("text/event-stream"))
		Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=1"), "two developer and two user messages: no turn yet")
		Expect(a.body).To(ContainSubstring(`"name":"exec_command","arguments":"{\"cmd\":\"echo toolout-codex-check\"}"`))

		a = post(r.base+"/v1/responses", codexBody("turn2-request.json"))
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=2"))
		body, err := responses.Assemble([]byte(a.body))
		Expect(err).NotTo(HaveOccurred())
		resp, err := responses.DecodeResponse(body)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("The command printed toolout-codex-check."))
		Expect(r.srv.Check()).To(Succeed())
		Eventually(r.srv.Done()).Should(BeClosed())
	})
})
