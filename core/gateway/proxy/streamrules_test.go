package proxy_test

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/fakes"
)

// One set of rules for every streamed path: a streaming
// request that carries no marker (the path that used to relay bytes as
// they came) and one that carries a marker the gateway issued (relayed
// event by event, held from a tool call on) give the client the same
// verdict on the same upstream fault, on every wire.

// wireStream is one wire's route, its request bodies and a text answer's
// events, split: those before the text, the text, and those after it, of
// which terminal ones end the stream ([DONE], a finish_reason,
// message_stop, response.completed).
type wireStream struct {
	name, path           string
	plain, marked        []byte // a streaming request without a marker, and one the gateway compresses
	before, after        []string
	text                 string
	terminal             func(ev string) bool
	errorEvent, badEvent string
}

const failingText = "The failing host is db-1."

func splitEvents(stream []byte) (before []string, text string, after []string) {
	evs := strings.SplitAfter(string(stream), "\n\n")
	for i, ev := range evs {
		if strings.Contains(ev, failingText) {
			return evs[:i], ev, evs[i+1:]
		}
	}
	Fail("no text event in " + string(stream))
	return nil, "", nil
}

func ruleWires() []wireStream {
	answer := core.Response{Text: failingText, FinishReason: "stop", Usage: core.Usage{InputTokens: 5, OutputTokens: 3}}
	chunk := func(delta string) string {
		return `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":` + delta + "}]}\n\n"
	}
	oa := wireStream{name: "openai", path: openai.Path,
		plain: chatBody("1", "t", "a small tool result", true), marked: chatBody("1", "logs__query", bigLog("db-1"), true),
		before: []string{chunk(`{"role":"assistant","content":""}`)}, text: chunk(`{"content":"` + failingText + `"}`),
		after: []string{`data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n", "data: [DONE]\n\n"},
		terminal: func(ev string) bool {
			return strings.Contains(ev, `"finish_reason":"`) || strings.Contains(ev, "[DONE]")
		},
		errorEvent: `data: {"error":{"message":"the model is overloaded","type":"server_error"}}` + "\n\n",
		badEvent:   `data: {"id":"c","choices":[{"index":0,"delta":{"content":"x"}` + "\n\n",
	}
	an := wireStream{name: "anthropic", path: anthropic.Path,
		plain: messagesBody("a small tool result", true), marked: messagesBody(bigLog("db-1"), true),
		terminal:   func(ev string) bool { return strings.Contains(ev, "message_stop") },
		errorEvent: "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
		badEvent:   "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}\n\n",
	}
	stream, err := anthropic.StreamOf(anthropic.EncodeResponse(answer, "msg_1", "claude-test"))
	Expect(err).NotTo(HaveOccurred())
	an.before, an.text, an.after = splitEvents(stream)
	rs := wireStream{name: "responses", path: responses.Path,
		plain: responsesBody("a small tool result", true, ""), marked: responsesBody(bigLog("db-1"), true, ""),
		terminal:   func(ev string) bool { return strings.Contains(ev, "response.completed") },
		errorEvent: "event: error\ndata: {\"type\":\"error\",\"sequence_number\":9,\"code\":\"server_error\",\"message\":\"the model is overloaded\"}\n\n",
		badEvent:   "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"x\"\n\n",
	}
	stream, err = responses.StreamOf(responses.EncodeResponse(answer, "resp_1", "gpt-test"))
	Expect(err).NotTo(HaveOccurred())
	rs.before, rs.text, rs.after = splitEvents(stream)
	return []wireStream{oa, an, rs}
}

// whole is the wire's stream of the text answer, as the model sends it.
func (s wireStream) whole() string {
	return strings.Join(s.before, "") + s.text + strings.Join(s.after, "")
}

// unended is the whole stream without its terminal events.
func (s wireStream) unended() string {
	out := strings.Join(s.before, "") + s.text
	for _, ev := range s.after {
		if !s.terminal(ev) {
			out += ev
		}
	}
	return out
}

// verdict is what the client of a streaming request saw, and how the
// proxy counted the request.
type verdict struct {
	Status  int
	Aborted bool // the connection dropped before the response ended
	Outcome string
}

// fault is an upstream misbehaviour: serve answers one round; stall, when
// set, is the moment the upstream stalls for ever (after its events were
// flushed): the spec then moves the proxy's clock past its upstream
// timeout.
type fault struct {
	serve  func(s wireStream, w http.ResponseWriter, r *http.Request)
	stall  bool
	limits proxy.Limits
	want   verdict
}

func sse(w http.ResponseWriter, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, ev := range events {
		_, _ = io.WriteString(w, ev)
	}
	_ = http.NewResponseController(w).Flush()
}

// abort drops the upstream's connection without ending its response.
func abort(w http.ResponseWriter) {
	_ = http.NewResponseController(w).Flush()
	panic(http.ErrAbortHandler)
}

var (
	ok200   = verdict{Status: http.StatusOK, Outcome: proxy.OutcomeOK}
	cut     = verdict{Status: http.StatusOK, Aborted: true, Outcome: proxy.OutcomeUpstreamError}
	badGate = verdict{Status: http.StatusBadGateway, Outcome: proxy.OutcomeUpstreamError}
)

var upstreamFaults = map[string]fault{
	"a whole stream (no fault)": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) { sse(w, s.whole()) }, want: ok200},
	"an error status (500)": {serve: func(_ wireStream, w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"error":{"message":"boom"}}`, http.StatusInternalServerError)
	}, want: verdict{Status: 500, Outcome: proxy.OutcomeUpstreamError}},
	"a rate limit (429)": {serve: func(_ wireStream, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "7")
		http.Error(w, `{"error":{"type":"rate_limit"}}`, http.StatusTooManyRequests)
	}, want: verdict{Status: 429, Outcome: proxy.OutcomeUpstreamError}},
	"a redirect (307), relayed, not followed": {serve: func(_ wireStream, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:1/elsewhere", http.StatusTemporaryRedirect)
	}, want: verdict{Status: 307, Outcome: proxy.OutcomeUpstreamError}},
	"a connection reset before the headers": {serve: func(_ wireStream, w http.ResponseWriter, _ *http.Request) {
		if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = c.Close()
		}
	}, want: badGate},
	"an empty 200": {serve: func(_ wireStream, w http.ResponseWriter, _ *http.Request) { sse(w) }, want: badGate},
	"a JSON 200 (not an event stream)": {serve: func(_ wireStream, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`)
	}, want: badGate},
	"an HTML page (not an event stream)": {serve: func(_ wireStream, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<html><body><h1>502 Bad Gateway</h1>\n\n<p>nginx</p></body></html>\n")
	}, want: badGate},
	"a connection reset before the text": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) {
		sse(w, s.before...)
		abort(w)
	}, want: badGate},
	"a connection reset after the text": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) {
		sse(w, append(s.before, s.text)...)
		abort(w)
	}, want: cut},
	"a clean end before the text": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) { sse(w, s.before...) }, want: badGate},
	"a clean end after the text ([DONE], finish_reason, message_stop, response.completed missing)": {
		serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) { sse(w, s.before...); sse(w, s.text) }, want: cut},
	"a clean end without the terminal event": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) { sse(w, s.unended()) }, want: cut},
	"an error event first":                   {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) { sse(w, s.errorEvent) }, want: badGate},
	"an error event after the text (relayed, the stream ends)": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) {
		sse(w, append(append(s.before, s.text), s.errorEvent)...)
	}, want: verdict{Status: http.StatusOK, Outcome: proxy.OutcomeUpstreamError}},
	"a malformed event before the text (relayed with the text, then the connection dropped)": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) {
		sse(w, append([]string{s.badEvent}, s.whole())...)
	}, want: cut},
	"a malformed event and nothing else": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) { sse(w, s.badEvent) }, want: badGate},
	"a malformed event after the text": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) {
		sse(w, append(append(s.before, s.text), s.badEvent)...)
		sse(w, s.after...)
	}, want: cut},
	"a stream over max_response_bytes": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) {
		sse(w, append(s.before, s.text)...)
		sse(w, strings.Repeat(s.text, 200)+strings.Join(s.after, ""))
	}, limits: proxy.Limits{MaxResponseBytes: 8 << 10}, want: cut},
	"a stall before the headers, past upstream_timeout": {serve: func(_ wireStream, _ http.ResponseWriter, r *http.Request) {}, stall: true,
		want: verdict{Status: http.StatusGatewayTimeout, Outcome: proxy.OutcomeUpstreamError}},
	"a stall before the text, past upstream_timeout": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) { sse(w, s.before...) }, stall: true,
		want: verdict{Status: http.StatusGatewayTimeout, Outcome: proxy.OutcomeUpstreamError}},
	"a stall after the text, past upstream_timeout": {serve: func(s wireStream, w http.ResponseWriter, _ *http.Request) {
		sse(w, append(s.before, s.text)...)
	}, stall: true, want: cut},
}

// rulesFront serves a proxy with the three routes (expansion on) in front
// of up, on clock, and returns its URL and events.
func rulesFront(l proxy.Limits, clock *fakes.Clock, up http.HandlerFunc) (string, *events) {
	upstream := httptest.NewServer(up)
	DeferCleanup(upstream.Close)
	u, err := url.Parse(upstream.URL)
	Expect(err).NotTo(HaveOccurred())
	g := newGateway(true)
	p := proxy.New(g, u, upstream.Client())
	p.Handle(&gateway.Gateway{Pipe: g.Pipe, Wire: anthropic.Wire{}, Expand: true}, u)
	p.Handle(&gateway.Gateway{Pipe: g.Pipe, Wire: responses.Wire{}, Expand: true}, u)
	p.Limits, p.Sources = l.WithDefaults(), core.Sources{Now: clock.Now, Timeout: clock.WithTimeout}
	ev := &events{}
	p.Observer = ev
	front := httptest.NewServer(p)
	DeferCleanup(front.Close)
	return front.URL, ev
}

// verdictOf posts body to s's route of a proxy in front of f's upstream
// and returns what the client saw.
func verdictOf(f fault, s wireStream, body []byte) verdict {
	clock := &fakes.Clock{Step: -1}
	stalled, release := make(chan struct{}, 1), make(chan struct{})
	DeferCleanup(func() { close(release) }) // before the servers close: cleanups run last-registered first
	base, ev := rulesFront(f.limits, clock, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		f.serve(s, w, r)
		if f.stall {
			stalled <- struct{}{}
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}
	})
	type answer struct {
		resp *http.Response
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		resp, err := noFollow.Post(base+s.path, "application/json", bytes.NewReader(body))
		got <- answer{resp, err}
	}()
	if f.stall {
		Eventually(stalled, "10s").Should(Receive())
		clock.Advance(proxy.DefaultUpstreamTimeout + time.Second)
	}
	var a answer
	Eventually(got, "10s").Should(Receive(&a))
	Expect(a.err).NotTo(HaveOccurred())
	defer a.resp.Body.Close()
	_, err := io.ReadAll(a.resp.Body)
	if err != nil {
		Expect(errors.Is(err, io.ErrUnexpectedEOF)).To(BeTrue(), "a dropped connection, not %v", err)
	}
	var outcome []string
	Eventually(func() []string { outcome, _ = ev.snapshot(); return outcome }, "10s").Should(HaveLen(1))
	return verdict{Status: a.resp.StatusCode, Aborted: err != nil, Outcome: strings.TrimPrefix(outcome[0], s.name+"/")}
}

// noFollow is a patient client that takes a redirect for the answer.
var noFollow = &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

var _ = Describe("the streamed paths' verdict on upstream faults", func() {
	var entries []TableEntry
	for _, name := range slices.Sorted(maps.Keys(upstreamFaults)) {
		f := upstreamFaults[name]
		for _, wire := range []string{"openai", "anthropic", "responses"} {
			entries = append(entries, Entry(wire+": "+name, wire, f))
		}
	}
	DescribeTable("is the same with a marker (held from a tool call on) and without (relayed as it comes), on every wire",
		func(wire string, f fault) {
			var s wireStream
			for _, w := range ruleWires() {
				if w.name == wire {
					s = w
				}
			}
			plain, marked := verdictOf(f, s, s.plain), verdictOf(f, s, s.marked)
			Expect(plain).To(Equal(marked), "without a marker, and with one")
			Expect(marked).To(Equal(f.want))
		},
		entries,
	)
})

// A model may call expand_context in a conversation that holds no marker
// (it saw the tool in an earlier turn, or names an id from its training or
// from a prompt injection): the gateway owns that tool name, and answers
// the call (not available) whether the request streams or not.
var _ = Describe("an expand_context call in a stream whose request holds no marker", func() {
	type route struct {
		server func(core.LLM) *httptest.Server
		wire   gateway.Wire
		body   func(stream bool) []byte
	}
	routes := map[string]route{
		"openai":    {modelServer, nil, func(stream bool) []byte { return chatBody("1", "t", "a small tool result", stream) }},
		"anthropic": {messagesServer, anthropic.Wire{}, func(stream bool) []byte { return messagesBody("a small tool result", stream) }},
		"responses": {responsesServer, responses.Wire{}, func(stream bool) []byte { return responsesBody("a small tool result", stream, "") }},
	}
	// answer runs a model that calls expand_context (after text, when
	// before is set), then answers, behind the wire's route.
	answer := func(name, before string, stream bool) (*http.Response, string, *fakes.LLM) {
		call := fakes.Respond{ToolCalls: []fakes.CallSpec{{ID: "call_x", Name: gateway.ExpandToolName, Args: map[string]any{"shadow_id": "shadow_00112233445566778899aabbccddeeff"}}}}
		if before != "" {
			call.Text = ptr(before)
		}
		llm, err := fakes.NewLLM([]fakes.Step{
			{ID: "calls", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 1}, Respond: call},
			{ID: "answers", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 2, Contains: []string{"is not available in this conversation"}},
				Respond: fakes.Respond{Text: ptr("nothing to expand")}},
		}, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		r := routes[name]
		base, _ := expandFront(llm, r.server, r.wire)
		path := openai.Path
		if r.wire != nil {
			path = r.wire.Path()
		}
		resp, err := noFollow.Post(base+path, "application/json", bytes.NewReader(r.body(stream)))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		return resp, string(out), llm
	}
	DescribeTable("is answered and never reaches the client, as without streaming",
		func(name, before string) {
			resp, buffered, llm := answer(name, before, false)
			Expect(resp.StatusCode).To(Equal(http.StatusOK), buffered)
			Expect(resp.Header.Get(proxy.RoundsHeader)).To(Equal("2"))
			Expect(buffered).NotTo(ContainSubstring(gateway.ExpandToolName))
			Expect(llm.Check()).To(Succeed())

			resp, streamed, llm := answer(name, before, true)
			Expect(resp.StatusCode).To(Equal(http.StatusOK), streamed)
			Expect(resp.Trailer.Get(proxy.RoundsHeader)+resp.Header.Get(proxy.RoundsHeader)).To(Equal("2"), "a header, or a trailer")
			Expect(streamed).NotTo(ContainSubstring(gateway.ExpandToolName))
			Expect(streamed).To(ContainSubstring("nothing to expand"))
			Expect(streamed).To(ContainSubstring(before))
			Expect(llm.Check()).To(Succeed(), "the model was asked again with the answer")
		},
		Entry("openai: a response that only calls it", "openai", ""),
		Entry("openai: after text", "openai", "Looking."),
		Entry("anthropic: a response that only calls it", "anthropic", ""),
		Entry("anthropic: after text", "anthropic", "Looking."),
		Entry("responses: a response that only calls it", "responses", ""),
		Entry("responses: after text", "responses", "Looking."),
	)
})

// A stream with content the wire does not assemble (an Anthropic server
// tool's block) is relayed as it came when it is whole; cut, it is not
// whole either.
var _ = Describe("a stream with content the wire cannot assemble", func() {
	events := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{}}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
	end := "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":3}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	var s wireStream
	BeforeEach(func() { s = ruleWires()[1] })
	serve := func(body string) fault {
		return fault{serve: func(_ wireStream, w http.ResponseWriter, _ *http.Request) { sse(w, body) }}
	}
	It("is relayed whole when it ends with message_stop, on both paths", func() {
		Expect(verdictOf(serve(events+end), s, s.plain)).To(Equal(ok200))
		Expect(verdictOf(serve(events+end), s, s.marked)).To(Equal(ok200))
	})
	It("is a 502 when it ends before message_stop, on both paths", func() {
		Expect(verdictOf(serve(events), s, s.plain)).To(Equal(badGate))
		Expect(verdictOf(serve(events), s, s.marked)).To(Equal(badGate))
	})
})
