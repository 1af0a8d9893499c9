package proxy_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/proxy"
)

// Misbehaving upstreams: one that redirects, never answers or stalls
// mid-body, and passthrough requests held by one. Each is bounded, and
// nothing the client sent reaches a host the operator did not configure.

// recorder is a server that records the requests it gets: the host a
// redirect must not reach.
type recorder struct {
	mu   sync.Mutex
	seen []string // method path x-api-key authorization
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	rec.mu.Lock()
	rec.seen = append(rec.seen, strings.Join([]string{r.Method, r.URL.Path, r.Header.Get("X-Api-Key"), r.Header.Get("Authorization")}, " "))
	rec.mu.Unlock()
	_, _ = io.WriteString(w, `{"stolen":true}`)
}

func (rec *recorder) requests() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.seen...)
}

var _ = Describe("an upstream that redirects", func() {
	// The gateway forwards the client's credentials (x-api-key,
	// Authorization) and the whole conversation: following a redirect would
	// send them to a host the operator did not configure (Go's client drops
	// Authorization on a redirect to another host, not x-api-key, and
	// re-sends the body on 307 and 308). A reverse proxy relays the 3xx.
	DescribeTable("is relayed to the client, never followed",
		func(code int, path string, body []byte) {
			elsewhere := &recorder{}
			other := httptest.NewServer(elsewhere)
			DeferCleanup(other.Close)
			base, ev := proxyFront(proxy.Limits{}, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.URL+r.URL.Path, code)
			})
			method := http.MethodPost
			if body == nil {
				method = http.MethodGet
			}
			req, err := http.NewRequest(method, base+path, strings.NewReader(string(body)))
			Expect(err).NotTo(HaveOccurred())
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Api-Key", "sk-secret")
			req.Header.Set("Authorization", "Bearer sk-secret")
			noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			resp, err := noFollow.Do(req)
			Expect(err).NotTo(HaveOccurred())
			defer resp.Body.Close()
			Expect(resp.StatusCode).To(Equal(code))
			Expect(resp.Header.Get("Location")).To(Equal(other.URL + path))
			Expect(elsewhere.requests()).To(BeEmpty())
			outcome := "openai/upstream_error" // a route relays any status but 200 as the upstream's error
			if body == nil {
				outcome = "passthrough/ok"
			}
			Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(Equal([]string{outcome}))
		},
		Entry("307 on a buffered request", http.StatusTemporaryRedirect, "/v1/chat/completions", chatBody("1", "t", "small", false)),
		Entry("308 on a relayed stream", http.StatusPermanentRedirect, "/v1/chat/completions", chatBody("1", "t", "small", true)),
		Entry("301 on a stream that offers expand_context", http.StatusMovedPermanently, "/v1/chat/completions",
			chatBody("1", "t", strings.Repeat("line of a large tool output\n", 200), true)),
		Entry("302 on a passthrough path (counted ok: a passthrough status under 400 is)", http.StatusFound, "/v1/models", nil),
	)
})

// patient is a client that gives up long after any bound of these specs,
// so that a missing bound fails a spec instead of hanging it.
var patient = &http.Client{Timeout: 20 * time.Second}

// silent is an upstream that accepts a request and answers nothing until
// the request is canceled (or the spec ends).
func silent(w http.ResponseWriter, r *http.Request) {
	<-r.Context().Done()
}

var _ = Describe("a passthrough upstream that never answers", func() {
	It("is given up after upstream_timeout: 504, counted upstream_error", func() {
		base, ev := proxyFront(proxy.Limits{UpstreamTimeout: 300 * time.Millisecond}, silent)
		start := time.Now()
		resp, err := patient.Get(base + "/v1/models")
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusGatewayTimeout))
		Expect(time.Since(start)).To(BeNumerically("<", 10*time.Second))
		// In the API's error shape, as every answer the gateway writes
		// itself, so that an SDK raises its usual error with the reason.
		Expect(resp.Header.Get("Content-Type")).To(Equal("application/json"))
		Expect(io.ReadAll(resp.Body)).To(MatchJSON(`{"error":{"message":"toolout gateway: upstream timed out: context deadline exceeded","type":"server_error","code":null}}`))
		Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(Equal([]string{"passthrough/upstream_error"}))
	})

	It("is answered 502 in the API's error shape when the upstream hangs up without an answer", func() {
		base, ev := proxyFront(proxy.Limits{}, func(w http.ResponseWriter, _ *http.Request) {
			if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
				_ = c.Close()
			}
		})
		resp, err := patient.Get(base + "/v1/models")
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusBadGateway))
		Expect(resp.Header.Get("Content-Type")).To(Equal("application/json"))
		Expect(io.ReadAll(resp.Body)).To(ContainSubstring(`{"error":{"message":"toolout gateway: upstream failed: EOF"`))
		Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(Equal([]string{"passthrough/upstream_error"}))
	})

	It("ends a body that stalls after its headers at upstream_timeout, dropping the client's connection", func() {
		base, ev := proxyFront(proxy.Limits{UpstreamTimeout: 300 * time.Millisecond}, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100")
			_, _ = io.WriteString(w, "0123456789")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		})
		// The client's connection ends without a whole answer (before or
		// after the headers, as the proxy had flushed them or not): an
		// error, never a short body that passes for the whole.
		resp, err := patient.Get(base + "/v1/files/f/content")
		if err == nil {
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		Expect(err).To(HaveOccurred())
		Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(Equal([]string{"passthrough/upstream_error"}))
	})
})

var _ = Describe("a passthrough request", func() {
	It("reaches the upstream with the upstream's Host, as a route's request does", func() {
		hosts := make(chan string, 2)
		upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hosts <- r.Host
			_, _ = io.WriteString(w, `{"data":[]}`)
		}))
		DeferCleanup(upstream.Close)
		u, _ := url.Parse(upstream.URL)
		srv := httptest.NewServer(proxy.New(newGateway(true), u, upstream.Client()))
		DeferCleanup(srv.Close)
		resp, err := http.Get(srv.URL + "/v1/models")
		Expect(err).NotTo(HaveOccurred())
		resp.Body.Close()
		Expect(<-hosts).To(Equal(u.Host))
	})
})

var _ = Describe("passthrough requests in flight", func() {
	It("take request slots as routes do: with none free, 503 with Retry-After", func() {
		entered := make(chan struct{}, 1)
		base, ev := proxyFront(proxy.Limits{MaxConcurrent: 1}, func(w http.ResponseWriter, r *http.Request) {
			entered <- struct{}{}
			<-r.Context().Done()
		})
		held, cancel := context.WithCancel(context.Background())
		DeferCleanup(cancel) // runs before the servers close
		go func() {
			defer GinkgoRecover()
			req, err := http.NewRequestWithContext(held, http.MethodGet, base+"/v1/files/f/content", nil)
			Expect(err).NotTo(HaveOccurred())
			if resp, err := patient.Do(req); err == nil { // held until the spec ends
				resp.Body.Close()
			}
		}()
		Eventually(entered, "20s").Should(Receive())
		for _, path := range []string{"/v1/models", "/v1/chat/completions"} {
			resp, err := patient.Post(base+path, "application/json", strings.NewReader(string(chatBody("2", "t", "small", false))))
			Expect(err).NotTo(HaveOccurred())
			resp.Body.Close()
			Expect(resp.StatusCode).To(Equal(http.StatusServiceUnavailable))
			Expect(resp.Header.Get("Retry-After")).To(Equal("1"))
		}
		Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(Equal([]string{"passthrough/overloaded", "openai/overloaded"}))
	})
})

var _ = Describe("a passthrough body the upstream cuts", func() {
	It("is logged through Logf, as every other line of the proxy", func() {
		_, front, log, _ := upstreamFront("", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", "1000")
			_, _ = io.WriteString(w, strings.Repeat("m", 10))
			w.(http.Flusher).Flush()
			if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
				_ = c.Close()
			}
		})
		if resp, err := patient.Get(front + "/v1/files/f/content"); err == nil {
			_, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		Eventually(log.Lines).Should(ContainElement(
			"gateway: passthrough: httputil: ReverseProxy read error during body copy: unexpected EOF"))
	})
})
