package prom_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/prom"
	"github.com/toolout/toolout/internal/junit"
)

func TestProm(t *testing.T) { junit.RunSpecs(t, "prom", "core-gateway-prom") }

// scrape GETs /metrics from m's handler and returns the body, after
// checking the status and the content type.
func scrape(m *prom.Metrics) string {
	GinkgoHelper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	Expect(rec.Code).To(Equal(http.StatusOK))
	Expect(rec.Header().Get("Content-Type")).To(HavePrefix("text/plain; version=0.0.4"))
	body, err := io.ReadAll(rec.Body)
	Expect(err).NotTo(HaveOccurred())
	return string(body)
}

// families parses a scrape with the Prometheus text parser.
func families(text string) map[string]*dto.MetricFamily {
	GinkgoHelper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	Expect(err).NotTo(HaveOccurred(), text)
	return fams
}

// sample returns the value of the series name{labels} (a counter, a gauge,
// or a histogram's count), and whether it is there.
func sample(fams map[string]*dto.MetricFamily, name string, labels ...string) (float64, bool) {
	fam := fams[name]
	if fam == nil {
		return 0, false
	}
	for _, m := range fam.GetMetric() {
		if !hasLabels(m, labels) {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

// hasLabels reports whether m has exactly the label pairs kv (k1, v1, ...).
func hasLabels(m *dto.Metric, kv []string) bool {
	if len(m.GetLabel())*2 != len(kv) {
		return false
	}
	for i := 0; i < len(kv); i += 2 {
		found := false
		for _, l := range m.GetLabel() {
			if l.GetName() == kv[i] && l.GetValue() == kv[i+1] {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// value is sample that fails when the series is missing.
func value(fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	GinkgoHelper()
	v, ok := sample(fams, name, labels...)
	Expect(ok).To(BeTrue(), "no series %s%v", name, labels)
	return v
}

// fakeStore is a gateway.Store whose Stats answers with stats; only Stats
// may be called.
type fakeStore struct {
	gateway.Store
	stats func(ctx context.Context) (gateway.StoreStats, error)
	calls atomic.Int64
}

var _ gateway.Store = (*fakeStore)(nil)

func (s *fakeStore) Stats(ctx context.Context) (gateway.StoreStats, error) {
	s.calls.Add(1)
	return s.stats(ctx)
}
