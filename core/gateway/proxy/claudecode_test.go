package proxy_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/internal/gatewaytest"
)

// claudeCode reads a request Claude Code 2.1.332 sent, as captured
// (core/gateway/anthropic/testdata/claude-code).
func claudeCode(name string) []byte {
	GinkgoHelper()
	data, err := os.ReadFile("../anthropic/testdata/claude-code/" + name)
	Expect(err).NotTo(HaveOccurred())
	return data
}

// received is a request as an upstream got it.
type received struct {
	method, uri string
	header      http.Header
	body        []byte
}

// recordingUpstream records every request and answers a Messages stream
// of one text (a message when the body does not ask to stream), and
// count_tokens with a count.
func recordingUpstream() (*httptest.Server, func() []received) {
	var mu sync.Mutex
	var got []received
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, received{r.Method, r.RequestURI, r.Header.Clone(), body})
		mu.Unlock()
		if strings.HasPrefix(r.URL.Path, "/v1/messages/count_tokens") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"input_tokens":4242}`)
			return
		}
		resp := core.Response{Text: "There are 1500 build steps."}
		if !bytes.Contains(body, []byte(`"stream":true`)) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(anthropic.EncodeResponse(resp, "msg_1", "claude-test"))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_ = anthropic.WriteStream(w, resp, "msg_1", "claude-test")
	}))
	DeferCleanup(up.Close)
	return up, func() []received { mu.Lock(); defer mu.Unlock(); return append([]received(nil), got...) }
}

// claudeFront is a proxy on the Anthropic route in front of up, compressing
// with c (Simple{Words: 8} by default bounds: 2,048 to 65,536 bytes).
func claudeFront(up *httptest.Server, c gateway.Compressor) string {
	return claudeFrontAt(up.URL, up, c)
}

// claudeFrontAt is claudeFront with the upstream URL given (a path, a
// query of its own).
func claudeFrontAt(upstream string, up *httptest.Server, c gateway.Compressor) string {
	src, _ := gatewaytest.Manual()
	p, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{RateLimit: 1000}, Compressor: c,
		Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src})
	Expect(err).NotTo(HaveOccurred())
	u, _ := url.Parse(upstream)
	front := httptest.NewServer(proxy.New(&gateway.Gateway{Pipe: p, Wire: anthropic.Wire{}, Expand: true}, u, up.Client()))
	DeferCleanup(front.Close)
	return front.URL
}

// postClaude posts body to url with Claude Code's headers.
func postClaude(url string, body []byte) (int, string) {
	GinkgoHelper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("anthropic-version", "2023-06-01")
	req.Header.Set("anthropic-beta", "claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27")
	req.Header.Set("x-api-key", "x")
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return resp.StatusCode, string(out)
}

var _ = Describe("the proxy and Claude Code's requests (a system message inside messages, thinking, context_management, output_config, cache_control, ?beta=true)", func() {
	It("forwards a request with nothing to compress byte for byte, to the same path and query, and relays the answer", func() {
		up, got := recordingUpstream()
		base := claudeFront(up, gateway.Simple{Words: 8})
		for _, name := range []string{"turn1.json", "budgeted.json"} {
			body := claudeCode(name)
			status, out := postClaude(base+"/v1/messages?beta=true", body)
			Expect(status).To(Equal(http.StatusOK), out)
			msg, err := anthropic.AssembleStream([]byte(out))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(msg)).To(ContainSubstring(`"text":"There are 1500 build steps."`))
			last := got()[len(got())-1]
			Expect(last.uri).To(Equal("/v1/messages?beta=true"), "the client's query reaches the upstream")
			Expect(last.header.Get("anthropic-beta")).To(HavePrefix("claude-code-20250219,"))
			Expect(last.body).To(Equal(body), name+": every byte as Claude Code sent it")
		}
	})

	It("forwards a tool result it does not compress byte for byte (a passthrough compressor)", func() {
		up, got := recordingUpstream()
		base := claudeFront(up, gateway.Passthrough{})
		body := claudeCode("turn2.json")
		status, out := postClaude(base+"/v1/messages?beta=true", body)
		Expect(status).To(Equal(http.StatusOK), out)
		Expect(got()).To(HaveLen(1))
		Expect(got()[0].body).To(Equal(body))
	})

	It("changes only the compressed tool_result's content (its cache_control kept) and appends expand_context to the tools", func() {
		up, got := recordingUpstream()
		base := claudeFront(up, gateway.Simple{Words: 8})
		body := claudeCode("turn2.json")
		status, out := postClaude(base+"/v1/messages?beta=true", body)
		Expect(status).To(Equal(http.StatusOK), out)
		Expect(got()).To(HaveLen(1))
		fwd := got()[0].body
		Expect(got()[0].uri).To(Equal("/v1/messages?beta=true"))

		in, err := jsonspan.Parse(body)
		Expect(err).NotTo(HaveOccurred())
		outRoot, err := jsonspan.Parse(fwd)
		Expect(err).NotTo(HaveOccurred())
		result := func(root *jsonspan.Node) *jsonspan.Node {
			return root.Get("messages").Items()[3].Get("content").Items()[0]
		}
		cIn, cOut := result(in).Get("content"), result(outRoot).Get("content")
		original := cIn.Text()
		Expect(cOut.Text()).To(HavePrefix("<<<SHADOW:" + gateway.ShadowID(original) + ">>>\nbuild step 1 build step 2 build step [..."))
		Expect(result(outRoot).Get("cache_control")).NotTo(BeNil(), "the block's other members stay")
		tIn, tOut := in.Get("tools"), outRoot.Get("tools")
		Expect(tOut.Items()).To(HaveLen(len(tIn.Items()) + 1))
		Expect(tOut.Items()[len(tIn.Items())].Get("name").Text()).To(Equal(gateway.ExpandToolName))
		lastIn := tIn.Items()[len(tIn.Items())-1]
		lastOut := tOut.Items()[len(tIn.Items())-1]
		Expect(string(fwd[:cOut.Start])).To(Equal(string(body[:cIn.Start])), "every byte before the content")
		Expect(string(fwd[cOut.End:lastOut.End])).To(Equal(string(body[cIn.End:lastIn.End])), "every byte between it and the last tool")
		Expect(string(fwd[tOut.End:])).To(Equal(string(body[tIn.End:])), "every byte after the tools")
	})

	It("joins the client's query after the upstream's own, on every round, streamed or not", func() {
		up, got := recordingUpstream()
		base := claudeFrontAt(up.URL+"/v1?api-version=2", up, gateway.Simple{Words: 8})
		body := bytes.Replace(claudeCode("turn2.json"), []byte(`"stream":true`), []byte(`"stream":false`), 1)
		status, out := postClaude(base+"/v1/messages?beta=true", body)
		Expect(status).To(Equal(http.StatusOK), out)
		Expect(got()[0].uri).To(Equal("/v1/messages?api-version=2&beta=true"))
		status, out = postClaude(base+"/v1/messages", body)
		Expect(status).To(Equal(http.StatusOK), out)
		Expect(got()[1].uri).To(Equal("/v1/messages?api-version=2"))
	})

	It("passes POST /v1/messages/count_tokens?beta=true through, body, query and headers as sent", func() {
		up, got := recordingUpstream()
		base := claudeFront(up, gateway.Simple{Words: 8})
		body := claudeCode("count_tokens.json")
		status, out := postClaude(base+"/v1/messages/count_tokens?beta=true", body)
		Expect(status).To(Equal(http.StatusOK), out)
		Expect(out).To(Equal(`{"input_tokens":4242}`))
		Expect(got()).To(HaveLen(1))
		Expect(got()[0].method).To(Equal(http.MethodPost))
		Expect(got()[0].uri).To(Equal("/v1/messages/count_tokens?beta=true"))
		Expect(got()[0].header.Get("anthropic-version")).To(Equal("2023-06-01"))
		Expect(got()[0].body).To(Equal(body))
	})
})
