package memstore_test

import (
	"context"
	"fmt"
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

	It("grows the live heap by Held, within a quarter, for 4,000 originals and compressed texts", func() {
		base := strings.Repeat("0123456789", 1000)
		s, grew := fill(4000, func(int) string { return strings.Clone(base) }, func(int) string { return strings.Clone(base[:100]) })
		Expect(float64(grew)).To(BeNumerically("~", float64(s.Held()), float64(s.Held())/4))
		st, err := s.Stats(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Held()).To(BeNumerically(">", st.Bytes))
		Expect(s.Held()).To(BeNumerically("<=", memstore.HeapBound(gateway.StoreOptions{MaxEntries: 4000, MaxBytes: st.Bytes})))
	})

	It("keeps a value cut from a larger string without the rest of that string", func() {
		// a compressor that answers with the first bytes of its input
		// (content[:k]) must not pin the whole input for CompressedTTL
		s, grew := fill(2000, func(i int) string { return id(i) }, func(int) string { return strings.Repeat("x", 64<<10)[:100] })
		Expect(float64(grew)).To(BeNumerically("~", float64(s.Held()), float64(s.Held())/4))
	})

	It("holds nothing more once every entry is gone", func() {
		base := strings.Repeat("y", 8000)
		s, _ := fill(2000, func(int) string { return strings.Clone(base) }, func(int) string { return "c" })
		Expect(s.Close()).To(Succeed())
		Expect(s.Held()).To(BeZero())
	})
})
