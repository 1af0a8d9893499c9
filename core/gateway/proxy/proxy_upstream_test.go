package proxy_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/internal/gatewaytest"
	"github.com/toolout/toolout/internal/httpspec"
)

// upstreamFront starts up, and a proxy whose routes (OpenAI and Anthropic)
// and other paths go to up's URL plus suffix; it returns up's URL, the
// proxy's URL, its log and its events.
func upstreamFront(suffix string, up http.HandlerFunc) (string, string, *httpspec.Log, *events) {
	upstream := httptest.NewServer(up)
	DeferCleanup(upstream.Close)
	u, err := url.Parse(upstream.URL + suffix)
	Expect(err).NotTo(HaveOccurred())
	log, ev := &httpspec.Log{}, &events{}
	g := newGateway(false)
	g.Logf = log.Logf
	p := proxy.New(g, u, upstream.Client())
	p.Handle(&gateway.Gateway{Pipe: g.Pipe, Wire: anthropic.Wire{}, Logf: log.Logf}, u)
	p.Logf, p.Observer = log.Logf, ev
	front := httptest.NewServer(p)
	DeferCleanup(front.Close)
	return upstream.URL, front.URL, log, ev
}

var _ = Describe("NormalizeUpstream", func() {
	DescribeTable("drops a trailing slash and a trailing /v1, and keeps the rest",
		func(raw, wirePath, want string) {
			u, err := url.Parse(raw)
			Expect(err).NotTo(HaveOccurred())
			got := proxy.NormalizeUpstream(u, wirePath)
			Expect(got.String()).To(Equal(want))
			Expect(u.String()).To(Equal(raw), "the given URL is not modified")
			Expect(proxy.NormalizeUpstream(got, wirePath).String()).To(Equal(want), "idempotent")
		},
		func(raw, wirePath, want string) string { return raw + " → " + want },
		Entry(nil, "http://h", openai.Path, "http://h"),
		Entry(nil, "http://h/", openai.Path, "http://h"),
		Entry(nil, "http://h/v1", openai.Path, "http://h"),
		Entry(nil, "http://h/v1/", openai.Path, "http://h"),
		Entry(nil, "http://h//v1//", openai.Path, "http://h"),
		Entry(nil, "http://h/v1/v1", anthropic.Path, "http://h"),
		Entry(nil, "https://u:p@h:8443/openai/v1?api-version=1", openai.Path, "https://u:p@h:8443/openai?api-version=1"),
		Entry(nil, "http://h/v10", openai.Path, "http://h/v10"),
		Entry(nil, "http://h/v1/", "/chat/completions", "http://h/v1"),
	)
})

var _ = Describe("the proxy's upstream URL", func() {
	DescribeTable("forwards routes and passthrough paths to the same paths, whatever form the upstream URL takes",
		func(suffix string) {
			var mu sync.Mutex
			var got []string
			_, front, _, _ := upstreamFront(suffix, func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				mu.Lock()
				got = append(got, r.Method+" "+r.URL.Path)
				mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`)
			})
			for _, r := range []struct {
				method, path string
				body         []byte
			}{
				{http.MethodPost, openai.Path, chatBody("1", "t", "small", false)},
				{http.MethodPost, anthropic.Path, messagesBody("small", false)},
				{http.MethodGet, "/v1/models", nil},
				{http.MethodPost, anthropic.Path + "/count_tokens", messagesBody("small", false)},
			} {
				resp, out := httpspec.Send(r.method, front+r.path, "application/json", r.body)
				Expect(resp.StatusCode).To(Equal(http.StatusOK), r.path+": "+out)
			}
			mu.Lock()
			defer mu.Unlock()
			Expect(got).To(Equal([]string{"POST /v1/chat/completions", "POST /v1/messages", "GET /v1/models", "POST /v1/messages/count_tokens"}))
		},
		Entry("the server's root", ""),
		Entry("the root with a slash", "/"),
		Entry("the SDKs' base URL", "/v1"),
		Entry("the base URL with a slash", "/v1/"),
	)

	It("keeps a path prefix before /v1", func() {
		paths := make(chan string, 1)
		_, front, _, _ := upstreamFront("/openai/v1", func(w http.ResponseWriter, r *http.Request) {
			paths <- r.URL.Path
		})
		resp, _ := httpspec.Get(front + "/v1/models")
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(<-paths).To(Equal("/openai/v1/models"))
	})
})

var _ = Describe("upstream error statuses", func() {
	DescribeTable("are relayed and logged in one line, with the path, the URL, the status and the start of the body",
		func(method, path string, body []byte, status int, answer, wantBody string) {
			upURL, front, log, ev := upstreamFront("/v1", func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				http.Error(w, answer, status)
			})
			resp, out := httpspec.Send(method, front+path, "application/json", body)
			Expect(resp.StatusCode).To(Equal(status))
			Expect(out).To(Equal(answer + "\n"))
			Expect(log.Lines()).To(ContainElement(fmt.Sprintf("gateway: %s: upstream %s%s answered %d: %s", path, upURL, path, status, wantBody)))
			requests, _ := ev.snapshot()
			Expect(requests).To(HaveLen(1))
			Expect(requests[0]).To(HaveSuffix("/"+proxy.OutcomeUpstreamError), "counted as an upstream error, routed or passthrough")
		},
		Entry("a routed POST answered 404", http.MethodPost, openai.Path, chatBody("1", "t", "small", false),
			http.StatusNotFound, "404 page not found", "404 page not found"),
		Entry("a passthrough GET answered 404", http.MethodGet, "/v1/models", nil,
			http.StatusNotFound, "404 page not found", "404 page not found"),
		Entry("a routed POST answered 500 in many lines", http.MethodPost, anthropic.Path, messagesBody("small", false),
			http.StatusInternalServerError, "{\"error\":\n  {\"message\": \"boom\"}}", `{"error": {"message": "boom"}}`),
		Entry("a passthrough POST answered 429, its body cut at 200 bytes", http.MethodPost, anthropic.Path+"/count_tokens", nil,
			http.StatusTooManyRequests, strings.Repeat("slow down\n", 30), strings.TrimSpace(strings.Repeat("slow down ", 20))),
	)
})

var _ = Describe("a tool result over max_bytes", func() {
	It("passes through, logged with its size, the limit and the tool, and counted", func() {
		seen := make(chan []byte, 1)
		_, front, log, ev := upstreamFront("", func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			seen <- body
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`)
		})
		big := strings.Repeat("x", 200<<10)
		resp, _ := httpspec.Post(front+openai.Path, chatBody("1", "logs__query", big, false))
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(string(<-seen)).To(ContainSubstring(big), "sent raw")
		Expect(log.Lines()).To(ContainElement("gateway: output 0 (logs__query): passthrough: 204800 bytes > max_bytes 65536"))
		_, limited := ev.snapshot()
		Expect(limited).To(Equal([]string{gateway.LimitMaxBytes}))
	})

	It("is counted once per result, and results under min_bytes are not counted", func() {
		_, front, _, ev := upstreamFront("", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`)
		})
		httpspec.Post(front+openai.Path, chatBody("1", "t", "small", false))
		httpspec.Post(front+openai.Path, chatBody("2", "t", strings.Repeat("y", 65537), false))
		_, limited := ev.snapshot()
		Expect(limited).To(Equal([]string{gateway.LimitMaxBytes}))
	})
})

var _ = Describe("Pipe.Unsave", func() {
	It("takes the bytes an expansion gave back off the bytes saved", func() {
		p := gatewaytest.NewPipe(gateway.Config{}, gateway.Simple{Words: 3})
		res, err := p.Process(ctx, []gateway.ToolOutput{{Tool: "t", Content: gatewaytest.Words(1000)}}, "")
		Expect(err).NotTo(HaveOccurred())
		saved := int64(res[0].Saved)
		Expect(saved).To(BeNumerically(">", 1000))
		Expect(p.Metrics().BytesSaved).To(Equal(saved))
		p.Unsave(1000)
		Expect(p.Metrics().BytesSaved).To(Equal(saved - 1000))
		p.Unsave(0)
		p.Unsave(-5)
		Expect(p.Metrics().BytesSaved).To(Equal(saved-1000), "n <= 0 does nothing")
		p.Unsave(int(saved))
		Expect(p.Metrics().BytesSaved).To(Equal(int64(-1000)), "net, even below zero")
	})
})

// FuzzNormalizeUpstream checks, for any URL that parses: the given URL is
// not modified, normalizing again changes nothing, and the path ends in
// neither "/" nor "/v1".
func FuzzNormalizeUpstream(f *testing.F) {
	for _, s := range []string{"http://h", "http://h/", "http://h/v1", "http://h/v1/", "http://h//v1//", "http://h/v1/v1",
		"http://u:p@h/openai/v1?x=1#f", "http://h/v1%2F", "http://h/a%2Fv1", "http://h/v1%2f/v1", "/v1", "http://h/%76%31"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		before := u.String()
		n := proxy.NormalizeUpstream(u, openai.Path)
		if u.String() != before {
			t.Fatalf("modified the given URL: %q → %q", before, u)
		}
		if again := proxy.NormalizeUpstream(n, openai.Path); again.String() != n.String() {
			t.Fatalf("not idempotent: %q → %q → %q", raw, n, again)
		}
		if strings.HasSuffix(n.Path, "/") || strings.HasSuffix(n.Path, "/v1") {
			t.Fatalf("%q → path %q", raw, n.Path)
		}
	})
}
