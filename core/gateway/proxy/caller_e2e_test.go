package proxy_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/gateway/redisstore"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/internal/gatewaytest"
	"github.com/toolout/toolout/internal/httpspec"
	"github.com/toolout/toolout/internal/redistest"
)

// postAs posts body to url with the given header pairs and returns the
// status and the body read whole.
func postAs(url string, body []byte, header ...string) (int, string) {
	GinkgoHelper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return resp.StatusCode, string(out)
}

// callerStore opens one backend of the caller-scope specs on src's clock.
type callerStore struct {
	name string
	open func(src core.Sources) gateway.Store
}

var callerStores = []callerStore{
	{"memstore", func(src core.Sources) gateway.Store { return memstore.New(gateway.StoreOptions{Sources: src}) }},
	{"redisstore", func(src core.Sources) gateway.Store {
		srv, err := redistest.Start(GinkgoT().TempDir())
		if err == redistest.ErrMissing {
			Skip(redistest.Missing)
		}
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(srv.Stop)
		s, err := redisstore.New(context.Background(), redisstore.Options{URL: srv.URL, Store: gateway.StoreOptions{Sources: src}})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}},
}

// scopeFront serves llm behind server and, in front of it, a proxy over
// store on the OpenAI route and on wire's route (unless nil), with
// configure applied to the proxy. Every log line of the proxy and its
// gateways goes to logs.
func scopeFront(llm core.LLM, server func(core.LLM) *httptest.Server, wire gateway.Wire, store gateway.Store, configure ...func(*proxy.Proxy)) string {
	front, _ := scopeFrontLogged(llm, server, wire, store, configure...)
	return front
}

func scopeFrontLogged(llm core.LLM, server func(core.LLM) *httptest.Server, wire gateway.Wire, store gateway.Store,
	configure ...func(*proxy.Proxy)) (string, *httpspec.Log) {
	up := server(llm)
	DeferCleanup(up.Close)
	u, _ := url.Parse(up.URL)
	src, _ := gatewaytest.Manual()
	p, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{RateLimit: 1000}, Compressor: gateway.Simple{Words: 8}, Store: store, Sources: src})
	Expect(err).NotTo(HaveOccurred())
	logs := &httpspec.Log{}
	px := proxy.New(&gateway.Gateway{Pipe: p, Wire: openai.Wire{}, Expand: true, Logf: logs.Logf}, u, up.Client())
	if wire != nil {
		px.Handle(&gateway.Gateway{Pipe: p, Wire: wire, Expand: true, Logf: logs.Logf}, u)
	}
	px.Logf = logs.Logf
	for _, c := range configure {
		c(px)
	}
	front := httptest.NewServer(px)
	DeferCleanup(front.Close)
	return front.URL, logs
}

// scopeScript is a model that answers request A (which compresses the
// log) with text, and for requests B and A2 (which carry A's marker and
// compressed text) calls expand_context on shadow, then answers whatever
// it was given.
func scopeScript(shadow string) *fakes.LLM {
	GinkgoHelper()
	steps := []fakes.Step{{ID: "a", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 1, Contains: []string{"request A:"}},
		Respond: fakes.Respond{Text: ptr("A is done.")}}}
	for _, who := range []string{"B", "A2"} {
		steps = append(steps,
			fakes.Step{ID: who + "-asks", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 1, Contains: []string{"request " + who + ":"}},
				Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{{ID: "x" + who, Name: "expand_context", Args: map[string]any{"shadow_id": shadow}}}}},
			fakes.Step{ID: who + "-answers", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 2, Contains: []string{"request " + who + ":"}},
				Respond: fakes.Respond{Text: ptr(who + " answered.")}})
	}
	llm, err := fakes.NewLLM(steps, fakes.Options{})
	Expect(err).NotTo(HaveOccurred())
	return llm
}

// expansionOf returns what the gateway answered to step's expand_context
// call: the last message of the request that step answered.
func expansionOf(llm *fakes.LLM, step string) string {
	GinkgoHelper()
	for _, c := range llm.Calls() {
		if c.Step == step {
			return c.Request.Messages[len(c.Request.Messages)-1].Content
		}
	}
	Fail("no call answered by step " + step)
	return ""
}

// markedOf returns the tool result the upstream got in the request step
// answered: A's marker and compressed text, as the provider holds them.
func markedOf(llm *fakes.LLM, step string) string {
	GinkgoHelper()
	for _, c := range llm.Calls() {
		if c.Step == step {
			for _, m := range c.Request.Messages {
				if gateway.Marked(m.Content) {
					return m.Content
				}
			}
		}
	}
	Fail("no marked tool result in the request of step " + step)
	return ""
}

// Anyone holding a marker and its compressed text (the provider and its
// logs hold both) must not expand the original from another client:
// originals are scoped to their caller.
var _ = Describe("originals scoped to their caller, end to end over loopback", func() {
	content := bigLog("db-7")
	shadow := gateway.ShadowID(content)

	for _, st := range callerStores {
		Context("on "+st.name, func() {
			It("answers client B, with another API key and A's marker and compressed text, as for an expired id; A still expands", func() {
				llm := scopeScript(shadow)
				src, _ := gatewaytest.Manual()
				front, logs := scopeFrontLogged(llm, modelServer, nil, st.open(src))
				code, out := postAs(front+openai.Path, chatBody("A", "logs__query", content, false), "Authorization", "Bearer sk-client-a")
				Expect(code).To(Equal(http.StatusOK), out)
				marked := markedOf(llm, "a")
				Expect(marked).To(HavePrefix("<<<SHADOW:" + shadow + ">>>\n"))

				code, out = postAs(front+openai.Path, chatBody("B", "logs__query", marked, false), "Authorization", "Bearer sk-client-b")
				Expect(code).To(Equal(http.StatusOK), out)
				Expect(out).To(ContainSubstring("B answered."))
				Expect(expansionOf(llm, "B-answers")).To(Equal(gateway.ExpandMissing(shadow)))
				for _, c := range llm.Calls() {
					if c.Step == "B-answers" {
						for _, m := range c.Request.Messages {
							Expect(m.Content).NotTo(ContainSubstring("host=db-7 status=FAILED"), "A's original reached B's model")
						}
					}
				}

				code, out = postAs(front+openai.Path, chatBody("A2", "logs__query", marked, false), "Authorization", "Bearer sk-client-a")
				Expect(code).To(Equal(http.StatusOK), out)
				Expect(expansionOf(llm, "A2-answers")).To(Equal(content))
				Expect(llm.Check()).To(Succeed())
				Expect(logs.Lines()).NotTo(BeEmpty())
				for _, l := range logs.Lines() {
					Expect(l).NotTo(ContainSubstring("sk-client"), "a log line holds an API key")
				}
			})
		})
	}

	It("scopes a streaming request too", func() {
		llm := scopeScript(shadow)
		src, _ := gatewaytest.Manual()
		front := scopeFront(llm, modelServer, nil, memstore.New(gateway.StoreOptions{Sources: src}))
		code, out := postAs(front+openai.Path, chatBody("A", "logs__query", content, false), "Authorization", "Bearer sk-client-a")
		Expect(code).To(Equal(http.StatusOK), out)
		code, out = postAs(front+openai.Path, chatBody("B", "logs__query", markedOf(llm, "a"), true), "Authorization", "Bearer sk-client-b")
		Expect(code).To(Equal(http.StatusOK), out)
		Expect(out).To(ContainSubstring("answered."))
		Expect(expansionOf(llm, "B-answers")).To(Equal(gateway.ExpandMissing(shadow)))
	})

	It("scopes the Anthropic route by x-api-key", func() {
		llm := scopeScript(shadow)
		src, _ := gatewaytest.Manual()
		front := scopeFront(llm, messagesServer, anthropic.Wire{}, memstore.New(gateway.StoreOptions{Sources: src}))
		send := func(who, content, key string) {
			body := strings.Replace(string(messagesBody(content, false)), "which host failed?", "request "+who+": which host failed?", 1)
			code, out := postAs(front+anthropic.Path, []byte(body), "x-api-key", key, "anthropic-version", "2023-06-01")
			Expect(code).To(Equal(http.StatusOK), out)
		}
		send("A", content, "sk-ant-a")
		marked := markedOf(llm, "a")
		send("B", marked, "sk-ant-b")
		Expect(expansionOf(llm, "B-answers")).To(Equal(gateway.ExpandMissing(shadow)))
		send("A2", marked, "sk-ant-a")
		Expect(expansionOf(llm, "A2-answers")).To(Equal(content))
	})

	It("scopes by a named header when told to, whatever the key", func() {
		llm := scopeScript(shadow)
		src, _ := gatewaytest.Manual()
		front := scopeFront(llm, modelServer, nil, memstore.New(gateway.StoreOptions{Sources: src}), func(p *proxy.Proxy) { p.Identity = gateway.Identity{Header: "X-User-Id"} })
		post := func(who, content, user string) {
			code, out := postAs(front+openai.Path, chatBody(who, "logs__query", content, false), "Authorization", "Bearer sk-shared", "X-User-Id", user)
			Expect(code).To(Equal(http.StatusOK), out)
		}
		post("A", content, "alice")
		marked := markedOf(llm, "a")
		post("B", marked, "bob")
		Expect(expansionOf(llm, "B-answers")).To(Equal(gateway.ExpandMissing(shadow)))
		post("A2", marked, "alice")
		Expect(expansionOf(llm, "A2-answers")).To(Equal(content))
	})

	It("keeps one shared anonymous scope for clients that send no key (a loopback gateway without auth)", func() {
		llm := scopeScript(shadow)
		src, _ := gatewaytest.Manual()
		front := scopeFront(llm, modelServer, nil, memstore.New(gateway.StoreOptions{Sources: src}))
		code, out := postAs(front+openai.Path, chatBody("A", "logs__query", content, false))
		Expect(code).To(Equal(http.StatusOK), out)
		code, out = postAs(front+openai.Path, chatBody("B", "logs__query", markedOf(llm, "a"), false))
		Expect(code).To(Equal(http.StatusOK), out)
		Expect(expansionOf(llm, "B-answers")).To(Equal(content), "no identity: one scope")
	})
})
