package gateway_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/internal/gatewaytest"
)

// flaky fails while down is set, and counts its calls.
type flaky struct {
	down  atomic.Bool
	calls atomic.Int64
}

func (f *flaky) Compress(_ context.Context, in gateway.Input) (string, error) {
	f.calls.Add(1)
	if f.down.Load() {
		return "", errors.New("compressor down")
	}
	return in.Content[:100], nil
}

var _ = Describe("the compressor circuit breaker", func() {
	It("stops calling a failing compressor for the cool-off, then probes once", func() {
		src, clock := gatewaytest.Manual()
		f := &flaky{}
		f.down.Store(true)
		p, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{BreakerFailures: 3, BreakerCooloff: 30 * time.Second, RateLimit: 1000},
			Compressor: f, Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src})
		Expect(err).NotTo(HaveOccurred())
		one := func(i int) gateway.Result {
			res, err := p.Process(ctx, []gateway.ToolOutput{{Tool: "t", Content: fmt.Sprint(i, " ") + gatewaytest.Sized(4000)}}, "")
			Expect(err).NotTo(HaveOccurred())
			return res[0]
		}
		for i := range 3 {
			Expect(one(i).Reason).To(ContainSubstring("compressor down"))
		}
		Expect(f.calls.Load()).To(BeEquivalentTo(3))
		r := one(3)
		Expect(r.Action).To(Equal(gateway.ActionPassthrough))
		Expect(r.Reason).To(ContainSubstring("circuit open"))
		Expect(f.calls.Load()).To(BeEquivalentTo(3), "open: the compressor is not called")

		clock.Advance(30 * time.Second)
		Expect(one(4).Reason).To(ContainSubstring("compressor down"), "the probe after the cool-off fails")
		Expect(f.calls.Load()).To(BeEquivalentTo(4))
		Expect(one(5).Reason).To(ContainSubstring("circuit open"), "and opens the breaker again")

		clock.Advance(30 * time.Second)
		f.down.Store(false)
		Expect(one(6).Action).To(Equal(gateway.ActionCompressed), "a successful probe closes it")
		Expect(one(7).Action).To(Equal(gateway.ActionCompressed))
		Expect(f.calls.Load()).To(BeEquivalentTo(6))
	})

	It("fails the request while open when the fallback is none (fail-closed)", func() {
		src, _ := gatewaytest.Manual()
		p, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{BreakerFailures: 1, FallbackStrategy: "none"},
			Compressor: failing{}, Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src})
		Expect(err).NotTo(HaveOccurred())
		_, err = p.Process(ctx, []gateway.ToolOutput{{Tool: "t", Content: gatewaytest.Sized(4000)}}, "")
		Expect(err).To(MatchError(ContainSubstring("compressor down")))
		_, err = p.Process(ctx, []gateway.ToolOutput{{Tool: "t", Content: gatewaytest.Sized(4001)}}, "")
		Expect(err).To(MatchError(gateway.ErrBreakerOpen))
	})
})

// hanging blocks until its context ends.
type hanging struct{}

func (hanging) Compress(ctx context.Context, _ gateway.Input) (string, error) {
	<-ctx.Done()
	return "", ctx.Err()
}

var _ = Describe("the compressor timeout", func() {
	It("gives up on a hung compressor after compress_timeout and passes the result through", func() {
		src, _ := gatewaytest.Manual()
		p, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{CompressTimeout: 50 * time.Millisecond},
			Compressor: hanging{}, Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src})
		Expect(err).NotTo(HaveOccurred())
		res, err := p.Process(ctx, []gateway.ToolOutput{{Tool: "t", Content: gatewaytest.Sized(4000)}}, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(res[0].Action).To(Equal(gateway.ActionPassthrough))
		Expect(res[0].Reason).To(ContainSubstring("compressor timed out after 50ms"))
		Expect(p.Metrics().CompressionsFailed).To(BeEquivalentTo(1))
	})
})
