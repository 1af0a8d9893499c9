package proxy_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// A client that stops reading must not hold a request slot, a goroutine and
// an upstream connection for ever: the proxy gives each write to the client
// ClientWriteTimeout, as nginx's send_timeout does, then drops it.
var _ = Describe("a client that stops reading", func() {
	// stall sends a request on a raw connection and never reads the answer;
	// the connection closes when the spec ends (before the servers do, since
	// cleanups run last-registered first).
	stall := func(base, method, path string, body []byte) {
		u, err := url.Parse(base)
		Expect(err).NotTo(HaveOccurred())
		c, err := net.Dial("tcp", u.Host)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(c.Close)
		// A small receive buffer: the proxy's writes block after a few
		// hundred KiB instead of the megabytes Linux would buffer.
		Expect(c.(*net.TCPConn).SetReadBuffer(4 << 10)).To(Succeed())
		_, err = fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			method, path, u.Host, len(body), body)
		Expect(err).NotTo(HaveOccurred())
	}
	// big answers the first request (request 1, or any GET) with n bytes:
	// a JSON completion or text; any other request with a small completion.
	big := func(n int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			if r.Method == http.MethodGet {
				_, _ = w.Write([]byte(strings.Repeat("m", n)))
				return
			}
			if !strings.Contains(string(body), "request 1:") {
				n = 10
			}
			_, _ = fmt.Fprintf(w, `{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"%s"},"finish_reason":"stop"}]}`, strings.Repeat("y", n))
		}
	}
	// endless writes SSE events until the proxy stops reading them, or
	// answers a request that does not stream.
	endless := func(w http.ResponseWriter, r *http.Request) {
		if body, _ := io.ReadAll(r.Body); !strings.Contains(string(body), `"stream":true`) {
			big(0)(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		ev := fmt.Sprintf("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%q}}]}\n\n", strings.Repeat("x", 32<<10))
		for r.Context().Err() == nil {
			if _, err := w.Write([]byte(ev)); err != nil {
				return
			}
		}
	}
	limits := proxy.Limits{MaxConcurrent: 1, ClientWriteTimeout: time.Second}
	post := func(base string, body []byte) int {
		resp, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(string(body)))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		_, err = bufio.NewReader(resp.Body).WriteTo(discard{})
		Expect(err).NotTo(HaveOccurred())
		return resp.StatusCode
	}
	// served asserts the stalled request ends as outcome and frees its
	// slot: a second request is then answered.
	served := func(base string, ev *events, outcome string) {
		Eventually(func() []string { r, _ := ev.snapshot(); return r }, "20s", "10ms").Should(ContainElement(outcome))
		Expect(post(base, chatBody("2", "t", "small", false))).To(Equal(http.StatusOK))
	}

	It("drops a relayed stream's client and frees its slot", func() {
		base, ev := proxyFront(limits, endless)
		stall(base, "POST", "/v1/chat/completions", chatBody("1", "t", "small", true))
		served(base, ev, "openai/canceled")
	})

	It("drops the client of a buffered answer larger than the socket buffers", func() {
		base, ev := proxyFront(limits, big(4<<20))
		stall(base, "POST", "/v1/chat/completions", chatBody("1", "t", "small", false))
		served(base, ev, "openai/canceled")
	})

	It("drops a passthrough client too", func() {
		base, ev := proxyFront(limits, big(4<<20))
		stall(base, "GET", "/v1/files/f/content", nil)
		served(base, ev, "passthrough/canceled")
	})

	It("times each write, not the whole answer: a stream that keeps flowing outlasts the timeout", func() {
		base, ev := proxyFront(limits, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := range 15 { // 1.5 s in all, a write every 100 ms
				_, _ = fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%d \"}}]}\n\n", i)
				w.(http.Flusher).Flush()
				time.Sleep(100 * time.Millisecond) // the pace of a model's tokens, not a synchronisation
			}
			_, _ = io.WriteString(w, "data: [DONE]\n\n")
		})
		resp, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(string(chatBody("1", "t", "small", true))))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(HaveSuffix("\"14 \"}}]}\n\ndata: [DONE]\n\n"))
		Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(Equal([]string{"openai/ok"}))
	})
})

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

var _ = Describe("a passthrough answer the upstream cuts", func() {
	It("is counted upstream_error, and the client's connection is dropped", func() {
		base, ev := proxyFront(proxy.Limits{}, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", "1000")
			_, _ = io.WriteString(w, strings.Repeat("m", 10))
			w.(http.Flusher).Flush()
			c, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = c.Close()
			}
		})
		// The cut comes before the proxy flushed anything: the client sees
		// its connection end without an answer.
		_, err := http.Get(base + "/v1/files/f/content")
		Expect(err).To(MatchError(ContainSubstring("EOF")))
		Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(Equal([]string{"passthrough/upstream_error"}))
	})
})
