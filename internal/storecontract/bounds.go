package storecontract

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
)

func describeBounds(open Opener) {
	ginkgo.Context("bounds", func() {
		ginkgo.It("drops the oldest entry of a kind past MaxEntries, leaving the other kind alone", func() {
			e := newEnv(open, gateway.StoreOptions{MaxEntries: 3})
			for _, id := range []string{"a", "b", "c"} {
				e.putCompressed(id, "c-"+id)
			}
			for _, id := range []string{"a", "b", "c", "d"} {
				e.putOriginal(id, "o-"+id)
			}
			Expect(e.original("a")).To(Equal(missing))
			Expect([]string{e.original("b"), e.original("c"), e.original("d")}).To(Equal([]string{"o-b", "o-c", "o-d"}))
			Expect([]string{e.compressed("a"), e.compressed("b"), e.compressed("c")}).To(Equal([]string{"c-a", "c-b", "c-c"}))
			Expect(e.stats()).To(Equal(gateway.StoreStats{Originals: 3, Compressed: 3, Bytes: 4*3 + 4*3}))
		})

		ginkgo.It("counts an id put again as the newest", func() {
			e := newEnv(open, gateway.StoreOptions{MaxEntries: 3})
			for _, id := range []string{"a", "b", "c", "a", "d"} {
				e.putOriginal(id, "v")
			}
			Expect([]string{e.original("a"), e.original("b"), e.original("c"), e.original("d")}).
				To(Equal([]string{"v", missing, "v", "v"}))
		})

	})
	describeByteBounds(open)
}

// describeByteBounds is the MaxBytes part of the bounds.
func describeByteBounds(open Opener) {
	ginkgo.Context("bounds in bytes", func() {
		ginkgo.It("drops the oldest entries of either kind past MaxBytes", func() {
			e := newEnv(open, gateway.StoreOptions{MaxBytes: 100})
			e.putOriginal("o1", sized("o1", 30))
			e.putCompressed("c1", sized("c1", 30))
			e.putOriginal("o2", sized("o2", 30))
			Expect(e.stats().Bytes).To(BeEquivalentTo(90))
			e.putCompressed("c2", sized("c2", 30))
			Expect(e.original("o1")).To(Equal(missing))
			Expect(e.stats()).To(Equal(gateway.StoreStats{Originals: 1, Compressed: 2, Bytes: 90}))
			e.putOriginal("o3", sized("o3", 70))
			Expect(e.compressed("c1")).To(Equal(missing))
			Expect(e.original("o2")).To(Equal(missing))
			Expect(e.compressed("c2")).To(Equal(sized("c2", 30)))
			Expect(e.stats()).To(Equal(gateway.StoreStats{Originals: 1, Compressed: 1, Bytes: 100}))
		})

		ginkgo.It("keeps Stats.Bytes within MaxBytes after every put", func() {
			e := newEnv(open, gateway.StoreOptions{MaxBytes: 500, MaxEntries: 1000})
			for i := range 200 {
				id := fmt.Sprint("id", i%37)
				v := strings.Repeat("v", (i*53)%240)
				if i%3 == 0 {
					e.putCompressed(id, v)
				} else {
					e.putOriginal(id, v)
				}
				Expect(e.stats().Bytes).To(BeNumerically("<=", 500), "after put %d", i)
			}
		})

		ginkgo.It("keeps an entry of exactly MaxBytes alone", func() {
			e := newEnv(open, gateway.StoreOptions{MaxBytes: 64})
			e.putOriginal("a", "1")
			e.putCompressed("b", "2")
			e.putOriginal("big", sized("big", 64))
			Expect(e.original("big")).To(Equal(sized("big", 64)))
			Expect(e.stats()).To(Equal(gateway.StoreStats{Originals: 1, Bytes: 64}))
		})

		ginkgo.It("does not keep an entry larger than MaxBytes alone, and evicts nothing for it", func() {
			e := newEnv(open, gateway.StoreOptions{MaxBytes: 64})
			e.putOriginal("a", "1")
			e.putCompressed("b", "2")
			e.putOriginal("big", sized("big", 65))
			e.putCompressed("big", sized("big", 1000))
			Expect(e.original("big")).To(Equal(missing))
			Expect(e.compressed("big")).To(Equal(missing))
			Expect(e.stats()).To(Equal(gateway.StoreStats{Originals: 1, Compressed: 1, Bytes: 4}))
		})

		ginkgo.It("drops the old value of an id whose new value is too large to keep", func() {
			e := newEnv(open, gateway.StoreOptions{MaxBytes: 64})
			e.putOriginal("a", "old")
			e.putOriginal("a", sized("a", 65))
			Expect(e.original("a")).To(Equal(missing))
			Expect(e.stats()).To(Equal(gateway.StoreStats{}))
		})
	})
}

func describeConcurrency(open Opener) {
	ginkgo.It("ends within its bounds after 8 goroutines x 200 mixed operations, Stats matching the lookups", func() {
		const maxEntries, maxBytes, ids = 16, 4000, 40
		e := newEnv(open, gateway.StoreOptions{MaxEntries: maxEntries, MaxBytes: maxBytes})
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				defer ginkgo.GinkgoRecover()
				for i := range 200 {
					concurrentOp(e, g, i, maxEntries, maxBytes)
				}
			})
		}
		wg.Wait()
		var want gateway.StoreStats
		for i := range ids {
			id := fmt.Sprint("id", i)
			for kind, get := range map[string]func(string) string{"o": e.original, "c": e.compressed} {
				v := get(id)
				if v == missing {
					continue
				}
				Expect(v).To(HavePrefix(kind+":"+id+":"), "a value is the one put for its own id and kind")
				want.Bytes += int64(len(id) + len(v))
				if kind == "o" {
					want.Originals++
				} else {
					want.Compressed++
				}
			}
		}
		Expect(e.stats()).To(Equal(want))
		Expect(want.Originals).To(BeNumerically("<=", maxEntries))
		Expect(want.Compressed).To(BeNumerically("<=", maxEntries))
		Expect(want.Bytes).To(BeNumerically("<=", maxBytes))
	})
}

// concurrentOp is operation i of goroutine g: a put, a get or a Stats
// check, of either kind, on one of 40 ids, with values of 0 to 400 bytes.
func concurrentOp(e *env, g, i, maxEntries, maxBytes int) {
	id := fmt.Sprint("id", (g*7+i*13)%40)
	pad := strings.Repeat("p", (g*31+i*17)%400)
	switch i % 5 {
	case 0, 1:
		e.putOriginal(id, fmt.Sprintf("o:%s:%d:%d:%s", id, g, i, pad))
	case 2:
		e.putCompressed(id, fmt.Sprintf("c:%s:%d:%d:%s", id, g, i, pad))
	case 3:
		if v := e.original(id); v != missing {
			Expect(v).To(HavePrefix("o:" + id + ":"))
		}
		if v := e.compressed(id); v != missing {
			Expect(v).To(HavePrefix("c:" + id + ":"))
		}
	default:
		st := e.stats()
		Expect(st.Originals).To(BeNumerically("<=", maxEntries))
		Expect(st.Compressed).To(BeNumerically("<=", maxEntries))
		Expect(st.Bytes).To(BeNumerically("<=", maxBytes))
	}
}

func describeCancel(open Opener) {
	ginkgo.It("answers a cancelled context with an error or a no-op, never a hang", func() {
		e := newEnv(open, gateway.StoreOptions{})
		e.putOriginal("kept", "v")
		e.putCompressed("kept", "v")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		calls := map[string]func() error{
			"PutOriginal":   func() error { return e.store.PutOriginal(ctx, e.caller, "new", "v") },
			"PutCompressed": func() error { return e.store.PutCompressed(ctx, "new", "v") },
			"Original":      getter(ctx, e.originalOf(e.caller)),
			"Compressed":    getter(ctx, e.store.Compressed),
			"Stats": func() error {
				st, err := e.store.Stats(ctx)
				if err == nil && st != (gateway.StoreStats{Originals: 1, Compressed: 1, Bytes: 10}) {
					return fmt.Errorf("stats %+v without an error", st)
				}
				return err
			},
		}
		for name, call := range calls {
			done := make(chan error, 1)
			go func() { done <- call() }()
			var err error
			Eventually(done).WithTimeout(10*time.Second).Should(Receive(&err), "%s returns", name)
			if err != nil {
				Expect(errors.Is(err, context.Canceled)).To(BeTrue(), "%s: %v wraps context.Canceled", name, err)
			}
		}
		Expect(e.original("new")).To(Equal(missing), "a put with a cancelled context is a no-op")
		Expect(e.compressed("new")).To(Equal(missing), "a put with a cancelled context is a no-op")
	})
}

// getter calls a lookup with ctx: an error, or a no-op answer (the value
// that is there, or none).
func getter(ctx context.Context, get func(context.Context, string) (string, bool, error)) func() error {
	return func() error {
		v, ok, err := get(ctx, "kept")
		if err == nil && ok && v != "v" {
			return fmt.Errorf("got %q without an error", v)
		}
		return err
	}
}
