package serve_test

import (
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/harness/serve"
	"github.com/toolout/toolout/internal/httpspec"
)

var _ = Describe("toolout serve's rejected requests", func() {
	const file = "scenarios/session/over-cap-handle.yaml"

	It("reports every request it refused with a 4xx as a problem: method, path, status, reason", func() {
		r := start(serve.Options{}, overCap)
		Expect(post(r.base+"/v1/chat/completions", `{"messages":[`).status).To(Equal(http.StatusBadRequest))
		Expect(post(r.base+"/v1/chat/completions", `{"messages":[]}`).status).To(Equal(http.StatusBadRequest))
		Expect(send(ctx(), http.MethodGet, r.base+"/v1/chat/completions", "").status).To(Equal(http.StatusMethodNotAllowed))
		Expect(post(r.base+"/v1/embeddings", userX).status).To(Equal(http.StatusNotFound))
		Expect(post(r.base+"/v2/chat", userX).status).To(Equal(http.StatusNotFound))
		resp, _ := httpspec.Send(http.MethodPost, r.base+"/v1/messages", "text/plain", anthropicTurn1)
		Expect(resp.StatusCode).To(Equal(http.StatusUnsupportedMediaType))
		for _, body := range []string{openaiTurn1, openaiTurn2} {
			a := post(r.base+"/v1/chat/completions", body)
			Expect(a.status).To(Equal(http.StatusOK), a.body)
		}
		Eventually(r.srv.Done()).Should(BeClosed(), "rejected requests spend no step")
		Expect(r.srv.Rejected()).To(Equal(6))
		Expect(r.srv.Problems()).To(Equal([]serve.Problem{
			{Scenario: "session/over-cap-handle", Pos: file, Msg: "rejected POST /v1/chat/completions: 400 openai: chat request: unexpected end of JSON input"},
			{Scenario: "session/over-cap-handle", Pos: file, Msg: "rejected POST /v1/chat/completions: 400 request: messages: want at least one message"},
			{Scenario: "session/over-cap-handle", Pos: file, Msg: `rejected GET /v1/chat/completions: 405 GET "/v1/chat/completions": want POST`},
			{Scenario: "session/over-cap-handle", Pos: file, Msg: `rejected POST /v1/embeddings: 404 no route "/v1/embeddings" under /session/over-cap-handle/v1 ` +
				"(routes: POST /v1/chat/completions, POST /v1/responses, POST /v1/messages, POST /v1/messages/count_tokens, GET /v1/models)"},
			{Scenario: "session/over-cap-handle", Pos: file, Msg: `rejected POST /v2/chat: 404 no scenario is served at "/v2/chat" (bases: /session/over-cap-handle/v1)`},
			{Scenario: "session/over-cap-handle", Pos: file, Msg: `rejected POST /v1/messages: 415 content type "text/plain": want application/json`},
		}))
		Expect(r.srv.Check()).To(MatchError(ContainSubstring(file + ": rejected POST /v1/chat/completions: 400 openai: chat request")))
	})

	It("names no scenario for a request that reached none of several, and keeps each scenario's own", func() {
		r := start(serve.Options{}, overCap, "testdata/two-clients.yaml")
		Expect(post(r.base+"/elsewhere", userX).status).To(Equal(http.StatusNotFound))
		Expect(post(r.base+"/two-clients/v1/chat/completions", `[]`).status).To(Equal(http.StatusBadRequest))
		problems := r.srv.Problems()
		Expect(problems).To(ContainElement(And(HaveField("Scenario", "two-clients"), HaveField("Pos", "testdata/two-clients.yaml"),
			HaveField("Msg", Equal("rejected POST /two-clients/v1/chat/completions: 400 openai: chat request: 1:1 (byte 0): want an object, got an array")))))
		Expect(problems[len(problems)-1].String()).To(Equal(`rejected POST /elsewhere: 404 no scenario is served at "/elsewhere" ` +
			"(bases: /session/over-cap-handle/v1, /two-clients/v1)"))
	})

	It("keeps at most fakes.MaxKept rejections, counting the rest", func() {
		r := start(serve.Options{}, overCap)
		for range fakes.MaxKept + 2 {
			Expect(post(r.base+"/v1/chat/completions", `{}`).status).To(Equal(http.StatusBadRequest))
		}
		Expect(r.srv.Rejected()).To(Equal(fakes.MaxKept + 2))
		problems := r.srv.Problems()
		Expect(problems).To(HaveLen(2 + fakes.MaxKept + 1)) // two unused steps, the kept rejections, the count
		Expect(problems[len(problems)-1].String()).To(Equal(fmt.Sprintf("%s: 2 more rejected request(s) not kept (at most %d are)", file, fakes.MaxKept)))
	})

	It("quotes in its 422 what the request held for the text that did not match", func() {
		r := start(serve.Options{}, "testdata/two-clients.yaml")
		reminders := strings.Repeat("<system-reminder>stay on task</system-reminder> ", 200)
		a := post(r.base+"/v1/chat/completions", `{"messages":[{"role":"user","content":"I am gamma. `+reminders+`"}]}`)
		Expect(a.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(a.json()).To(HaveKeyWithValue("error", HaveKeyWithValue("message", MatchRegexp(
			`\n  - user: "alpha"\n  \+ user: "I am gamma\. <system-reminder>stay on task.*" … ".*stay on task</system-reminder> " \(9612 bytes\)$`))))
		Expect(r.srv.Rejected()).To(Equal(0), "a 422 is the script's violation, reported once")
	})
})
