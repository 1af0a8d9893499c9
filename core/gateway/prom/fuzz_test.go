package prom_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/prom"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// FuzzObserver sends events with arbitrary label values and checks the
// properties of the scrape: it parses, every event is counted exactly once,
// and a label value is the one given or "other" (when it is empty, over 64
// bytes or not UTF-8), so no input can add series without bound. There are
// no scenario files for metrics; the seeds are the gateway's own values and
// the out-of-bounds shapes.
func FuzzObserver(f *testing.F) {
	f.Add("openai", proxy.OutcomeOK, gateway.AnswerOriginal, proxy.LimitBodyBytes, 200, int64(1200))
	f.Add("anthropic", proxy.OutcomeCanceled, gateway.AnswerNotAvailable, proxy.LimitConcurrency, 0, int64(-5))
	f.Add("passthrough", proxy.OutcomeFailed, gateway.AnswerRepeated, gateway.LimitWork, 599, int64(200_000))
	f.Add("", "", "", "", 600, int64(0))
	f.Add("\xff", "a\x00b", `"}`+"\n", strings.Repeat("l", 65), -1, int64(1<<62))
	f.Add("other", "route=\"x\"", "é", "\\", 100, int64(50))
	f.Fuzz(func(t *testing.T, route, outcome, answer, limit string, status int, ms int64) {
		m, err := prom.New(nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		const n = 3
		for range n {
			m.Request(route, outcome)
			m.Upstream(route, status, time.Duration(ms)*time.Millisecond)
			m.Overhead(route, time.Duration(ms)*time.Microsecond)
			m.Expansion(answer)
			m.Limited(limit)
		}
		fams := parse(t, m)
		want := map[string][]string{
			"requests_total":            {"route", bounded(route), "outcome", bounded(outcome)},
			"upstream_requests_total":   {"route", bounded(route), "status", statusOf(status)},
			"upstream_duration_seconds": {"route", bounded(route)},
			"overhead_seconds":          {"route", bounded(route)},
			"expansions_total":          {"answer", bounded(answer)},
			"limited_total":             {"limit", bounded(limit)},
		}
		for name, labels := range want {
			if got := total(fams, p+name); got != n {
				t.Errorf("%s: total %v, want %d", name, got, n)
			}
			if v, ok := sample(fams, p+name, labels...); !ok || v != n {
				t.Errorf("%s%v = %v (present %v), want %d", name, labels, v, ok, n)
			}
		}
	})
}

// bounded is the label value expected for v in a fresh Metrics.
func bounded(v string) string {
	if v == "" || len(v) > 64 || !utf8.ValidString(v) {
		return prom.Other
	}
	return v
}

func statusOf(status int) string {
	switch {
	case status == 0:
		return "error"
	case status >= 100 && status <= 599:
		return strconv.Itoa(status)
	}
	return prom.Other
}

// parse scrapes m and parses the text with the Prometheus parser.
func parse(t *testing.T, m *prom.Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	if rec.Code != http.StatusOK {
		t.Fatalf("scrape: status %d: %s", rec.Code, body)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("scrape does not parse: %v\n%s", err, body)
	}
	return fams
}
