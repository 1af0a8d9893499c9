package fakes_test

import (
	"context"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/fakes"
)

var _ = Describe("sources", func() {
	It("yields sequential UUID-shaped ids and nonces", func() {
		ids, nonces := &fakes.IDs{}, &fakes.Nonces{}
		Expect(ids.Next()).To(Equal("00000000-0000-4000-8000-000000000001"))
		Expect(ids.Next()).To(Equal("00000000-0000-4000-8000-000000000002"))
		Expect(nonces.Next()).To(Equal("nonce0001"))
		Expect(nonces.Next()).To(Equal("nonce0002"))
	})

	It("steps the clock one second per reading, or as told", func() {
		c := &fakes.Clock{}
		Expect(c.Now()).To(Equal(fakes.Epoch))
		Expect(c.Now()).To(Equal(fakes.Epoch.Add(time.Second)))
		c.Advance(time.Hour)
		Expect(c.Now()).To(Equal(fakes.Epoch.Add(time.Hour + 2*time.Second)))

		still := &fakes.Clock{Step: -1}
		Expect(still.Now()).To(Equal(still.Now()))
		still.Advance(time.Minute)
		Expect(still.Now()).To(Equal(fakes.Epoch.Add(time.Minute)))
	})

	It("ends a WithTimeout context when the clock reaches its deadline, by Advance or by readings", func() {
		c := &fakes.Clock{}
		ctx, cancel := c.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c.Advance(29 * time.Second)
		Expect(ctx.Err()).NotTo(HaveOccurred())
		c.Now() // reads 29s, steps to 30s: the deadline
		Expect(ctx.Err()).To(MatchError(context.DeadlineExceeded))
		Expect(context.Cause(ctx)).To(MatchError(context.DeadlineExceeded))
		Expect(ctx.Done()).To(BeClosed())

		now, cancelNow := c.WithTimeout(context.Background(), 0)
		defer cancelNow()
		Expect(now.Err()).To(MatchError(context.DeadlineExceeded))

		stopped, stop := c.WithTimeout(context.Background(), time.Second)
		stop()
		c.Advance(time.Hour)
		Expect(stopped.Err()).To(MatchError(context.Canceled))
		Expect(c.Now()).To(Equal(fakes.Epoch.Add(time.Hour+30*time.Second)), "arming a timer reads no time")
	})

	It("lets a parent's end reach a WithTimeout context", func() {
		parent, cancelParent := context.WithCancel(context.Background())
		ctx, cancel := (&fakes.Clock{}).WithTimeout(parent, time.Minute)
		defer cancel()
		cancelParent()
		Expect(ctx.Err()).To(MatchError(context.Canceled))
	})

	It("gives every NewSources its own generators", func() {
		a, b := fakes.NewSources(), fakes.NewSources()
		Expect(a.ID()).To(Equal(b.ID()))
		Expect(a.NewNonce()).To(Equal("nonce0001"))
		Expect(a.Time()).To(Equal(fakes.Epoch))
		ctx, cancel := a.WithTimeout(context.Background(), time.Second)
		defer cancel()
		a.Time() // steps to the deadline
		Expect(ctx.Err()).To(MatchError(context.DeadlineExceeded))
	})

	It("never repeats an id under concurrent use", func() {
		ids := &fakes.IDs{}
		seen := sync.Map{}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for range 100 {
					_, dup := seen.LoadOrStore(ids.Next(), true)
					Expect(dup).To(BeFalse())
				}
			})
		}
		wg.Wait()
		Expect(ids.Next()).To(Equal("00000000-0000-4000-8000-000000000801"))
	})
})
