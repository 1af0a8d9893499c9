package serve_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
	"github.com/toolout/toolout/harness/serve"
)

const userX = `{"messages":[{"role":"user","content":"x"}]}`

var _ = Describe("toolout serve's routes and tags", func() {
	It("serves several scenarios, each under its own base path, their steps never mixing", func() {
		r := start(serve.Options{}, overCap, "testdata/two-clients.yaml")
		Expect(r.srv.Bases()).To(Equal([]serve.Base{
			{Scenario: "session/over-cap-handle", Path: "/session/over-cap-handle/v1"},
			{Scenario: "two-clients", Path: "/two-clients/v1"},
		}))
		a := post(r.base+"/two-clients/v1/chat/completions", openaiTurn1)
		Expect(a.status).To(Equal(http.StatusUnprocessableEntity), "two-clients has no step for the over-cap conversation")
		Expect(a.header.Get(serve.ScenarioHeader)).To(Equal("two-clients"))
		a = post(r.base+"/session/over-cap-handle/v1/chat/completions", openaiTurn1)
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		a = post(r.base+"/v1/chat/completions", openaiTurn1)
		Expect(a.status).To(Equal(http.StatusNotFound))
		Expect(a.body).To(ContainSubstring(`no scenario is served at \"/v1/chat/completions\" (bases: /session/over-cap-handle/v1, /two-clients/v1)`))
		Expect(r.srv.Calls("two-clients")).To(HaveLen(1))
		Expect(r.srv.Calls("session/over-cap-handle")).To(HaveLen(1))
	})

	It("serves one scenario under /v1 and under its own base path", func() {
		r := start(serve.Options{}, overCap)
		Expect(post(r.base+"/session/over-cap-handle/v1/chat/completions", openaiTurn1).status).To(Equal(http.StatusOK))
		Expect(post(r.base+"/v1/chat/completions", openaiTurn2).status).To(Equal(http.StatusOK))
		Expect(r.srv.Check()).To(Succeed())
	})

	It("prints URLs a client can use", func() {
		srv, err := serve.Load([]string{overCap}, serve.Options{})
		Expect(err).NotTo(HaveOccurred())
		ln, err := serve.Listen("127.0.0.1:0", false)
		Expect(err).NotTo(HaveOccurred())
		defer ln.Close()
		Expect(srv.URLs(ln.Addr())).To(Equal([]string{"http://" + ln.Addr().String() + "/v1"}))
	})

	It("answers unknown routes with 404 and wrong methods with 405", func() {
		r := start(serve.Options{}, overCap)
		a := post(r.base+"/v1/embeddings", userX)
		Expect(a.status).To(Equal(http.StatusNotFound))
		Expect(a.body).To(ContainSubstring(`no route \"/v1/embeddings\"`))
		a = send(ctx(), http.MethodGet, r.base+"/v1/chat/completions", "")
		Expect(a.status).To(Equal(http.StatusMethodNotAllowed))
		Expect(a.header.Get("Allow")).To(Equal("POST"))
		a = post(r.base+"/v1/models", "")
		Expect(a.status).To(Equal(http.StatusMethodNotAllowed))
	})

	It("lists the model in the OpenAI shape, or the Anthropic one for an Anthropic client", func() {
		r := start(serve.Options{}, overCap)
		a := send(ctx(), http.MethodGet, r.base+"/v1/models", "")
		Expect(a.status).To(Equal(http.StatusOK))
		Expect(a.body).To(MatchJSON(`{"object":"list","data":[{"id":"scripted","object":"model","created":1767225600,"owned_by":"toolout"}]}`))
		a = send(ctx(), http.MethodGet, r.base+"/v1/models/gpt-4o", "")
		Expect(a.body).To(MatchJSON(`{"id":"gpt-4o","object":"model","created":1767225600,"owned_by":"toolout"}`))
		a = send(ctx(), http.MethodGet, r.base+"/v1/models", "", "anthropic-version", "2023-06-01")
		Expect(a.body).To(MatchJSON(`{"data":[{"type":"model","id":"scripted","display_name":"toolout scripted model","created_at":"2026-01-01T00:00:00Z"}],` +
			`"has_more":false,"first_id":"scripted","last_id":"scripted"}`))
		Expect(r.srv.Calls("session/over-cap-handle")).To(BeEmpty())
	})

	It("matches on the tag of X-Toolout-Tag, so steps with after: answer in their chosen order", func() {
		r := start(serve.Options{}, "testdata/tags.yaml")
		first := make(chan answer, 1)
		go func() {
			defer GinkgoRecover()
			first <- post(r.base+"/v1/chat/completions", userX, serve.TagHeader, "extract.map chunk=1/5")
		}()
		Eventually(func() []string { return waiting(r.srv) }).WithTimeout(10 * time.Second).Should(Equal([]string{"map-1"}))
		a := post(r.base+"/v1/messages", `{"max_tokens":9,"messages":[{"role":"user","content":"x"}]}`, serve.TagHeader, "extract.map chunk=2/5")
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get(serve.TagHeader)).To(Equal("extract.map chunk=2/5"))
		Expect(a.json()["content"]).To(ConsistOf(HaveKeyWithValue("text", "chunk two")))
		var got answer
		Eventually(first).WithTimeout(10 * time.Second).Should(Receive(&got))
		Expect(got.status).To(Equal(http.StatusOK), got.body)
		Expect(got.body).To(ContainSubstring(`"content":"chunk one"`))
		calls := r.srv.Calls("tags")
		Expect(calls).To(HaveLen(2))
		Expect(calls[0].Step).To(Equal("map-2"))
		Expect(calls[1].Step).To(Equal("map-1"))
	})

	It("answers a step's injected fault with the provider's status", func() {
		r := start(serve.Options{}, "testdata/tags.yaml")
		a := post(r.base+"/v1/chat/completions", userX, serve.TagHeader, "extract.reduce")
		Expect(a.status).To(Equal(http.StatusTooManyRequests))
		Expect(a.json()).To(HaveKeyWithValue("error", HaveKeyWithValue("type", "rate_limit_exceeded")))
		Expect(a.body).To(ContainSubstring(`fake llm step \"reduce\": slow down: rate limited`))
		a = post(r.base+"/v1/chat/completions", userX)
		Expect(a.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(a.body).To(ContainSubstring(`request  turn=1: no step matches`), "the llm component has no site of its own")
	})

	Describe("behind the toolout gateway (X-Toolout-Gateway-Round)", func() {
		// expansion is openaiTurn2 as the gateway forwards it in its second
		// round: its expand_context call and that call's result appended.
		expansion := strings.Replace(openaiTurn2, `"Tool output is too large (2480 bytes)"}]`, `"Tool output is too large (2480 bytes)"},`+
			`{"role":"assistant","content":null,"tool_calls":[{"id":"x1","type":"function","function":{"name":"expand_context","arguments":"{\"shadow_id\":\"shadow_1\"}"}}]},`+
			`{"role":"tool","tool_call_id":"x1","content":"the original"}]`, 1)

		It("tells the agent's turn from the round: the gateway's expansion messages are not the agent's", func() {
			r := start(serve.Options{}, overCap)
			a := post(r.base+"/v1/chat/completions", openaiTurn1, "X-Toolout-Gateway-Round", "1")
			Expect(a.status).To(Equal(http.StatusOK), a.body)
			Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=1 round=1"))
			a = post(r.base+"/v1/chat/completions", openaiTurn2, "X-Toolout-Gateway-Round", "1")
			Expect(a.status).To(Equal(http.StatusOK), a.body)
			Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=2 round=1"))
			a = post(r.base+"/v1/chat/completions", expansion, "X-Toolout-Gateway-Round", "2")
			Expect(a.status).To(Equal(http.StatusUnprocessableEntity), "over-cap-handle scripts no expansion round")
			Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=2 round=2"))
			Expect(a.body).To(ContainSubstring(`request session.turn turn=2 round=2: step \"answer\" matches but is used up`))
		})

		It("refuses a round the request's messages cannot hold, and a malformed one", func() {
			r := start(serve.Options{}, overCap)
			a := post(r.base+"/v1/chat/completions", openaiTurn2, "X-Toolout-Gateway-Round", "3")
			Expect(a.status).To(Equal(http.StatusBadRequest))
			Expect(a.body).To(ContainSubstring(`X-Toolout-Gateway-Round \"3\": the request holds 1 assistant message(s), fewer than the 2 the gateway's expansion rounds before round 3 add`))
			a = post(r.base+"/v1/chat/completions", openaiTurn1, "X-Toolout-Gateway-Round", "1x")
			Expect(a.status).To(Equal(http.StatusBadRequest))
			Expect(a.body).To(ContainSubstring("want a positive round"))
		})

		It("keeps the round as the turn for a gateway scenario, as its in-process component numbers them", func() {
			r := start(serve.Options{}, "../../scenarios/gateway/expand-hit.yaml")
			a := post(r.base+"/v1/chat/completions", expansion, "X-Toolout-Gateway-Round", "2")
			Expect(a.header.Get(serve.TagHeader)).To(Equal("gateway.upstream turn=2 round=2"))
		})
	})

	DescribeTable("derives the site from the scenario's component",
		func(component, site string) { Expect(serve.Site(component)).To(Equal(site)) },
		Entry(nil, "session", "session.turn"),
		Entry(nil, "gateway", "gateway.upstream"),
		Entry(nil, "extract", ""),
		Entry(nil, "llm", ""),
	)

	It("refuses scenarios it cannot serve", func() {
		_, err := serve.New(nil, serve.Options{})
		Expect(err).To(MatchError("no scenario"))
		sc, err := harness.Load(components.Default(), "../../scenarios/schema/"+firstYAML("../../scenarios/schema"))
		Expect(err).NotTo(HaveOccurred())
		_, err = serve.New([]*harness.Scenario{sc}, serve.Options{})
		Expect(err).To(MatchError(ContainSubstring("no llm steps: nothing to serve")))
		a, err := harness.Load(components.Default(), overCap)
		Expect(err).NotTo(HaveOccurred())
		_, err = serve.New([]*harness.Scenario{a, a}, serve.Options{})
		Expect(err).To(MatchError(ContainSubstring(`have the same id "session/over-cap-handle"`)))
		_, err = serve.Load([]string{"testdata/missing.yaml"}, serve.Options{})
		Expect(err).To(MatchError(ContainSubstring("testdata/missing.yaml: no such file or directory")))
	})
})

func firstYAML(dir string) string {
	m, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	ExpectWithOffset(1, m).NotTo(BeEmpty())
	return filepath.Base(m[0])
}
