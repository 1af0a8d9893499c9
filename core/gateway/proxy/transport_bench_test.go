package proxy_test

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// BenchmarkConcurrent32 is the cost per request of small chat-completions
// requests sent 32 at a time to a handler in this process (no client
// connection) that forwards them to a local upstream over TCP: the
// gateway's proxy on http.DefaultTransport (2 idle connections per host)
// and on proxy.Transport (its idle pool sized from max_concurrent_requests,
// 64 by default), and a plain httputil.ReverseProxy on proxy.Transport
// (the floor). Compare the variants within one run: ns/op is wall time
// per request over the 32 workers, so it falls as throughput rises;
// conns/op is the upstream connections opened per request.
func BenchmarkConcurrent32(b *testing.B) {
	var conns atomic.Int64 // connections the upstream accepted
	up := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, smallCompletion)
	}))
	up.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	up.Start()
	defer up.Close()
	u, _ := url.Parse(up.URL)
	body := chatBody("a", "bash", "ok", false)
	run := func(b *testing.B, h http.Handler) {
		b.ReportAllocs()
		conns.Store(0)
		b.SetParallelism(max(1, 32/runtime.GOMAXPROCS(0)))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				req := httptest.NewRequest(http.MethodPost, openai.Path, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Errorf("status %d: %s", rec.Code, rec.Body)
					return
				}
			}
		})
		b.ReportMetric(float64(conns.Load())/float64(b.N), "conns/op")
	}
	viaProxy := func(t http.RoundTripper) http.Handler {
		return proxy.New(newGatewayB(b), u, &http.Client{Transport: t})
	}
	b.Run("transport=default", func(b *testing.B) {
		t := http.DefaultTransport.(*http.Transport).Clone()
		defer t.CloseIdleConnections()
		run(b, viaProxy(t))
	})
	b.Run("transport=pool", func(b *testing.B) {
		t := proxy.Transport(proxy.Limits{})
		defer t.CloseIdleConnections()
		run(b, viaProxy(t))
	})
	b.Run("floor", func(b *testing.B) {
		t := proxy.Transport(proxy.Limits{})
		defer t.CloseIdleConnections()
		floor := httputil.NewSingleHostReverseProxy(u)
		floor.Transport = t
		run(b, floor)
	})
}

// newGatewayB is newGateway's gateway (simple strategy, a memory store)
// for a benchmark, on the wall clock.
func newGatewayB(b *testing.B) *gateway.Gateway {
	p, err := gateway.NewPipe(gateway.Options{Compressor: gateway.Simple{Words: 8}, Store: memstore.New(gateway.StoreOptions{})})
	if err != nil {
		b.Fatal(err)
	}
	return &gateway.Gateway{Pipe: p, Wire: openai.Wire{}}
}
