package memstore_test

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/metrics"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
)

// liveHeap is the live heap after a full collection (runtime/metrics
// /gc/heap/live:bytes: the bytes of objects the last GC marked live).
func liveHeap() int64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// The accounting is checked against the heap itself: the live heap grows
// by what Held reports, within a quarter, for thousands of entries. The
// values are made inside the measured span and dropped by the test, so
// the store is what keeps them.
var _ = Describe("what the store holds", func() {
	ctx := context.Background()
	const caller = "caller-0123456789abcdef0123456789abcdef"
	id := func(i int) string { return fmt.Sprintf("shadow_%032x", i) }

	fill := func(n int, original, compressed func(i int) string) (*memstore.Store, int64) {
		s := memstore.New(gateway.StoreOptions{MaxEntries: n, MaxBytes: 1 << 40})
		before := liveHeap()
		for i := range n {
			Expect(s.PutOriginal(ctx, caller, id(i), original(i))).To(Succeed())
			Expect(s.PutCompressed(ctx, id(i), compressed(i))).To(Succeed())
		}
		grew := liveHeap() - before
		runtime.KeepAlive(s)
		return s, grew
	}

	It("grows the live heap by Held, within a tenth, for 4,000 originals and compressed texts", func() {
		base := strings.Repeat("0123456789", 1000)
		s, grew := fill(4000, func(int) string { return strings.Clone(base) }, func(int) string { return strings.Clone(base[:100]) })
		Expect(float64(grew)).To(BeNumerically("~", float64(s.Held()), float64(s.Held())/10))
		st, err := s.Stats(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Held()).To(BeNumerically(">", st.Bytes))
	})

	It("keeps a value cut from a larger string without the rest of that string", func() {
		// a compressor that answers with the first bytes of its input
		// (content[:k]) must not pin the whole input for CompressedTTL
		s, grew := fill(2000, func(i int) string { return id(i) }, func(int) string { return strings.Repeat("x", 64<<10)[:100] })
		Expect(float64(grew)).To(BeNumerically("~", float64(s.Held()), float64(s.Held())/10))
	})

	It("keeps a taken original without a copy, counting the bytes its allocation holds", func() {
		// TakeOriginal's strings are made for the call, as a parse decodes
		// a tool result: the live heap grows by them once, not twice.
		s := memstore.New(gateway.StoreOptions{MaxEntries: 2000, MaxBytes: 1 << 40})
		before := liveHeap()
		for i := range 2000 {
			var b strings.Builder
			b.Grow(9000)
			b.WriteString(strings.Repeat("t", 8000+i%100))
			Expect(s.TakeOriginal(ctx, caller, id(i), b.String(), b.Cap())).To(Succeed())
		}
		grew := liveHeap() - before
		Expect(float64(grew)).To(BeNumerically("~", float64(s.Held()), float64(s.Held())/10))
		got, ok, err := s.Original(ctx, caller, id(7))
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(got).To(Equal(strings.Repeat("t", 8007)))
		st, err := s.Stats(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Bytes).To(BeNumerically("<", s.Held())) // counted by the bytes, held by the allocations
	})

	It("holds nothing more once every entry is gone", func() {
		base := strings.Repeat("y", 8000)
		s, _ := fill(2000, func(int) string { return strings.Clone(base) }, func(int) string { return "c" })
		Expect(s.Close()).To(Succeed())
		Expect(s.Held()).To(BeZero())
	})
})

// Values of 32,769 bytes take 40,960 (the allocator's pages): a store
// full of them by MaxBytes holds a quarter more than it counts.
var _ = Describe("a store from NewBounded", func() {
	ctx := context.Background()
	opts := gateway.StoreOptions{MaxEntries: 1000, MaxBytes: 8 << 20}
	put := func(s *memstore.Store) int64 {
		before := liveHeap()
		for i := range 600 {
			Expect(s.PutOriginal(ctx, "c", fmt.Sprintf("shadow_%d", i), strings.Repeat("z", 32<<10+1))).To(Succeed())
		}
		grew := liveHeap() - before
		runtime.KeepAlive(s)
		return grew
	}

	It("holds no more than HeapBound, where New holds what the allocator rounds up too", func() {
		bound := memstore.HeapBound(opts)
		plain := memstore.New(opts)
		grewPlain := put(plain)
		Expect(plain.Held()).To(BeNumerically(">", bound*23/20))
		Expect(float64(grewPlain)).To(BeNumerically("~", float64(plain.Held()), float64(plain.Held())/10))

		bounded := memstore.NewBounded(opts)
		grewBounded := put(bounded)
		Expect(bounded.Held()).To(BeNumerically("<=", bound))
		Expect(float64(grewBounded)).To(BeNumerically("~", float64(bounded.Held()), float64(bounded.Held())/10))
		st, err := bounded.Stats(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Bytes).To(BeNumerically("<", opts.MaxBytes*9/10)) // the bound, not MaxBytes, evicted
		_, ok, err := bounded.Original(ctx, "c", "shadow_599")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
	})

	It("does not keep an entry that holds more than the bound on its own, and evicts nothing for it", func() {
		small := gateway.StoreOptions{MaxEntries: 1, MaxBytes: 34 << 10}
		s := memstore.NewBounded(small)
		Expect(s.PutCompressed(ctx, "kept", "short")).To(Succeed())
		Expect(s.PutOriginal(ctx, "", "big", strings.Repeat("b", 33<<10))).To(Succeed()) // under MaxBytes, takes 40 KiB + overhead
		_, ok, _ := s.Original(ctx, "", "big")
		Expect(ok).To(BeFalse())
		v, ok, _ := s.Compressed(ctx, "kept")
		Expect(ok).To(BeTrue())
		Expect(v).To(Equal("short"))
		Expect(s.Held()).To(BeNumerically("<=", memstore.HeapBound(small)))
	})
})

var _ = Describe("HeapBound", func() {
	It("is MaxBytes and 368 bytes for each of MaxEntries, math.MaxInt64 past what an int64 holds", func() {
		Expect(memstore.HeapBound(gateway.StoreOptions{MaxBytes: 1000, MaxEntries: 10})).To(Equal(int64(1000 + 10*368)))
		Expect(memstore.HeapBound(gateway.StoreOptions{MaxBytes: math.MaxInt64 - 100, MaxEntries: 1})).To(Equal(int64(math.MaxInt64)))
		Expect(memstore.HeapBound(gateway.StoreOptions{MaxBytes: 1, MaxEntries: math.MaxInt})).To(Equal(int64(math.MaxInt64)))
	})
})
