package proxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/internal/gatewaytest"
	"github.com/toolout/toolout/internal/httpspec"
)

func ptr[T any](v T) *T { return &v }

// scriptedUpstream is an upstream answered by a scripted fake LLM: each
// request is decoded by decode and tagged gateway.upstream with the
// gateway's round, and the answer written by write, as one response or as a
// stream. A request that does not decode gets 400, a failed call 502.
func scriptedUpstream(llm core.LLM, decode func([]byte, core.Tag) (core.Request, bool, error),
	write func(w http.ResponseWriter, resp core.Response, stream bool)) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		round, _ := strconv.Atoi(r.Header.Get(proxy.RoundHeader))
		req, stream, err := decode(body, core.Tag{Site: core.SiteGatewayUpstream, Turn: round})
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		resp, err := llm.Complete(r.Context(), req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		if stream {
			w.Header().Set("Content-Type", "text/event-stream")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		write(w, resp, stream)
	}))
}

// modelServer is an OpenAI-compatible scripted upstream; its stream sends
// the text word by word and each tool call's arguments in two halves.
func modelServer(llm core.LLM) *httptest.Server {
	return scriptedUpstream(llm, openai.DecodeRequest, func(w http.ResponseWriter, resp core.Response, stream bool) {
		if !stream {
			_, _ = w.Write(openai.EncodeResponse(resp, "cmpl-1", "fake"))
			return
		}
		send := func(delta map[string]any, finish any) {
			chunk, _ := json.Marshal(map[string]any{"object": "chat.completion.chunk",
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
			fmt.Fprintf(w, "data: %s\n\n", chunk)
		}
		for _, part := range strings.SplitAfter(resp.Text, " ") {
			if part != "" {
				send(map[string]any{"content": part}, nil)
			}
		}
		for i, tc := range resp.ToolCalls {
			args := string(tc.Arguments)
			half := len(args) / 2
			send(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": tc.ID, "type": "function",
				"function": map[string]any{"name": tc.Name, "arguments": args[:half]}}}}, nil)
			send(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": args[half:]}}}}, nil)
		}
		finish := "stop"
		if len(resp.ToolCalls) > 0 {
			finish = "tool_calls"
		}
		send(map[string]any{}, finish)
		fmt.Fprint(w, "data: [DONE]\n\n")
	})
}

// newGateway uses a clock that moves only when a test says so; its rate
// limit is high enough that a burst never waits on that clock.
func newGateway(expand bool) *gateway.Gateway {
	src, _ := gatewaytest.Manual()
	p, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{RateLimit: 1000}, Compressor: gateway.Simple{Words: 8},
		Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src})
	Expect(err).NotTo(HaveOccurred())
	return &gateway.Gateway{Pipe: p, Wire: openai.Wire{}, Expand: expand, KeepForwarded: true}
}

// expandOnce is a model that, shown the marker of shadow, calls
// expand_context once (call callID), then, shown host's FAILED line,
// answers "<host> failed at line 333.".
func expandOnce(shadow, callID, host string) *fakes.LLM {
	GinkgoHelper()
	llm, err := fakes.NewLLM([]fakes.Step{
		{ID: "asks-to-expand", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 1, Contains: []string{"<<<SHADOW:" + shadow + ">>>"}},
			Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{{ID: callID, Name: "expand_context", Args: map[string]any{"shadow_id": shadow}}}}},
		{ID: "answers", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 2, Contains: []string{"host=" + host + " status=FAILED"}},
			Respond: fakes.Respond{Text: ptr(host + " failed at line 333.")}},
	}, fakes.Options{})
	Expect(err).NotTo(HaveOccurred())
	return llm
}

// expandFront serves llm behind server, and in front of it a proxy that
// answers expand_context inside: on the OpenAI route (g, from newGateway)
// and, unless wire is nil, on wire's route too. It returns the proxy's
// URL and g.
func expandFront(llm core.LLM, server func(core.LLM) *httptest.Server, wire gateway.Wire) (string, *gateway.Gateway) {
	up := server(llm)
	DeferCleanup(up.Close)
	u, _ := url.Parse(up.URL)
	g := newGateway(true)
	p := proxy.New(g, u, up.Client())
	if wire != nil {
		p.Handle(&gateway.Gateway{Pipe: g.Pipe, Wire: wire, Expand: true}, u)
	}
	front := httptest.NewServer(p)
	DeferCleanup(front.Close)
	return front.URL, g
}

func chatBody(id, tool, content string, stream bool) []byte {
	body, _ := json.Marshal(map[string]any{
		"model": "gpt-test", "stream": stream,
		"messages": []any{
			map[string]any{"role": "user", "content": "request " + id + ": which host failed?"},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "call_" + id, "type": "function",
				"function": map[string]any{"name": tool, "arguments": "{}"}}}},
			map[string]any{"role": "tool", "tool_call_id": "call_" + id, "content": content},
		},
	})
	return body
}

func bigLog(failing string) string {
	var b strings.Builder
	for i := range 400 {
		host := fmt.Sprintf("web-%d", i%7)
		status := "ok"
		if i == 333 {
			host, status = failing, "FAILED"
		}
		fmt.Fprintf(&b, "line %d host=%s status=%s\n", i, host, status)
	}
	return b.String()
}

// expectFinalOnly checks what a client got through the proxy for a script
// that expands once: the model's final text want, with no tool call and no
// trace of expand_context in body; the script ran to its end and its first
// call was offered expand_context.
func expectFinalOnly(llm *fakes.LLM, final core.Response, body, want string) {
	GinkgoHelper()
	Expect(final.Text).To(Equal(want))
	Expect(final.ToolCalls).To(BeEmpty())
	Expect(body).NotTo(ContainSubstring("expand_context"))
	Expect(llm.Check()).To(Succeed())
	Expect(llm.Calls()[0].Request.Tools).To(ContainElement(HaveField("Name", "expand_context")))
}

var _ = Describe("the proxy, end to end over loopback", func() {
	content := bigLog("db-9")
	shadow := gateway.ShadowID(content)

	script := func() *fakes.LLM { return expandOnce(shadow, "x1", "db-9") }

	serve := func(llm core.LLM) (string, *gateway.Gateway) { return expandFront(llm, modelServer, nil) }

	It("compresses a large tool result, answers expand_context inside, and returns only the final answer", func() {
		llm := script()
		front, g := serve(llm)
		resp, out := httpspec.Post(front+openai.Path, chatBody("1", "logs__query", content, false))
		Expect(resp.StatusCode).To(Equal(200))
		final, err := openai.DecodeResponse([]byte(out))
		Expect(err).NotTo(HaveOccurred())
		expectFinalOnly(llm, final, out, "db-9 failed at line 333.")
		calls := llm.Calls()
		Expect(calls[0].Request.Messages[2].Content).To(HavePrefix("<<<SHADOW:" + shadow + ">>>\nline 0 host=web-0"))
		Expect(calls[1].Request.Messages[4].Content).To(Equal(content))
		Expect(g.Pipe.Metrics().CompressionsOK).To(BeEquivalentTo(1))
	})

	It("does the same for a streaming request, relaying the final stream without phantom calls", func() {
		llm := script()
		front, _ := serve(llm)
		resp, stream := httpspec.Post(front+openai.Path, chatBody("1", "logs__query", content, true))
		Expect(resp.Header.Get("Content-Type")).To(HavePrefix("text/event-stream"))
		var text strings.Builder
		for _, line := range strings.Split(stream, "\n") {
			Expect(line).NotTo(ContainSubstring("expand_context"))
			if data, ok := strings.CutPrefix(line, "data: "); ok && data != "[DONE]" {
				var chunk struct {
					Choices []struct {
						Delta struct{ Content string } `json:"delta"`
					} `json:"choices"`
				}
				Expect(json.Unmarshal([]byte(data), &chunk)).To(Succeed())
				text.WriteString(chunk.Choices[0].Delta.Content)
			}
		}
		Expect(text.String()).To(Equal("db-9 failed at line 333."))
		Expect(llm.Check()).To(Succeed())
	})

	It("never gives one client's original to another client's expand_context call", func() {
		// Client A's log is compressed (its original stored); client B's
		// request holds only a small result, and B's model, steered by a
		// prompt injection, asks for A's shadow id.
		llm, err := fakes.NewLLM([]fakes.Step{
			{ID: "a-answers", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Contains: []string{"request A:"}},
				Respond: fakes.Respond{Text: ptr("A is done.")}},
			{ID: "b-asks", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 1, Contains: []string{"request B:"}},
				Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{{ID: "x1", Name: "expand_context", Args: map[string]any{"shadow_id": shadow}}}}},
			{ID: "b-answers", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 2, Contains: []string{"request B:"}},
				Respond: fakes.Respond{Text: ptr("B cannot see it.")}},
		}, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		front, _ := serve(llm)
		post := func(body []byte) string {
			resp, out := httpspec.Post(front+openai.Path, body)
			Expect(resp.StatusCode).To(Equal(200))
			return out
		}
		post(chatBody("A", "logs__query", content, false))
		Expect(post(chatBody("B", "logs__query", "3 pods restarted.", false))).To(ContainSubstring("B cannot see it."))
		Expect(llm.Check()).To(Succeed())
		var b []fakes.Call
		for _, c := range llm.Calls() {
			if c.Step == "b-asks" || c.Step == "b-answers" {
				b = append(b, c)
			}
		}
		Expect(b).To(HaveLen(2))
		Expect(b[0].Request.Tools).To(BeEmpty(), "expand_context is offered only with a marker in the request")
		last := b[1].Request.Messages[len(b[1].Request.Messages)-1]
		Expect(last.Content).To(Equal(gateway.ExpandNotAvailable(shadow)))
		for _, m := range b[1].Request.Messages {
			Expect(m.Content).NotTo(ContainSubstring("host=db-9 status=FAILED"))
		}
	})

	It("relays upstream errors with their status", func() {
		llm, _ := fakes.NewLLM([]fakes.Step{{Respond: fakes.Respond{Error: &fakes.ErrorSpec{Kind: "server_error", Message: "boom"}}}}, fakes.Options{})
		front, _ := serve(llm)
		resp, _ := httpspec.Post(front+openai.Path, chatBody("1", "t", "small", false))
		Expect(resp.StatusCode).To(Equal(http.StatusBadGateway))
	})

	It("forwards other paths unchanged", func() {
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "models:"+r.URL.Path) }))
		DeferCleanup(up.Close)
		u, _ := url.Parse(up.URL)
		front := httptest.NewServer(proxy.New(newGateway(true), u, nil))
		DeferCleanup(front.Close)
		_, body := httpspec.Get(front.URL + "/v1/models")
		Expect(body).To(Equal("models:/v1/models"))
	})

	It("loses and mixes up no request in a concurrent burst", func() {
		const n = 40
		llm, err := fakes.NewLLM([]fakes.Step{{Match: fakes.Match{Tag: core.SiteGatewayUpstream}, Times: n,
			Respond: fakes.Respond{Oracle: &fakes.OracleSpec{Name: "grep-lines", Wrap: "none", Params: map[string]any{"pattern": "^request \\d+:|FAILED", "in": "all"}}}}},
			fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		front, g := serve(llm)
		var wg sync.WaitGroup
		answers := make([]string, n)
		for i := range n {
			wg.Go(func() {
				defer GinkgoRecover()
				id := strconv.Itoa(i)
				body := chatBody(id, "logs__query", bigLog("db-"+id), false)
				_, out := httpspec.Post(front+openai.Path, body)
				final, err := openai.DecodeResponse([]byte(out))
				Expect(err).NotTo(HaveOccurred())
				answers[i] = final.Text
			})
		}
		wg.Wait()
		for i, a := range answers {
			// The compressed log keeps only its first words, so the model
			// sees its own request line and no FAILED line.
			Expect(a).To(Equal(fmt.Sprintf("request %d: which host failed?", i)))
		}
		Expect(llm.Check()).To(Succeed())
		Expect(g.Pipe.Metrics().CompressionsOK).To(BeEquivalentTo(n))
	})
})

var _ = Describe("the expand_context loop", func() {
	content := bigLog("db-1")
	shadow := gateway.ShadowID(content)

	upstream := func(llm core.LLM) gateway.Upstream {
		return func(ctx context.Context, round int, body []byte) ([]byte, error) {
			req, _, err := openai.DecodeRequest(body, core.Tag{Site: core.SiteGatewayUpstream, Turn: round})
			if err != nil {
				return nil, err
			}
			resp, err := llm.Complete(ctx, req)
			if err != nil {
				return nil, err
			}
			return openai.EncodeResponse(resp, "c", "m"), nil
		}
	}
	expand := func(ids ...string) fakes.Respond {
		var calls []fakes.CallSpec
		for i, id := range ids {
			calls = append(calls, fakes.CallSpec{ID: fmt.Sprint("x", i), Name: "expand_context", Args: map[string]any{"shadow_id": id}})
		}
		return fakes.Respond{ToolCalls: calls}
	}

	It("answers unknown ids with the fixed message and repeated ids once", func() {
		llm, _ := fakes.NewLLM([]fakes.Step{
			{Match: fakes.Match{Turn: 1}, Respond: expand(shadow, "shadow_00000000000000000000000000000000", shadow)},
			{Match: fakes.Match{Turn: 2}, Respond: expand(shadow)},
			{Match: fakes.Match{Turn: 3}, Respond: fakes.Respond{Text: ptr("done")}},
		}, fakes.Options{})
		g := newGateway(true)
		out, err := g.Handle(ctx, chatBody("1", "logs__query", content, false), upstream(llm))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Rounds).To(Equal(3))
		Expect(out.Expansions).To(Equal([]gateway.Expansion{
			{Round: 1, CallID: "x0", ShadowID: shadow, Answer: "original"},
			{Round: 1, CallID: "x1", ShadowID: "shadow_00000000000000000000000000000000", Answer: "not_available"},
			{Round: 1, CallID: "x2", ShadowID: shadow, Answer: "repeated"},
			{Round: 2, CallID: "x0", ShadowID: shadow, Answer: "repeated"},
		}))
		msgs := llm.Calls()[1].Request.Messages
		Expect(msgs[len(msgs)-2].Content).To(Equal(gateway.ExpandNotAvailable("shadow_00000000000000000000000000000000")))
		Expect(llm.Check()).To(Succeed())
	})

	It("answers an original expired since an earlier request with the fixed message", func() {
		src, clock := gatewaytest.Manual()
		p, _ := gateway.NewPipe(gateway.Options{Compressor: gateway.Simple{Words: 8}, Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src})
		g := &gateway.Gateway{Pipe: p, Wire: openai.Wire{}, Expand: true}
		llm, _ := fakes.NewLLM([]fakes.Step{
			{Match: fakes.Match{Turn: 1, Contains: []string{"request 1"}}, Respond: fakes.Respond{Text: ptr("seen")}},
			{Match: fakes.Match{Turn: 1, Contains: []string{"request 2"}}, Respond: expand(shadow)},
			{Match: fakes.Match{Turn: 2}, Respond: fakes.Respond{Text: ptr("ok")}},
		}, fakes.Options{})
		first, err := g.Handle(ctx, chatBody("1", "t", content, false), upstream(llm))
		Expect(err).NotTo(HaveOccurred())
		clock.Advance(6 * 60e9) // the client comes back six minutes later, the marker in its history
		out, err := g.Handle(ctx, chatBody("2", "t", first.Results[0].Text, false), upstream(llm))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Expansions[0].Answer).To(Equal("missing"))
		Expect(llm.Check()).To(Succeed())
	})

	It("answers an original compressed in this request from the request, however long the model thinks", func() {
		src, clock := gatewaytest.Manual()
		p, _ := gateway.NewPipe(gateway.Options{Compressor: gateway.Simple{Words: 8}, Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src})
		g := &gateway.Gateway{Pipe: p, Wire: openai.Wire{}, Expand: true}
		llm, _ := fakes.NewLLM([]fakes.Step{
			{Match: fakes.Match{Turn: 1}, Respond: expand(shadow)},
			{Match: fakes.Match{Turn: 2, Contains: []string{"host=db-1 status=FAILED"}}, Respond: fakes.Respond{Text: ptr("ok")}},
		}, fakes.Options{})
		up := upstream(llm)
		out, err := g.Handle(ctx, chatBody("1", "t", content, false), func(ctx context.Context, round int, body []byte) ([]byte, error) {
			clock.Advance(6 * 60e9) // the model thinks for six minutes: the store's copy expired
			return up(ctx, round, body)
		})
		Expect(err).NotTo(HaveOccurred())
		_, kept, err := p.Store().Original(ctx, gateway.AnonymousCaller, shadow)
		Expect(err).NotTo(HaveOccurred())
		Expect(kept).To(BeFalse())
		Expect(out.Expansions[0].Answer).To(Equal("original"))
		Expect(llm.Check()).To(Succeed())
	})

	It("stops after five expansion rounds and strips the calls left; with nothing else left, that is ErrCapped, not an empty answer", func() {
		llm, _ := fakes.NewLLM([]fakes.Step{{Match: fakes.Match{Tag: core.SiteGatewayUpstream}, Times: 6, Respond: expand(shadow)}}, fakes.Options{})
		g := newGateway(true)
		out, err := g.Handle(ctx, chatBody("1", "t", content, false), upstream(llm))
		Expect(err).To(MatchError(gateway.ErrCapped))
		Expect(out.Rounds).To(Equal(6))
		Expect(out.Capped).To(BeTrue())
		Expect(llm.Check()).To(Succeed())
	})

	It("stops after five expansion rounds and gives the text the model wrote beside the calls left", func() {
		respond := expand(shadow)
		respond.Text = ptr("Still looking.")
		llm, _ := fakes.NewLLM([]fakes.Step{{Match: fakes.Match{Tag: core.SiteGatewayUpstream}, Times: 6, Respond: respond}}, fakes.Options{})
		g := newGateway(true)
		out, err := g.Handle(ctx, chatBody("1", "t", content, false), upstream(llm))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Rounds).To(Equal(6))
		Expect(out.Capped).To(BeTrue())
		Expect(string(out.Response)).NotTo(ContainSubstring("expand_context"))
		Expect(string(out.Response)).To(ContainSubstring(`"Still looking."`))
		Expect(llm.Check()).To(Succeed())
	})

	It("leaves requests without tool results, or with nothing compressed, untouched", func() {
		llm, _ := fakes.NewLLM([]fakes.Step{{Times: 1, Respond: fakes.Respond{Text: ptr("hi")}}}, fakes.Options{})
		g := newGateway(true)
		body := chatBody("1", "t", "small output", false)
		out, err := g.Handle(ctx, body, upstream(llm))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Forwarded[0]).To(Equal(body))
		Expect(llm.Calls()[0].Request.Tools).To(BeEmpty())
	})
})
