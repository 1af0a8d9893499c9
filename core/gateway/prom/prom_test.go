package prom_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/prom"
	"github.com/toolout/toolout/core/gateway/proxy"
)

const p = "toolout_gateway_"

var (
	routes   = []string{"openai", "anthropic", "responses", "passthrough"}
	outcomes = proxy.AllOutcomes()
	answers  = gateway.AllAnswers()
	limits   = proxy.AllLimits()
)

func okStore(st gateway.StoreStats) *fakeStore {
	return &fakeStore{stats: func(context.Context) (gateway.StoreStats, error) { return st, nil }}
}

func newMetrics(pipe func() gateway.Metrics, store gateway.Store, opts ...prom.Option) *prom.Metrics {
	GinkgoHelper()
	m, err := prom.New(prometheus.NewRegistry(), pipe, store, opts...)
	Expect(err).NotTo(HaveOccurred())
	return m
}

func zeroPipe() gateway.Metrics { return gateway.Metrics{} }

var _ = Describe("New", func() {
	It("exposes every metric family with its type, parseable by the Prometheus text parser", func() {
		fams := families(scrape(newMetrics(zeroPipe, okStore(gateway.StoreStats{}))))
		types := map[string]dto.MetricType{}
		for name, f := range fams {
			types[name] = f.GetType()
			Expect(f.GetHelp()).NotTo(BeEmpty(), name)
		}
		Expect(types).To(Equal(map[string]dto.MetricType{
			p + "requests_total":            dto.MetricType_COUNTER,
			p + "upstream_duration_seconds": dto.MetricType_HISTOGRAM,
			p + "overhead_seconds":          dto.MetricType_HISTOGRAM,
			p + "expansions_total":          dto.MetricType_COUNTER,
			p + "limited_total":             dto.MetricType_COUNTER,
			p + "hidden_history_total":      dto.MetricType_COUNTER,
			p + "captures_total":            dto.MetricType_COUNTER,
			p + "compressions_total":        dto.MetricType_COUNTER,
			p + "cache_total":               dto.MetricType_COUNTER,
			p + "bytes_saved_total":         dto.MetricType_COUNTER,
			p + "store_failures_total":      dto.MetricType_COUNTER,
			p + "store_entries":             dto.MetricType_GAUGE,
			p + "store_bytes":               dto.MetricType_GAUGE,
			p + "store_errors_total":        dto.MetricType_COUNTER,
		}), "upstream_requests_total has no series before the first call")
	})

	It("pre-initialises every route × outcome, route histogram, answer and limit to 0", func() {
		fams := families(scrape(newMetrics(nil, nil)))
		Expect(fams[p+"requests_total"].GetMetric()).To(HaveLen(len(routes) * len(outcomes)))
		for _, r := range routes {
			for _, o := range outcomes {
				Expect(value(fams, p+"requests_total", "route", r, "outcome", o)).To(BeZero())
			}
			Expect(value(fams, p+"upstream_duration_seconds", "route", r)).To(BeZero())
			Expect(value(fams, p+"overhead_seconds", "route", r)).To(BeZero())
		}
		Expect(fams[p+"expansions_total"].GetMetric()).To(HaveLen(len(answers)))
		for _, a := range answers {
			Expect(value(fams, p+"expansions_total", "answer", a)).To(BeZero())
		}
		Expect(fams[p+"limited_total"].GetMetric()).To(HaveLen(len(limits)))
		for _, l := range limits {
			Expect(value(fams, p+"limited_total", "limit", l)).To(BeZero())
		}
		Expect(value(fams, p+"hidden_history_total", "member", "previous_response_id")).To(BeZero())
		Expect(value(fams, p+"hidden_history_total", "member", "conversation")).To(BeZero())
		for _, o := range prom.CaptureOutcomes {
			Expect(value(fams, p+"captures_total", "outcome", o)).To(BeZero())
		}
	})

	It("leaves out the pipe and store metrics when pipe and store are nil", func() {
		fams := families(scrape(newMetrics(nil, nil)))
		for _, name := range []string{"compressions_total", "cache_total", "bytes_saved_total",
			"store_entries", "store_bytes", "store_errors_total"} {
			Expect(fams).NotTo(HaveKey(p + name))
		}
	})

	It("refuses a second registration in the same registry and leaves the first working", func() {
		reg := prometheus.NewRegistry()
		first, err := prom.New(reg, zeroPipe, okStore(gateway.StoreStats{}))
		Expect(err).NotTo(HaveOccurred())
		_, err = prom.New(reg, zeroPipe, okStore(gateway.StoreStats{}))
		Expect(err).To(MatchError(ContainSubstring("prom: register: ")))
		first.Request("openai", proxy.OutcomeOK)
		Expect(value(families(scrape(first)), p+"requests_total", "route", "openai", "outcome", "ok")).To(Equal(1.0))
	})

	It("unregisters what it registered when a later metric collides", func() {
		reg := prometheus.NewRegistry()
		Expect(reg.Register(prometheus.NewGauge(prometheus.GaugeOpts{Name: p + "store_bytes", Help: "taken"}))).To(Succeed())
		_, err := prom.New(reg, zeroPipe, okStore(gateway.StoreStats{}))
		Expect(err).To(HaveOccurred())
		fams, err := reg.Gather()
		Expect(err).NotTo(HaveOccurred())
		Expect(fams).To(HaveLen(1), "only the colliding gauge stays")
		_, err = prom.New(reg, zeroPipe, nil)
		Expect(err).NotTo(HaveOccurred(), "the names New took back are free again")
	})

	It("makes a fresh registry for nil, and registries of two gateways are independent", func() {
		a, err := prom.New(nil, nil, nil)
		Expect(err).NotTo(HaveOccurred())
		var typedNil *prometheus.Registry
		b, err := prom.New(typedNil, nil, nil)
		Expect(err).NotTo(HaveOccurred())
		a.Limited(gateway.LimitWork)
		Expect(value(families(scrape(a)), p+"limited_total", "limit", "work")).To(Equal(1.0))
		Expect(value(families(scrape(b)), p+"limited_total", "limit", "work")).To(BeZero())
	})

	It("serves the caller's own collectors registered in the same registry", func() {
		reg := prometheus.NewRegistry()
		m, err := prom.New(reg, nil, nil)
		Expect(err).NotTo(HaveOccurred())
		g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "extra", Help: "an extra gauge"})
		g.Set(3)
		reg.MustRegister(g)
		Expect(value(families(scrape(m)), "extra")).To(Equal(3.0))
	})
})

var _ = Describe("Metrics as a proxy.Observer", func() {
	It("counts requests that continue history the provider holds, by member", func() {
		m := newMetrics(nil, nil)
		var o proxy.Observer = m
		h, ok := o.(proxy.HistoryObserver)
		Expect(ok).To(BeTrue())
		h.HiddenHistory("responses", "previous_response_id")
		h.HiddenHistory("responses", "previous_response_id")
		h.HiddenHistory("responses", "conversation")
		fams := families(scrape(m))
		Expect(value(fams, p+"hidden_history_total", "member", "previous_response_id")).To(Equal(2.0))
		Expect(value(fams, p+"hidden_history_total", "member", "conversation")).To(Equal(1.0))
	})

	It("counts requests by route and outcome", func() {
		m := newMetrics(nil, nil)
		m.Request("openai", proxy.OutcomeOK)
		m.Request("openai", proxy.OutcomeOK)
		m.Request("anthropic", proxy.OutcomeTooLarge)
		m.Request("passthrough", proxy.OutcomeUpstreamError)
		fams := families(scrape(m))
		Expect(value(fams, p+"requests_total", "route", "openai", "outcome", "ok")).To(Equal(2.0))
		Expect(value(fams, p+"requests_total", "route", "anthropic", "outcome", "too_large")).To(Equal(1.0))
		Expect(value(fams, p+"requests_total", "route", "passthrough", "outcome", "upstream_error")).To(Equal(1.0))
		Expect(value(fams, p+"requests_total", "route", "anthropic", "outcome", "ok")).To(BeZero())
	})

	It("counts upstream calls by status, with 0 as error, and observes their durations in the LLM buckets", func() {
		m := newMetrics(nil, nil)
		m.Upstream("openai", 200, 30*time.Millisecond)
		m.Upstream("openai", 200, 3*time.Second)
		m.Upstream("openai", 0, 200*time.Second)
		m.Upstream("anthropic", 429, time.Second)
		text := scrape(m)
		fams := families(text)
		Expect(value(fams, p+"upstream_requests_total", "route", "openai", "status", "200")).To(Equal(2.0))
		Expect(value(fams, p+"upstream_requests_total", "route", "openai", "status", "error")).To(Equal(1.0))
		Expect(value(fams, p+"upstream_requests_total", "route", "anthropic", "status", "429")).To(Equal(1.0))
		Expect(value(fams, p+"upstream_duration_seconds", "route", "openai")).To(Equal(3.0))
		Expect(text).To(ContainSubstring(p + `upstream_duration_seconds_bucket{route="openai",le="0.05"} 1` + "\n"))
		Expect(text).To(ContainSubstring(p + `upstream_duration_seconds_bucket{route="openai",le="5"} 2` + "\n"))
		Expect(text).To(ContainSubstring(p + `upstream_duration_seconds_bucket{route="openai",le="120"} 2` + "\n"))
		Expect(text).To(ContainSubstring(p + `upstream_duration_seconds_bucket{route="openai",le="+Inf"} 3` + "\n"))
		Expect(text).To(ContainSubstring(p + `upstream_duration_seconds_sum{route="openai"} 203.03` + "\n"))
		Expect(text).To(ContainSubstring(p + `upstream_duration_seconds_bucket{route="anthropic",le="1"} 1` + "\n"))
	})

	It("counts expansions by answer and bounds by limit", func() {
		m := newMetrics(nil, nil)
		m.Expansion(gateway.AnswerOriginal)
		m.Expansion(gateway.AnswerNotAvailable)
		m.Expansion(gateway.AnswerNotAvailable)
		m.Limited(proxy.LimitBodyBytes)
		m.Limited(proxy.LimitConcurrency)
		fams := families(scrape(m))
		Expect(value(fams, p+"expansions_total", "answer", "original")).To(Equal(1.0))
		Expect(value(fams, p+"expansions_total", "answer", "not_available")).To(Equal(2.0))
		Expect(value(fams, p+"expansions_total", "answer", "missing")).To(BeZero())
		Expect(value(fams, p+"limited_total", "limit", "body_bytes")).To(Equal(1.0))
		Expect(value(fams, p+"limited_total", "limit", "concurrency")).To(Equal(1.0))
		Expect(value(fams, p+"limited_total", "limit", "work")).To(BeZero())
	})

	DescribeTable("bounds label values whatever the caller passes",
		func(route string, status int, want, wantStatus string) {
			m := newMetrics(nil, nil)
			m.Request(route, proxy.OutcomeOK)
			m.Upstream(route, status, -time.Second)
			fams := families(scrape(m))
			Expect(value(fams, p+"requests_total", "route", want, "outcome", "ok")).To(Equal(1.0))
			Expect(value(fams, p+"upstream_requests_total", "route", want, "status", wantStatus)).To(Equal(1.0))
			Expect(value(fams, p+"upstream_duration_seconds", "route", want)).To(Equal(1.0))
		},
		func(route string, status int, want, wantStatus string) string {
			return fmt.Sprintf("route %q status %d → %s %s", route, status, want, wantStatus)
		},
		Entry(nil, "responses", 201, "responses", "201"),
		Entry(nil, "", 99, "other", "other"),
		Entry(nil, "\xff\xfe", 600, "other", "other"),
		Entry(nil, strings.Repeat("r", 65), -1, "other", "other"),
		Entry(nil, strings.Repeat("é", 32), 599, strings.Repeat("é", 32), "599"),
		Entry(nil, "other", 100, "other", "100"),
	)

	It("keeps at most 16 unknown values per label, then folds the rest into other", func() {
		m := newMetrics(nil, nil)
		for i := range 1000 {
			m.Request(fmt.Sprintf("route-%d", i), fmt.Sprintf("outcome-%d", i))
			m.Expansion(fmt.Sprintf("answer-%d", i))
			m.Limited(fmt.Sprintf("limit-%d", i))
		}
		fams := families(scrape(m))
		Expect(value(fams, p+"requests_total", "route", "route-15", "outcome", "outcome-15")).To(Equal(1.0))
		Expect(value(fams, p+"requests_total", "route", "other", "outcome", "other")).To(Equal(1000.0 - 16))
		Expect(fams[p+"requests_total"].GetMetric()).To(HaveLen(len(routes)*len(outcomes) + 16 + 1))
		Expect(fams[p+"expansions_total"].GetMetric()).To(HaveLen(len(answers) + 16 + 1))
		Expect(value(fams, p+"limited_total", "limit", "other")).To(Equal(1000.0 - 16))
	})

	It("sums events from 8 goroutines exactly", func() {
		m := newMetrics(zeroPipe, okStore(gateway.StoreStats{}))
		const workers, each = 8, 500
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				defer GinkgoRecover()
				for i := range each {
					m.Request(routes[i%3], outcomes[(w+i)%len(outcomes)])
					m.Upstream(routes[i%3], 200, time.Duration(i)*time.Millisecond)
					m.Expansion(answers[i%len(answers)])
					m.Limited(limits[i%len(limits)])
					if i%100 == 0 {
						families(scrape(m)) // scrapes race with the events
					}
				}
			})
		}
		wg.Wait()
		fams := families(scrape(m))
		Expect(total(fams, p+"requests_total")).To(Equal(float64(workers * each)))
		Expect(total(fams, p+"upstream_requests_total")).To(Equal(float64(workers * each)))
		Expect(total(fams, p+"upstream_duration_seconds")).To(Equal(float64(workers * each)))
		Expect(total(fams, p+"expansions_total")).To(Equal(float64(workers * each)))
		Expect(total(fams, p+"limited_total")).To(Equal(float64(workers * each)))
		Expect(value(fams, p+"upstream_requests_total", "route", "openai", "status", "200")).To(Equal(float64(workers * 167)))
	})
})

// total sums a family's counter values (or histogram counts).
func total(fams map[string]*dto.MetricFamily, name string) float64 {
	var sum float64
	for _, m := range fams[name].GetMetric() {
		sum += m.GetCounter().GetValue() + float64(m.GetHistogram().GetSampleCount())
	}
	return sum
}

var _ = Describe("scrape-time values", func() {
	It("reads the pipe at each scrape, without double counting", func() {
		var mu sync.Mutex
		snap := gateway.Metrics{CacheHits: 3, CacheMisses: 4, CompressionsOK: 5, CompressionsFailed: 1, BytesSaved: 12345, StoreFailed: 2}
		m := newMetrics(func() gateway.Metrics { mu.Lock(); defer mu.Unlock(); return snap }, nil)
		for range 2 {
			fams := families(scrape(m))
			Expect(value(fams, p+"compressions_total", "result", "ok")).To(Equal(5.0))
			Expect(value(fams, p+"compressions_total", "result", "failed")).To(Equal(1.0))
			Expect(value(fams, p+"cache_total", "result", "hit")).To(Equal(3.0))
			Expect(value(fams, p+"cache_total", "result", "miss")).To(Equal(4.0))
			Expect(value(fams, p+"bytes_saved_total")).To(Equal(12345.0))
			Expect(value(fams, p+"store_failures_total")).To(Equal(2.0))
		}
		mu.Lock()
		snap.CompressionsOK, snap.BytesSaved = 6, 20000
		mu.Unlock()
		fams := families(scrape(m))
		Expect(value(fams, p+"compressions_total", "result", "ok")).To(Equal(6.0))
		Expect(value(fams, p+"bytes_saved_total")).To(Equal(20000.0))
	})

	It("reads the store's size at each scrape", func() {
		store := okStore(gateway.StoreStats{Originals: 7, Compressed: 9, Bytes: 4096})
		m := newMetrics(nil, store)
		fams := families(scrape(m))
		Expect(value(fams, p+"store_entries", "kind", "original")).To(Equal(7.0))
		Expect(value(fams, p+"store_entries", "kind", "compressed")).To(Equal(9.0))
		Expect(value(fams, p+"store_bytes")).To(Equal(4096.0))
		Expect(value(fams, p+"store_errors_total")).To(BeZero())
		families(scrape(m))
		Expect(store.calls.Load()).To(BeEquivalentTo(2))
	})

	It("gives Stats a context with a deadline within the store timeout", func() {
		var left time.Duration
		store := &fakeStore{stats: func(ctx context.Context) (gateway.StoreStats, error) {
			d, ok := ctx.Deadline()
			Expect(ok).To(BeTrue())
			left = time.Until(d)
			return gateway.StoreStats{}, nil
		}}
		families(scrape(newMetrics(nil, store, prom.WithStoreTimeout(300*time.Millisecond))))
		Expect(left).To(And(BeNumerically(">", 0), BeNumerically("<=", 300*time.Millisecond)))
	})
})
