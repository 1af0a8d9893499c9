package prom_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/prom"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// BenchmarkEvents is the cost the proxy pays per request: one Request and
// one Upstream event, from all Ps at once.
func BenchmarkEvents(b *testing.B) {
	m, err := prom.New(nil, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Request("openai", proxy.OutcomeOK)
			m.Upstream("openai", 200, 700*time.Millisecond)
		}
	})
}

// BenchmarkScrape is one GET /metrics with every metric present.
func BenchmarkScrape(b *testing.B) {
	store := &fakeStore{stats: func(context.Context) (gateway.StoreStats, error) {
		return gateway.StoreStats{Originals: 10, Compressed: 20, Bytes: 1 << 20}, nil
	}}
	m, err := prom.New(nil, func() gateway.Metrics { return gateway.Metrics{CompressionsOK: 1} }, store)
	if err != nil {
		b.Fatal(err)
	}
	m.Upstream("openai", 200, time.Second)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		n, _ := io.Copy(io.Discard, rec.Body)
		b.SetBytes(n)
	}
}
