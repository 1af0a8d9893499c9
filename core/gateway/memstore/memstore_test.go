package memstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/toolouttest"
)

// The store keeps the gateway.Store contract, checked the way a user
// checks a backend of their own.
func TestContract(t *testing.T) {
	toolouttest.CheckStore(t, func(_ *testing.T, opts gateway.StoreOptions) gateway.Store { return memstore.New(opts) })
}

// Close empties the store while other goroutines use it (run under -race:
// the methods reach the queues before taking the lock, so Close must not
// replace them).
var _ = Describe("Close while the store is in use", func() {
	It("races with no put or get, and leaves a usable store", func() {
		ctx := context.Background()
		s := memstore.New(gateway.StoreOptions{})
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				defer GinkgoRecover()
				for i := range 100 {
					id := fmt.Sprintf("w%d-%d", w, i)
					Expect(s.PutOriginal(ctx, "w", id, "o")).To(Succeed())
					Expect(s.PutCompressed(ctx, id, "c")).To(Succeed())
					_, _, err := s.Original(ctx, "w", id)
					Expect(err).NotTo(HaveOccurred())
				}
			})
		}
		wg.Go(func() {
			defer GinkgoRecover()
			for range 20 {
				Expect(s.Close()).To(Succeed())
			}
		})
		wg.Wait()
		Expect(s.Close()).To(Succeed())
		Expect(s.Stats(ctx)).To(Equal(gateway.StoreStats{}))
		Expect(s.PutOriginal(ctx, "", "after", "x")).To(Succeed())
		v, ok, err := s.Original(ctx, "", "after")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(v).To(Equal("x"))
	})
})

// A store from NewBounded keeps the contract too: its heap bound leaves
// room for the contract's entries, which the allocator rounds up little.
func TestContractBounded(t *testing.T) {
	toolouttest.CheckStore(t, func(_ *testing.T, opts gateway.StoreOptions) gateway.Store { return memstore.NewBounded(opts) })
}
