package prom_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/prom"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// sizedStore stands for a gateway.Store; only Stats is called.
type sizedStore struct{ gateway.Store }

func (sizedStore) Stats(context.Context) (gateway.StoreStats, error) {
	return gateway.StoreStats{Originals: 2, Compressed: 3, Bytes: 8192}, nil
}

func Example() {
	pipe := func() gateway.Metrics { // usually (*gateway.Pipe).Metrics
		return gateway.Metrics{CacheHits: 1, CacheMisses: 2, CompressionsOK: 2, BytesSaved: 5000}
	}
	m, err := prom.New(prometheus.NewRegistry(), pipe, sizedStore{})
	if err != nil {
		fmt.Println(err)
		return
	}

	// The proxy reports its events to m, a proxy.Observer.
	m.Request("openai", proxy.OutcomeOK)
	m.Upstream("openai", 200, 1200*time.Millisecond)
	m.Upstream("anthropic", 0, 30*time.Second)
	m.Expansion(gateway.AnswerNotAvailable)
	m.Limited(proxy.LimitBodyBytes)

	// GET /metrics.
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/metrics")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		fmt.Println(err)
		return
	}

	// Print a few of the series (all of them are in body).
	show := []string{
		`toolout_gateway_requests_total{outcome="ok",route="openai"}`,
		"toolout_gateway_upstream_requests_total{",
		`toolout_gateway_upstream_duration_seconds_bucket{route="openai",le="2.5"}`,
		`toolout_gateway_expansions_total{answer="not_available"}`,
		`toolout_gateway_limited_total{limit="body_bytes"}`,
		"toolout_gateway_compressions_total{",
		"toolout_gateway_bytes_saved_total ",
		"toolout_gateway_store_",
	}
	for line := range strings.Lines(string(body)) {
		for _, prefix := range show {
			if strings.HasPrefix(line, prefix) {
				fmt.Print(line)
				break
			}
		}
	}
	// Output:
	// toolout_gateway_bytes_saved_total 5000
	// toolout_gateway_compressions_total{result="failed"} 0
	// toolout_gateway_compressions_total{result="ok"} 2
	// toolout_gateway_expansions_total{answer="not_available"} 1
	// toolout_gateway_limited_total{limit="body_bytes"} 1
	// toolout_gateway_requests_total{outcome="ok",route="openai"} 1
	// toolout_gateway_store_bytes 8192
	// toolout_gateway_store_entries{kind="compressed"} 3
	// toolout_gateway_store_entries{kind="original"} 2
	// toolout_gateway_store_errors_total 0
	// toolout_gateway_store_failures_total 0
	// toolout_gateway_upstream_duration_seconds_bucket{route="openai",le="2.5"} 1
	// toolout_gateway_upstream_requests_total{route="anthropic",status="error"} 1
	// toolout_gateway_upstream_requests_total{route="openai",status="200"} 1
}
