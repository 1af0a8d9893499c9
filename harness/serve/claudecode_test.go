package serve_test

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/harness/serve"
)

const claudeScenario = "testdata/claude-code.yaml"

// claudeBody is a request Claude Code 2.1.332 sent, as captured
// (core/gateway/anthropic/testdata/claude-code).
func claudeBody(name string) string {
	GinkgoHelper()
	data, err := os.ReadFile("../../core/gateway/anthropic/testdata/claude-code/" + name)
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}

// claudeHeaders are the headers Claude Code sends with its requests.
var claudeHeaders = []string{"anthropic-version", "2023-06-01", "anthropic-beta",
	"claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27", "x-app", "cli"}

// ownCount is the count serve answers count_tokens with: cl100k_base over
// the request's texts, as the usage of its answers counts them.
func ownCount(body string) int {
	GinkgoHelper()
	req, _, err := anthropic.DecodeRequest([]byte(body), core.Tag{})
	Expect(err).NotTo(HaveOccurred())
	tk, err := tokens.New("cl100k_base")
	Expect(err).NotTo(HaveOccurred())
	_, _, all := fakes.Texts(req)
	return tk.Count(all)
}

var _ = Describe("toolout serve and Claude Code", func() {
	It("answers Claude Code's requests (POST /v1/messages?beta=true, streamed), the system message inside messages[] matched as system text", func() {
		r := start(serve.Options{}, claudeScenario)
		a := post(r.base+"/v1/messages?beta=true", claudeBody("turn1.json"), claudeHeaders...)
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get("Content-Type")).To(Equal("text/event-stream"))
		Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=1"), "the system message is no turn")
		msg, err := anthropic.AssembleStream([]byte(a.body))
		Expect(err).NotTo(HaveOccurred())
		resp, err := anthropic.DecodeResponse(msg)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.ToolCalls).To(HaveLen(1))
		Expect(resp.ToolCalls[0].Name).To(Equal("Bash"))

		a = post(r.base+"/claude-code/v1/messages?beta=true", claudeBody("turn2.json"), claudeHeaders...)
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=2"))
		msg, err = anthropic.AssembleStream([]byte(a.body))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(msg)).To(ContainSubstring(`"text":"There are 1500 build steps; the last one is build step 1500."`))
		Expect(string(msg)).NotTo(ContainSubstring("thinking"), "a scripted answer has no thinking block: no step scripts one")
		Eventually(r.srv.Done()).Should(BeClosed())
		Expect(r.srv.Check()).To(Succeed())
	})

	It("answers Claude Code's budgeted-thinking request, which has no system message inside messages[]", func() {
		r := start(serve.Options{}, claudeScenario)
		a := post(r.base+"/v1/messages?beta=true", claudeBody("budgeted.json"), claudeHeaders...)
		Expect(a.status).To(Equal(http.StatusUnprocessableEntity), "its prompt and environment differ: the 422 of a well-formed request, not a 400")
		Expect(a.body).To(ContainSubstring("no step matches"))
	})

	It("answers POST /v1/messages/count_tokens with its own count, under /v1 and the scenario's base path, with no step spent", func() {
		r := start(serve.Options{}, claudeScenario)
		body := claudeBody("count_tokens.json")
		want := ownCount(body)
		Expect(want).To(BeNumerically(">", 100))
		for _, path := range []string{"/v1/messages/count_tokens?beta=true", "/claude-code/v1/messages/count_tokens", "/v1/messages/count_tokens"} {
			a := post(r.base+path, body, claudeHeaders...)
			Expect(a.status).To(Equal(http.StatusOK), path+": "+a.body)
			Expect(a.header.Get("Content-Type")).To(Equal("application/json"))
			Expect(a.header.Get(serve.ScenarioHeader)).To(Equal("claude-code"))
			Expect(a.body).To(MatchJSON(`{"input_tokens":` + itoa(want) + `}`))
		}
		Expect(r.srv.Calls("claude-code")).To(BeEmpty(), "count_tokens asks no step")
		Expect(r.srv.Rejected()).To(BeZero())
		Expect(r.srv.Problems()).To(HaveLen(2), "only the two unused steps")
		Expect(r.srv.Done()).NotTo(BeClosed())
	})

	It("counts as the answer's usage.input_tokens counts the same request", func() {
		r := start(serve.Options{}, claudeScenario)
		body := strings.Replace(claudeBody("turn1.json"), `"stream":true`, `"stream":false`, 1)
		a := post(r.base+"/v1/messages/count_tokens?beta=true", body, claudeHeaders...)
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		var count struct {
			InputTokens int `json:"input_tokens"`
		}
		Expect(json.Unmarshal([]byte(a.body), &count)).To(Succeed())
		a = post(r.base+"/v1/messages?beta=true", body, claudeHeaders...)
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.json()["usage"]).To(HaveKeyWithValue("input_tokens", BeNumerically("==", count.InputTokens)))
	})

	It("refuses a count_tokens request as it refuses a message: 405 for GET, 400 for a bad body, in the Anthropic shape, with no step asked", func() {
		r := start(serve.Options{}, claudeScenario)
		a := send(ctx(), http.MethodGet, r.base+"/v1/messages/count_tokens", "")
		Expect(a.status).To(Equal(http.StatusMethodNotAllowed))
		Expect(a.header.Get("Allow")).To(Equal("POST"))
		a = post(r.base+"/v1/messages/count_tokens", `{"model":"m"}`)
		Expect(a.status).To(Equal(http.StatusBadRequest))
		Expect(a.json()).To(HaveKeyWithValue("type", "error"))
		Expect(a.body).To(ContainSubstring("no messages array"))
		a = post(r.base+"/v1/messages/count_tokens", `{"messages":[]}`, "Content-Type", "text/plain")
		Expect(a.status).To(Equal(http.StatusUnsupportedMediaType))
		Expect(r.srv.Calls("claude-code")).To(BeEmpty())
		Expect(r.srv.Rejected()).To(Equal(3), "each refusal is counted, as a message's is")
	})

	It("takes a query string on every route", func() {
		r := start(serve.Options{}, claudeScenario)
		a := send(ctx(), http.MethodGet, r.base+"/v1/models?beta=true&limit=20", "", "anthropic-version", "2023-06-01")
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.json()).To(HaveKey("has_more"))
		a = post(r.base+"/claude-code/v1/chat/completions?x=1", `{"messages":[{"role":"user","content":"hi"}]}`)
		Expect(a.status).To(Equal(http.StatusUnprocessableEntity), "routed, then matched: "+a.body)
	})
})

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
