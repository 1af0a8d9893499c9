package prom_test

import (
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
)

var _ = Describe("bytes_saved_total", func() {
	It("is the pipe's net bytes saved, and never goes down when an expansion gives bytes back", func() {
		var saved atomic.Int64
		m := newMetrics(func() gateway.Metrics { return gateway.Metrics{BytesSaved: saved.Load()} }, nil)
		read := func() float64 { return value(families(scrape(m)), p+"bytes_saved_total") }
		for _, step := range []struct{ net, want int64 }{
			{-50, 0},   // more given back than saved: at least 0
			{100, 100}, // compressions saved 100 bytes
			{60, 100},  // an expansion gave 40 back: held, not a reset
			{90, 100},  // still below the highest shown
			{130, 130}, // past it: the net again
			{130, 130},
		} {
			saved.Store(step.net)
			Expect(read()).To(BeEquivalentTo(step.want), "net %d", step.net)
		}
	})
})
