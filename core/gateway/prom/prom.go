package prom

import (
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// namespace prefixes every metric name.
const namespace = "toolout_gateway_"

// DefaultStoreTimeout bounds how long a scrape waits for Store.Stats.
const DefaultStoreTimeout = time.Second

// maxScrapes bounds the scrapes served at once; more get 503.
const maxScrapes = 8

// Routes the gateway reports (Observer.Request and Observer.Upstream); their
// series exist from the start.
var routes = []string{"openai", "anthropic", "responses", "passthrough"}

// upstreamBuckets suit LLM calls: from a fast cached answer to a long
// generation.
var upstreamBuckets = []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120}

// overheadBuckets suit the gateway's own time: from a passthrough's
// fraction of a millisecond to a slow compression.
var overheadBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5}

// Registry is where the metrics are registered and what Handler serves. A
// *prometheus.Registry is one; give each gateway its own, never
// prometheus.DefaultRegisterer.
type Registry interface {
	prometheus.Registerer
	prometheus.Gatherer
}

// Option configures New.
type Option func(*options)

type options struct {
	storeTimeout time.Duration
}

// WithStoreTimeout sets how long a scrape waits for Store.Stats (default
// DefaultStoreTimeout); d <= 0 keeps the default.
func WithStoreTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.storeTimeout = d
		}
	}
}

// Metrics is the gateway's Prometheus metrics: a proxy.Observer for the
// events, and collectors that read the pipe and the store at scrape time.
// It is safe for concurrent use.
type Metrics struct {
	handler    http.Handler
	requests   *prometheus.CounterVec
	upstream   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	overhead   *prometheus.HistogramVec
	expansions *prometheus.CounterVec
	limited    *prometheus.CounterVec
	hidden     *prometheus.CounterVec
	captures   *prometheus.CounterVec

	routes, outcomes, answers, limits *labelSet
}

var _ proxy.Observer = (*Metrics)(nil)

// New registers the gateway's metrics in reg and returns them. reg nil
// means a fresh registry. pipe (usually (*gateway.Pipe).Metrics) is read
// at each scrape; nil leaves the compression, cache and bytes-saved metrics
// out. store is sized at each scrape; nil leaves the store metrics out.
// New fails, leaving reg as it was, when a metric is already registered
// there (for example New called twice on one registry).
func New(reg Registry, pipe func() gateway.Metrics, store gateway.Store, opts ...Option) (*Metrics, error) {
	if r, ok := reg.(*prometheus.Registry); reg == nil || ok && r == nil {
		reg = prometheus.NewRegistry()
	}
	o := options{storeTimeout: DefaultStoreTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	m := newMetrics()
	collectors := []prometheus.Collector{m.requests, m.upstream, m.latency, m.overhead, m.expansions, m.limited, m.hidden, m.captures}
	if pipe != nil {
		collectors = append(collectors, newPipeCollector(pipe))
	}
	if store != nil {
		collectors = append(collectors, newStoreCollector(store, o.storeTimeout))
	}
	for i, c := range collectors {
		if err := reg.Register(c); err != nil {
			for _, done := range collectors[:i] {
				reg.Unregister(done)
			}
			return nil, fmt.Errorf("prom: register: %w", err)
		}
	}
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		ErrorHandling:       promhttp.ContinueOnError,
		MaxRequestsInFlight: maxScrapes,
	})
	return m, nil
}

func newMetrics() *Metrics {
	outcomes, answers, limits := proxy.AllOutcomes(), gateway.AllAnswers(), proxy.AllLimits()
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: namespace + "requests_total",
			Help: "Client requests finished, by route (openai, anthropic, passthrough) and outcome."},
			[]string{"route", "outcome"}),
		upstream: prometheus.NewCounterVec(prometheus.CounterOpts{Name: namespace + "upstream_requests_total",
			Help: "Calls to the upstream model, by route and HTTP status (error: no response)."},
			[]string{"route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: namespace + "upstream_duration_seconds",
			Help: "Duration of calls to the upstream model, by route.", Buckets: upstreamBuckets},
			[]string{"route"}),
		overhead: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: namespace + "overhead_seconds",
			Help:    "Time client requests spent in the gateway, upstream excluded (the X-Toolout-Gateway-Overhead-Ms header), by route.",
			Buckets: overheadBuckets},
			[]string{"route"}),
		expansions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: namespace + "expansions_total",
			Help: "expand_context calls answered, by answer (original, missing, repeated, not_available)."},
			[]string{"answer"}),
		limited: prometheus.NewCounterVec(prometheus.CounterOpts{Name: namespace + "limited_total",
			Help: "Requests refused or cut by a bound, by limit."},
			[]string{"limit"}),
		hidden: prometheus.NewCounterVec(prometheus.CounterOpts{Name: namespace + "hidden_history_total",
			Help: "Client requests that continue a conversation the provider holds, by member (previous_response_id, conversation): only the tool outputs they carry can be compressed."},
			[]string{"member"}),
		captures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: namespace + "captures_total",
			Help: "Requests the capture (the config's capture:) wrote to its trace files, or did not, by outcome (written; dropped: its queue full or over max_bytes; failed: the disk refused it)."},
			[]string{"outcome"}),
		routes:   newLabelSet(routes...),
		outcomes: newLabelSet(outcomes...),
		answers:  newLabelSet(answers...),
		limits:   newLabelSet(limits...),
	}
	for _, r := range routes {
		for _, o := range outcomes {
			m.requests.WithLabelValues(r, o)
		}
		m.latency.WithLabelValues(r)
		m.overhead.WithLabelValues(r)
	}
	for _, a := range answers {
		m.expansions.WithLabelValues(a)
	}
	for _, l := range limits {
		m.limited.WithLabelValues(l)
	}
	for _, h := range hiddenMembers {
		m.hidden.WithLabelValues(h)
	}
	for _, o := range CaptureOutcomes {
		m.captures.WithLabelValues(o)
	}
	return m
}

// hiddenMembers are the request members by which a conversation continues
// history the provider holds (gateway.Conversation.HiddenHistory).
var hiddenMembers = []string{"previous_response_id", "conversation"}

var _ proxy.HistoryObserver = (*Metrics)(nil)

// HiddenHistory counts one request that continues history the provider
// holds, by the member that names it.
func (m *Metrics) HiddenHistory(_, member string) {
	if !slices.Contains(hiddenMembers, member) {
		member = Other
	}
	m.hidden.WithLabelValues(member).Inc()
}

// Request counts one finished client request.
func (m *Metrics) Request(route, outcome string) {
	m.requests.WithLabelValues(m.routes.value(route), m.outcomes.value(outcome)).Inc()
}

// Upstream counts one upstream call and observes its duration (a negative
// d counts as 0).
func (m *Metrics) Upstream(route string, status int, d time.Duration) {
	r := m.routes.value(route)
	m.upstream.WithLabelValues(r, statusLabel(status)).Inc()
	m.latency.WithLabelValues(r).Observe(max(d, 0).Seconds())
}

var _ proxy.OverheadObserver = (*Metrics)(nil)

// Overhead observes one request's time in the gateway, upstream excluded
// (a negative d counts as 0).
func (m *Metrics) Overhead(route string, d time.Duration) {
	m.overhead.WithLabelValues(m.routes.value(route)).Observe(max(d, 0).Seconds())
}

// Expansion counts one answered expand_context call.
func (m *Metrics) Expansion(answer string) {
	m.expansions.WithLabelValues(m.answers.value(answer)).Inc()
}

// Limited counts one request refused or cut by a bound.
func (m *Metrics) Limited(limit string) {
	m.limited.WithLabelValues(m.limits.value(limit)).Inc()
}

// CaptureOutcomes are the outcomes Captured counts.
var CaptureOutcomes = []string{"written", "dropped", "failed"}

// Captured counts one request the capture wrote, dropped or failed to
// write (an outcome not in CaptureOutcomes counts as failed).
func (m *Metrics) Captured(outcome string) {
	if !slices.Contains(CaptureOutcomes, outcome) {
		outcome = "failed"
	}
	m.captures.WithLabelValues(outcome).Inc()
}

// Handler serves the registry given to New in the Prometheus text format
// (or another format the scraper negotiates). A collector's error drops
// only its own samples; at most 8 scrapes are served at once, more get 503.
func (m *Metrics) Handler() http.Handler { return m.handler }
