package prom_test

import (
	"context"
	"errors"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/prom"
	"github.com/toolout/toolout/core/gateway/proxy"
)

var _ = Describe("a store whose Stats fails", func() {
	It("drops the store samples, counts the error, and serves the rest of the scrape", func() {
		fail := true
		store := &fakeStore{stats: func(context.Context) (gateway.StoreStats, error) {
			if fail {
				return gateway.StoreStats{}, errors.New("redis: connection refused")
			}
			return gateway.StoreStats{Originals: 1, Compressed: 2, Bytes: 3}, nil
		}}
		m := newMetrics(func() gateway.Metrics { return gateway.Metrics{CompressionsOK: 4} }, store)
		m.Request("openai", proxy.OutcomeOK)
		for want := 1.0; want <= 2; want++ {
			fams := families(scrape(m))
			Expect(fams).NotTo(HaveKey(p + "store_entries"))
			Expect(fams).NotTo(HaveKey(p + "store_bytes"))
			Expect(value(fams, p+"store_errors_total")).To(Equal(want), "the failing scrape shows its own error")
			Expect(value(fams, p+"compressions_total", "result", "ok")).To(Equal(4.0))
			Expect(value(fams, p+"requests_total", "route", "openai", "outcome", "ok")).To(Equal(1.0))
		}
		fail = false
		fams := families(scrape(m))
		Expect(value(fams, p+"store_entries", "kind", "compressed")).To(Equal(2.0))
		Expect(value(fams, p+"store_errors_total")).To(Equal(2.0))
	})

	It("does not hold the scrape past the timeout when Stats ignores its context", func() {
		release := make(chan struct{})
		DeferCleanup(func() { close(release) })
		store := &fakeStore{stats: func(context.Context) (gateway.StoreStats, error) {
			<-release
			return gateway.StoreStats{}, nil
		}}
		m := newMetrics(nil, store, prom.WithStoreTimeout(50*time.Millisecond))
		start := time.Now()
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				defer GinkgoRecover()
				fams := families(scrape(m))
				Expect(fams).NotTo(HaveKey(p + "store_entries"))
				Expect(value(fams, p+"store_errors_total")).To(BeNumerically(">=", 1))
			})
		}
		wg.Wait()
		families(scrape(m))
		Expect(time.Since(start)).To(BeNumerically("<", 2*time.Second))
		Expect(store.calls.Load()).To(BeEquivalentTo(1), "scrapes share the one call in flight")
		Expect(value(families(scrape(m)), p+"store_errors_total")).To(Equal(6.0))
	})

	It("cancels the context of a Stats call that takes too long", func() {
		store := &fakeStore{stats: func(ctx context.Context) (gateway.StoreStats, error) {
			<-ctx.Done()
			return gateway.StoreStats{}, ctx.Err()
		}}
		m := newMetrics(nil, store, prom.WithStoreTimeout(20*time.Millisecond))
		Expect(value(families(scrape(m)), p+"store_errors_total")).To(Equal(1.0))
		Eventually(func() float64 {
			return value(families(scrape(m)), p+"store_errors_total")
		}).Should(BeNumerically(">=", 2))
		// Scrapes that time out together may share the first call; a scrape
		// made after it ended starts a new one.
		Eventually(func() int64 {
			scrape(m)
			return store.calls.Load()
		}).Should(BeNumerically(">=", 2), "a new call starts once the first has ended")
	})

	It("turns a panic in Stats into an error", func() {
		store := &fakeStore{stats: func(context.Context) (gateway.StoreStats, error) { panic("backend bug") }}
		m := newMetrics(nil, store)
		Expect(value(families(scrape(m)), p+"store_errors_total")).To(Equal(1.0))
		Expect(value(families(scrape(m)), p+"store_errors_total")).To(Equal(2.0))
	})
})
