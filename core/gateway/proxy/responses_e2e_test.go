package proxy_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/internal/gatewaytest"
	"github.com/toolout/toolout/internal/httpspec"
)

// responsesServer is a Responses API scripted upstream, answering as one
// response object or as its event stream (responses.EncodeStream). As the
// API does, the response object echoes the request's tools.
func responsesServer(llm core.LLM) *httptest.Server {
	var tools sync.Map // request tools by round, for the echo
	srv := scriptedUpstream(llm, func(body []byte, tag core.Tag) (core.Request, bool, error) {
		if root, err := jsonspan.Parse(body); err == nil && root.Get("tools") != nil {
			t := root.Get("tools")
			tools.Store(tag.Turn, body[t.Start:t.End])
		}
		return responses.DecodeRequest(body, tag)
	}, func(w http.ResponseWriter, resp core.Response, stream bool) {
		body := responses.EncodeResponse(resp, "resp_1", "gpt-test")
		tools.Range(func(_, v any) bool { // the one round in flight (the specs send one request at a time)
			body = bytes.Replace(body, []byte(`"tools":[]`), append([]byte(`"tools":`), v.([]byte)...), 1)
			return false
		})
		tools.Clear()
		if !stream {
			_, _ = w.Write(body)
			return
		}
		out, _ := responses.StreamOf(body)
		_, _ = w.Write(out)
	})
	return srv
}

// bodyRecorder keeps the bodies an upstream got, by path.
type bodyRecorder struct {
	mu     sync.Mutex
	bodies []string
	paths  []string
}

func (rec *bodyRecorder) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.bodies, rec.paths = append(rec.bodies, string(body)), append(rec.paths, r.URL.Path)
		rec.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

func (rec *bodyRecorder) got() ([]string, []string) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.paths...), append([]string(nil), rec.bodies...)
}

// hostLog is a log of about size bytes whose line 400 says host failed.
func hostLog(failing string, size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		host, status := fmt.Sprintf("web-%d", i%7), "ok"
		if i == 400 {
			host, status = failing, "FAILED"
		}
		fmt.Fprintf(&b, "line %d host=%s status=%s\n", i, host, status)
	}
	return b.String()
}

// Items the gateway must pass through byte for byte: odd spacing, escapes
// and key orders that a re-encoding would change.
const (
	reasoningItem  = `{ "type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Look at \u0074he log"}],"encrypted_content":"gAAAAB\/x+=="}`
	compactionItem = `{"encrypted_content":"enc\u002Fopaque==","type":"compaction" ,"id":"cmp_1"}`
	referenceItem  = `{"type":"item_reference","id":"msg_0"}`
	futureItem     = `{"type":"future_tool_call_output","call_id":"f","output":{"blob":[1,2]}}`
)

// responsesBody is a Codex-like request: a developer message, the user's
// question, opaque items, a function call and its 200 KB output.
func responsesBody(content string, stream bool, extra string) []byte {
	out, _ := json.Marshal(content)
	return []byte(`{"model":"gpt-test","stream":` + fmt.Sprint(stream) + `,"store":false,"include":["reasoning.encrypted_content"]` + extra + `,"input":[` +
		`{"type":"message","role":"developer","content":[{"type":"input_text","text":"You are a coding agent."}]},` +
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"which host failed?"}]},` +
		compactionItem + `,` + reasoningItem + `,` + referenceItem + `,` +
		`{"type":"function_call","id":"fc_0","call_id":"call_0","name":"exec_command","arguments":"{\"cmd\":\"cat app.log\"}","status":"completed"},` +
		`{"type":"function_call_output","call_id":"call_0","output":` + string(out) + `},` + futureItem +
		`],"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object"}},{"type":"web_search"}]}`)
}

var _ = Describe("the proxy on the Responses API, end to end over loopback", func() {
	content := hostLog("db-4", 200<<10)
	shadow := gateway.ShadowID(content)

	// serve runs the scripted model behind a recording upstream and a
	// proxy whose OpenAI provider serves /v1/chat/completions and
	// /v1/responses, compressing outputs up to 256 KiB.
	var obs *historyEvents
	serve := func() (string, *fakes.LLM, *bodyRecorder, *httpspec.Log) {
		llm := expandOnce(shadow, "call_x1", "db-4")
		rec := &bodyRecorder{}
		up := responsesServer(llm)
		DeferCleanup(up.Close)
		front := httptest.NewServer(rec.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			u, _ := url.Parse(up.URL + r.URL.RequestURI())
			req, _ := http.NewRequest(r.Method, u.String(), r.Body)
			req.Header = r.Header.Clone()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				http.Error(w, err.Error(), 502)
				return
			}
			defer resp.Body.Close()
			for k, v := range resp.Header {
				w.Header()[k] = v
			}
			w.WriteHeader(resp.StatusCode)
			_, _ = io.Copy(w, resp.Body)
		})))
		DeferCleanup(front.Close)
		u, _ := url.Parse(front.URL)
		src, _ := gatewaytest.Manual()
		p, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{RateLimit: 1000, MaxBytes: 256 << 10}, Compressor: gateway.Simple{Words: 8},
			Store: memstore.New(gateway.StoreOptions{Sources: src, MaxBytes: 64 << 20}), Sources: src})
		Expect(err).NotTo(HaveOccurred())
		log := &httpspec.Log{}
		px := proxy.New(&gateway.Gateway{Pipe: p, Wire: responses.Wire{}, Expand: true}, u, nil)
		obs = &historyEvents{}
		px.Logf, px.Observer = log.Logf, obs
		gw := httptest.NewServer(px)
		DeferCleanup(gw.Close)
		return gw.URL, llm, rec, log
	}

	// expectForwarded checks the first round's body: the output compressed
	// to its marker, expand_context offered, and every other item as sent.
	expectForwarded := func(rec *bodyRecorder, sent []byte) {
		GinkgoHelper()
		paths, bodies := rec.got()
		Expect(paths).To(Equal([]string{responses.Path, responses.Path}))
		first := bodies[0]
		Expect(len(first)).To(BeNumerically("<", 10<<10), "the 200 KB output went compressed")
		Expect(first).To(ContainSubstring(`"output":"<<<SHADOW:` + shadow + `>>>`))
		Expect(first).To(ContainSubstring(`{"type":"function","name":"expand_context"`))
		for _, item := range []string{compactionItem, reasoningItem, referenceItem, futureItem} {
			Expect(first).To(ContainSubstring(item), "byte for byte")
			Expect(bodies[1]).To(ContainSubstring(item), "byte for byte in the expansion round")
		}
		Expect(bodies[1]).To(ContainSubstring(`{"type":"function_call_output","call_id":"call_x1","output":` + string(mustJSON(content)) + `}`))
		start := bytes.Index(sent, []byte(`{"type":"function_call_output"`))
		Expect(first[:start]).To(Equal(string(sent[:start])), "every byte before the compressed output")
	}

	It("compresses a 200 KB function_call_output and expands it on the model's request", func() {
		url, llm, rec, _ := serve()
		body := responsesBody(content, false, "")
		resp, out := httpspec.Post(url+responses.Path, body)
		Expect(resp.StatusCode).To(Equal(200), out)
		Expect(resp.Header.Get(proxy.RoundsHeader)).To(Equal("2"))
		final, err := responses.DecodeResponse([]byte(out))
		Expect(err).NotTo(HaveOccurred())
		expectFinalOnly(llm, final, out, "db-4 failed at line 333.")
		expectForwarded(rec, body)
	})

	It("streams: the client gets a whole Responses stream without the phantom call", func() {
		url, llm, rec, _ := serve()
		body := responsesBody(content, true, "")
		resp, out := httpspec.Post(url+responses.Path, body)
		Expect(resp.StatusCode).To(Equal(200), out)
		Expect(resp.Header.Get("Content-Type")).To(HavePrefix("text/event-stream"))
		Expect(out).NotTo(ContainSubstring("expand_context"))
		whole, err := responses.Assemble([]byte(out))
		Expect(err).NotTo(HaveOccurred(), out)
		final, err := responses.DecodeResponse(whole)
		Expect(err).NotTo(HaveOccurred())
		Expect(final.Text).To(Equal("db-4 failed at line 333."))
		Expect(llm.Check()).To(Succeed())
		expectForwarded(rec, body)
	})

	It("compresses what a request with previous_response_id carries, and says the rest is held by the provider", func() {
		url, llm, _, log := serve()
		resp, out := httpspec.Post(url+responses.Path, responsesBody(content, false, `,"previous_response_id":"resp_0"`))
		Expect(resp.StatusCode).To(Equal(200), out)
		Expect(llm.Check()).To(Succeed())
		Expect(log.Lines()).To(ContainElement(ContainSubstring("/v1/responses: previous_response_id: the provider holds history the gateway cannot see; only the 1 tool output(s) the request carries can be compressed")))
		Eventually(func() []string { r, _ := obs.snapshot(); return r }).Should(Equal([]string{"responses/ok"}))
		Expect(obs.members()).To(Equal([]string{"responses/previous_response_id"}))
	})

	It("relays a stream with nothing to compress as it comes, counted ok though every response object says \"error\": null", func() {
		small := responsesBody("a short output", true, "")
		llm, err := fakes.NewLLM([]fakes.Step{{ID: "answers", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 1},
			Respond: fakes.Respond{Text: ptr("nothing failed")}}}, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		up := responsesServer(llm)
		DeferCleanup(up.Close)
		u, _ := url.Parse(up.URL)
		obs := &historyEvents{}
		px := proxy.New(newGatewayOn(responses.Wire{}), u, up.Client())
		px.Observer = obs
		gw := httptest.NewServer(px)
		DeferCleanup(gw.Close)
		resp, out := httpspec.Post(gw.URL+responses.Path, small)
		Expect(resp.StatusCode).To(Equal(200), out)
		Expect(resp.Trailer.Get(proxy.RoundsHeader)).To(Equal("1"), "a trailer: the rounds are not known when the stream starts")
		Expect(out).To(ContainSubstring(`"error":null`))
		Expect(llm.Check()).To(Succeed())
		Eventually(func() []string { r, _ := obs.snapshot(); return r }).Should(Equal([]string{"responses/ok"}), "not upstream_error")
	})

	It("passes /v1/responses/compact and other paths under /v1/responses through", func() {
		url, _, rec, _ := serve()
		for _, path := range []string{"/v1/responses/compact", "/v1/responses/resp_1/input_items"} {
			body := responsesBody(content, false, "")
			resp, _ := httpspec.Post(url+path, body)
			Expect(resp.StatusCode).To(Equal(http.StatusBadGateway)) // the scripted model has no step for an uncompressed body
			paths, bodies := rec.got()
			Expect(paths[len(paths)-1]).To(Equal(path))
			Expect(bodies[len(bodies)-1]).To(Equal(string(body)), "byte for byte, the output not compressed")
		}
	})
})

// historyEvents are the proxy's events with the requests that continue a
// conversation the provider holds.
type historyEvents struct {
	events
	hidden []string
}

func (h *historyEvents) HiddenHistory(route, member string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.hidden = append(h.hidden, route+"/"+member)
}

func (h *historyEvents) members() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.hidden...)
}

func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// streamEvents reads a Responses stream's events as the SDK's accumulator
// does, checking what it relies on: one response.created first, sequence
// numbers 0, 1, ..., each output_item.added at the next output_index, and
// every other item event at an index already added. It returns the
// events' types and the output_text deltas joined.
func streamEvents(stream string) (types []string, text string) {
	GinkgoHelper()
	added := 0
	for _, block := range strings.Split(strings.TrimSuffix(stream, "\n\n"), "\n\n") {
		_, data, ok := strings.Cut(block, "data: ")
		Expect(ok).To(BeTrue(), block)
		var ev struct {
			Type  string `json:"type"`
			Seq   int    `json:"sequence_number"`
			Index *int   `json:"output_index"`
			Delta string `json:"delta"`
		}
		Expect(json.Unmarshal([]byte(data), &ev)).To(Succeed(), data)
		Expect(ev.Seq).To(Equal(len(types)), "sequence_number of %s", ev.Type)
		Expect(ev.Type == "response.created").To(Equal(len(types) == 0), "response.created first and once")
		switch {
		case ev.Type == "response.output_item.added":
			Expect(*ev.Index).To(Equal(added))
			added++
		case ev.Index != nil:
			Expect(*ev.Index).To(BeNumerically("<", added), ev.Type)
		}
		if ev.Type == "response.output_text.delta" {
			text += ev.Delta
		}
		types = append(types, ev.Type)
	}
	return types, text
}

var _ = Describe("the proxy on a Responses stream that offers expand_context", func() {
	content := hostLog("db-5", 20<<10)
	shadow := gateway.ShadowID(content)

	front := func(steps []fakes.Step) (string, *fakes.LLM) {
		llm, err := fakes.NewLLM(steps, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		up := responsesServer(llm)
		DeferCleanup(up.Close)
		u, _ := url.Parse(up.URL)
		g := newGatewayOn(responses.Wire{})
		gw := httptest.NewServer(proxy.New(g, u, up.Client()))
		DeferCleanup(gw.Close)
		return gw.URL, llm
	}

	It("relays the text written before the phantom call live, then continues the stream with the answer", func() {
		url, llm := front([]fakes.Step{
			{ID: "says-then-expands", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 1},
				Respond: fakes.Respond{Text: ptr("Let me look."), ToolCalls: []fakes.CallSpec{{ID: "call_x", Name: "expand_context", Args: map[string]any{"shadow_id": shadow}}}}},
			{ID: "answers", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 2, Contains: []string{"host=db-5 status=FAILED"}},
				Respond: fakes.Respond{Text: ptr("db-5 failed.")}},
		})
		resp, out := httpspec.Post(url+responses.Path, responsesBody(content, true, ""))
		Expect(resp.StatusCode).To(Equal(200), out)
		Expect(llm.Check()).To(Succeed())
		Expect(out).NotTo(ContainSubstring("expand_context"))
		types, text := streamEvents(out)
		Expect(text).To(Equal("Let me look.db-5 failed."))
		Expect(types[len(types)-1]).To(Equal("response.completed"))
		whole, err := responses.Assemble([]byte(out))
		Expect(err).NotTo(HaveOccurred())
		final, err := responses.DecodeResponse(whole)
		Expect(err).NotTo(HaveOccurred())
		Expect(final.Text).To(Equal("Let me look.\ndb-5 failed."), "the completed response holds what the client was sent and the answer")
		Expect(final.ToolCalls).To(BeEmpty())
	})

	It("relays a round whose call is real as the upstream sent it", func() {
		url, llm := front([]fakes.Step{
			{ID: "calls", Match: fakes.Match{Tag: core.SiteGatewayUpstream, Turn: 1},
				Respond: fakes.Respond{Text: ptr("Running."), ToolCalls: []fakes.CallSpec{{ID: "call_r", Name: "exec_command", Args: map[string]any{"cmd": "ls"}}}}},
		})
		resp, out := httpspec.Post(url+responses.Path, responsesBody(content, true, ""))
		Expect(resp.StatusCode).To(Equal(200), out)
		Expect(llm.Check()).To(Succeed())
		Expect(out).NotTo(ContainSubstring("expand_context"), "the response's echo of the tools lists the client's own")
		Expect(strings.Count(out, `"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object"}},{"type":"web_search"}]`)).To(Equal(3))
		whole, err := responses.Assemble([]byte(out))
		Expect(err).NotTo(HaveOccurred())
		final, err := responses.DecodeResponse(whole)
		Expect(err).NotTo(HaveOccurred())
		Expect(final).To(Equal(core.Response{Text: "Running.", FinishReason: core.FinishToolCalls, ToolCalls: []core.ToolCall{
			{ID: "call_r", Name: "exec_command", Arguments: json.RawMessage(`{"cmd":"ls"}`)}}}))
	})
})
