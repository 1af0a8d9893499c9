package proxy_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/internal/httpspec"
)

var _ = Describe("Transport", func() {
	// rounds of n requests, all n in the upstream at once (a barrier, no
	// sleeps), through a proxy on transport t; it returns the connections
	// the upstream accepted.
	const n, rounds = 8, 4
	run := func(t http.RoundTripper) int64 {
		in, out := make(chan struct{}), make(chan struct{})
		var conns atomic.Int64
		up := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			in <- struct{}{}
			<-out
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`)
		}))
		up.Config.ConnState = func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				conns.Add(1)
			}
		}
		up.Start()
		DeferCleanup(up.Close)
		u, _ := url.Parse(up.URL)
		front := httptest.NewServer(proxy.New(newGateway(false), u, &http.Client{Transport: t}))
		DeferCleanup(front.Close)
		for range rounds {
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					defer GinkgoRecover()
					// Routes read the upstream's answer to its end before
					// answering: its connection is back in the pool when
					// the client has the answer.
					resp, _ := httpspec.Post(front.URL+openai.Path, chatBody(string(rune('a'+i)), "bash", "ok", false))
					Expect(resp.StatusCode).To(Equal(http.StatusOK))
				})
			}
			for range n {
				<-in
			}
			for range n {
				out <- struct{}{}
			}
			wg.Wait()
		}
		return conns.Load()
	}

	It("reuses its connections to an upstream under concurrent requests: at most one per request slot in use", func() {
		Expect(run(proxy.Transport(proxy.Limits{}))).To(BeNumerically("<=", n))
	})

	It("where http.DefaultTransport's 2 idle connections per host open new ones every round", func() {
		Expect(run(http.DefaultTransport.(*http.Transport).Clone())).To(BeNumerically(">", n*(rounds-1)))
	})

	It("sizes its idle pool from max_concurrent_requests, at least MinIdleConns, and keeps http.DefaultTransport's timeouts", func() {
		def := http.DefaultTransport.(*http.Transport)
		t := proxy.Transport(proxy.Limits{MaxConcurrent: 32})
		Expect([]int{t.MaxIdleConnsPerHost, t.MaxIdleConns}).To(Equal([]int{32, 100}))
		t = proxy.Transport(proxy.Limits{MaxConcurrent: 200})
		Expect([]int{t.MaxIdleConnsPerHost, t.MaxIdleConns}).To(Equal([]int{200, 400}))
		Expect(proxy.Transport(proxy.Limits{MaxConcurrent: 1}).MaxIdleConnsPerHost).To(Equal(proxy.MinIdleConns))
		Expect(proxy.Transport(proxy.Limits{}).MaxIdleConnsPerHost).To(Equal(proxy.DefaultMaxRequests))
		Expect(t.TLSHandshakeTimeout).To(Equal(def.TLSHandshakeTimeout))
		Expect(t.IdleConnTimeout).To(Equal(def.IdleConnTimeout))
		Expect(t.ExpectContinueTimeout).To(Equal(def.ExpectContinueTimeout))
		Expect(t.ResponseHeaderTimeout).To(Equal(def.ResponseHeaderTimeout))
		Expect(t.ForceAttemptHTTP2).To(Equal(def.ForceAttemptHTTP2))
		Expect(t.DialContext).NotTo(BeNil())
	})
})
