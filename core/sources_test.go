package core_test

import (
	"context"
	"fmt"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
)

const uuidV4 = `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`

var _ = Describe("Sources.IDs", func() {
	It("yields NewID's identifiers in order, one call each", func() {
		n := 0
		src := core.Sources{NewID: func() string { n++; return fmt.Sprintf("id-%d", n) }}
		Expect(slices.Collect(src.IDs(3))).To(Equal([]string{"id-1", "id-2", "id-3"}))
		Expect(n).To(Equal(3))
	})
	It("yields distinct random UUIDv4 by default, across batches", func() {
		ids := slices.Collect(core.Sources{}.IDs(600))
		Expect(ids).To(HaveLen(600))
		seen := map[string]bool{}
		for _, id := range ids {
			Expect(id).To(MatchRegexp(uuidV4))
			seen[id] = true
		}
		Expect(seen).To(HaveLen(600))
		Expect(core.RandomUUID()).To(MatchRegexp(uuidV4))
	})
	It("stops when the loop stops", func() {
		n := 0
		src := core.Sources{NewID: func() string { n++; return "x" }}
		for range src.IDs(10) {
			break
		}
		Expect(n).To(Equal(1))
		for range (core.Sources{}).IDs(1000) {
			break
		}
	})
	It("yields nothing for zero", func() {
		Expect(slices.Collect(core.Sources{}.IDs(0))).To(BeEmpty())
	})
})

var _ = Describe("Sources.WithTimeout", func() {
	It("arms a wall-clock deadline by default", func() {
		ctx, cancel := core.Sources{}.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		deadline, ok := ctx.Deadline()
		Expect(ok).To(BeTrue())
		Expect(time.Until(deadline)).To(BeNumerically("~", time.Hour, time.Minute))
		cancel()
		Expect(ctx.Err()).To(MatchError(context.Canceled))
	})
	It("asks Timeout when set", func() {
		var asked time.Duration
		src := core.Sources{Timeout: func(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
			asked = d
			return context.WithCancel(ctx)
		}}
		_, cancel := src.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		Expect(asked).To(Equal(30 * time.Second))
	})
})

var _ = Describe("Sleep", func() {
	It("returns nil once d has passed", func() {
		start := time.Now()
		Expect(core.Sleep(context.Background(), time.Millisecond)).To(Succeed())
		Expect(time.Since(start)).To(BeNumerically(">=", time.Millisecond))
	})
	It("returns the context's error at once when the context has ended", func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		start := time.Now()
		Expect(core.Sleep(ctx, time.Hour)).To(MatchError(context.Canceled))
		Expect(time.Since(start)).To(BeNumerically("<", time.Minute))
	})
	It("returns the deadline's error when the context times out first", func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
		defer cancel()
		Expect(core.Sleep(ctx, time.Hour)).To(MatchError(context.DeadlineExceeded))
	})
})
