package prom

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/toolout/toolout/core/gateway"
)

// pipeCollector turns the pipe's counters into const metrics at scrape
// time: the pipe owns the counts, so nothing is counted twice and nothing
// polls in the background.
type pipeCollector struct {
	pipe                                    func() gateway.Metrics
	compressions, cache, saved, storeFailed *prometheus.Desc
	savedHigh                               atomic.Int64 // the highest net bytes saved exported
}

func newPipeCollector(pipe func() gateway.Metrics) *pipeCollector {
	return &pipeCollector{
		pipe: pipe,
		compressions: prometheus.NewDesc(namespace+"compressions_total",
			"Tool results compressed by the pipe, by result (ok: kept compressed; failed: the compressor failed).",
			[]string{"result"}, nil),
		cache: prometheus.NewDesc(namespace+"cache_total",
			"Lookups of a compressed text in the store before compressing, by result (hit, miss).",
			[]string{"result"}, nil),
		saved: prometheus.NewDesc(namespace+"bytes_saved_total",
			"Bytes removed from requests by compression (original length minus compressed text), "+
				"net of what answered expansions gave back; it holds its value while expansions outpace savings.",
			nil, nil),
		storeFailed: prometheus.NewDesc(namespace+"store_failures_total",
			"Tool results passed through uncompressed because a store call failed (a Redis down, hung or out of memory).",
			nil, nil),
	}
}

func (c *pipeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.compressions
	ch <- c.cache
	ch <- c.saved
	ch <- c.storeFailed
}

func (c *pipeCollector) Collect(ch chan<- prometheus.Metric) {
	m := c.pipe()
	ch <- constMetric(c.compressions, prometheus.CounterValue, float64(m.CompressionsOK), "ok")
	ch <- constMetric(c.compressions, prometheus.CounterValue, float64(m.CompressionsFailed), "failed")
	ch <- constMetric(c.cache, prometheus.CounterValue, float64(m.CacheHits), "hit")
	ch <- constMetric(c.cache, prometheus.CounterValue, float64(m.CacheMisses), "miss")
	ch <- constMetric(c.saved, prometheus.CounterValue, float64(c.high(m.BytesSaved)))
	ch <- constMetric(c.storeFailed, prometheus.CounterValue, float64(m.StoreFailed))
}

// high returns the highest of saved and every value exported before: the
// pipe's net bytes saved drops when an expansion gives bytes back, and a
// counter that went down would read as a reset (rate() counting the whole
// total again).
func (c *pipeCollector) high(saved int64) int64 {
	for {
		h := c.savedHigh.Load()
		if saved <= h || c.savedHigh.CompareAndSwap(h, saved) {
			return max(h, saved)
		}
	}
}

// constMetric is prometheus.NewConstMetric that reports an error as an
// invalid metric (failing that scrape's family) instead of panicking.
func constMetric(d *prometheus.Desc, t prometheus.ValueType, v float64, labels ...string) prometheus.Metric {
	m, err := prometheus.NewConstMetric(d, t, v, labels...)
	if err != nil {
		return prometheus.NewInvalidMetric(d, err)
	}
	return m
}

// errStatsTimeout is a Stats call that did not answer in time.
var errStatsTimeout = errors.New("prom: store stats: timed out")

// storeCollector reads the store's size at scrape time. Concurrent scrapes
// share one Stats call, so at most one runs at a time, even when a backend
// ignores its context; a scrape waits for it at most timeout.
type storeCollector struct {
	store                   gateway.Store
	timeout                 time.Duration
	entries, bytes, errDesc *prometheus.Desc
	errors                  atomic.Int64

	mu  sync.Mutex
	cur *statsCall // the Stats call in flight, or nil
}

type statsCall struct {
	done chan struct{} // closed when st and err are set
	st   gateway.StoreStats
	err  error
}

func newStoreCollector(store gateway.Store, timeout time.Duration) *storeCollector {
	return &storeCollector{
		store:   store,
		timeout: timeout,
		entries: prometheus.NewDesc(namespace+"store_entries",
			"Entries held by the store now, by kind (original: kept for expansion; compressed: kept for reuse).",
			[]string{"kind"}, nil),
		bytes: prometheus.NewDesc(namespace+"store_bytes",
			"Bytes held by the store now (keys and values of both kinds).", nil, nil),
		errDesc: prometheus.NewDesc(namespace+"store_errors_total",
			"Scrapes whose store size could not be read (a backend error or no answer within the timeout).",
			nil, nil),
	}
}

func (c *storeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.entries
	ch <- c.bytes
	ch <- c.errDesc
}

func (c *storeCollector) Collect(ch chan<- prometheus.Metric) {
	st, err := c.stats()
	if err != nil {
		c.errors.Add(1)
	} else {
		ch <- constMetric(c.entries, prometheus.GaugeValue, float64(st.Originals), "original")
		ch <- constMetric(c.entries, prometheus.GaugeValue, float64(st.Compressed), "compressed")
		ch <- constMetric(c.bytes, prometheus.GaugeValue, float64(st.Bytes))
	}
	ch <- constMetric(c.errDesc, prometheus.CounterValue, float64(c.errors.Load()))
}

// stats joins the Stats call in flight or starts one, and waits for it at
// most c.timeout.
func (c *storeCollector) stats() (gateway.StoreStats, error) {
	c.mu.Lock()
	call := c.cur
	if call == nil {
		call = &statsCall{done: make(chan struct{})}
		c.cur = call
		go c.run(call)
	}
	c.mu.Unlock()
	t := time.NewTimer(c.timeout)
	defer t.Stop()
	select {
	case <-call.done:
		return call.st, call.err
	case <-t.C:
		return gateway.StoreStats{}, errStatsTimeout
	}
}

// run makes one Stats call under a timeout; a panic in the backend becomes
// an error, so a scrape never takes the gateway down.
func (c *storeCollector) run(call *statsCall) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer func() {
		if r := recover(); r != nil {
			call.err = fmt.Errorf("prom: store stats: panic: %v", r)
		}
		cancel()
		c.mu.Lock()
		c.cur = nil
		c.mu.Unlock()
		close(call.done)
	}()
	call.st, call.err = c.store.Stats(ctx)
}
