package gateway_test

import (
	"context"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/internal/gatewaytest"
)

var _ = Describe("the default rate limit", func() {
	// n compressions at one instant of a clock that moves only when the
	// pipe sleeps; it returns the sleeps.
	run := func(cfg gateway.Config, c gateway.Compressor, n int) []time.Duration {
		src, clock := gatewaytest.Manual()
		var slept []time.Duration
		cfg.MaxConcurrent = 1
		p, err := gateway.NewPipe(gateway.Options{Config: cfg, Compressor: c,
			Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src,
			Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); clock.Advance(d); return nil }})
		Expect(err).NotTo(HaveOccurred())
		for i := range n {
			res, err := p.Process(ctx, []gateway.ToolOutput{{Content: fmt.Sprintf("%d %s", i, gatewaytest.Sized(3000))}}, "")
			Expect(err).NotTo(HaveOccurred())
			Expect(res[0].Action).To(Equal(gateway.ActionCompressed))
		}
		return slept
	}
	remote := gatewaytest.CompressorFunc(func(in gateway.Input) (string, error) { return "short", nil })
	every := time.Second / gateway.DefaultRateLimit

	It("does not delay a local strategy: 30 compressions in one second", func() {
		Expect(gateway.IsRemote(gateway.Simple{})).To(BeFalse())
		Expect(run(gateway.Config{}, gateway.Simple{Words: 3}, 30)).To(BeEmpty())
	})

	It("delays a remote one past its burst of DefaultRateLimit", func() {
		Expect(gateway.IsRemote(remote)).To(BeTrue()) // says nothing: remote
		Expect(gateway.IsRemote(gateway.API{})).To(BeTrue())
		Expect(gateway.IsRemote(gateway.External{})).To(BeTrue())
		Expect(run(gateway.Config{}, remote, gateway.DefaultRateLimit+3)).To(Equal([]time.Duration{every, every, every}))
	})

	It("is the user's to set for every strategy: rate_limit applies to a local one too", func() {
		Expect(run(gateway.Config{RateLimit: 20}, gateway.Simple{Words: 3}, 22)).To(Equal([]time.Duration{every, every}))
	})
})
