// Package storecontract is the behaviour every gateway.Store backend must
// show, written once as Ginkgo specs and run by each backend's suite
// (core/gateway/memstore, core/gateway/redisstore):
//
//   - put and get of both kinds, which are separate namespaces; a missing id
//     is ("", false, nil); a put of the same id replaces the value, restarts
//     its TTL and counts its bytes once;
//   - originals are scoped to their caller: one caller's original of an id is
//     another entry than another caller's, and is missing for every other
//     caller (whatever the bytes of the callers and ids); an original counts
//     len(caller)+len(id)+len(value); compressed texts have no caller;
//   - originals expire at OriginalTTL and compressed texts at CompressedTTL
//     on the injected clock (an entry is gone when now >= put time + TTL),
//     and expired entries leave Stats without being looked up;
//   - MaxEntries bounds each kind, MaxBytes bounds len(id)+len(value) over
//     both kinds; the oldest entry goes first; an entry larger than MaxBytes
//     alone is not kept (Put returns nil and evicts nothing);
//   - 8 goroutines x 200 mixed operations end within the bounds, with Stats
//     equal to what lookups find;
//   - a cancelled context gives an error wrapping context.Canceled or a
//     no-op, never a hang.
//
// [Fuzz] is the same contract as a property: a backend runs any sequence of
// operations with the answers of a slow, obvious model.
//
// The clock is a fakes.Clock that moves only when a spec advances it, so
// the specs are deterministic on every backend. TTLs are minutes or hours:
// a backend may also expire entries on the real clock (Redis does), and no
// spec runs that long. Only test code imports this package.
package storecontract

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/fakes"
)

// Opener returns a new, empty store with the given options. It runs inside
// a spec, so it may call Skip, Expect and DeferCleanup. The contract closes
// the store at the end of the spec.
type Opener func(gateway.StoreOptions) gateway.Store

// env is one spec's store, clock and context, and the caller its
// originals are put and looked up under (the anonymous one unless a spec
// sets it).
type env struct {
	store  gateway.Store
	clock  *fakes.Clock
	ctx    context.Context
	caller string
}

// newEnv opens a store on a clock that moves only through Advance.
func newEnv(open Opener, opts gateway.StoreOptions) *env {
	clock := &fakes.Clock{Step: -1}
	opts.Sources = core.Sources{Now: clock.Now}
	st := open(opts)
	Expect(st).NotTo(BeNil())
	ginkgo.DeferCleanup(func() { Expect(st.Close()).To(Succeed()) })
	return &env{store: st, clock: clock, ctx: context.Background()}
}

func (e *env) putOriginal(id, v string) {
	ginkgo.GinkgoHelper()
	Expect(e.store.PutOriginal(e.ctx, e.caller, id, v)).To(Succeed())
}

func (e *env) putCompressed(id, v string) {
	ginkgo.GinkgoHelper()
	Expect(e.store.PutCompressed(e.ctx, id, v)).To(Succeed())
}

// original returns e.caller's original of id, or "<missing>".
func (e *env) original(id string) string {
	ginkgo.GinkgoHelper()
	return e.lookup(e.originalOf(e.caller), id)
}

// as returns e for caller: the same store, clock and context.
func (e *env) as(caller string) *env {
	c := *e
	c.caller = caller
	return &c
}

// originalOf is the Original lookup of caller.
func (e *env) originalOf(caller string) func(context.Context, string) (string, bool, error) {
	return func(ctx context.Context, id string) (string, bool, error) { return e.store.Original(ctx, caller, id) }
}

// compressed returns the compressed text of id, or "<missing>".
func (e *env) compressed(id string) string {
	ginkgo.GinkgoHelper()
	return e.lookup(e.store.Compressed, id)
}

// lookup returns what get answers for id, or "<missing>"; a missing entry
// must come with an empty value and no error.
func (e *env) lookup(get func(context.Context, string) (string, bool, error), id string) string {
	ginkgo.GinkgoHelper()
	v, ok, err := get(e.ctx, id)
	Expect(err).NotTo(HaveOccurred())
	if !ok {
		Expect(v).To(BeEmpty(), "a missing entry comes with an empty value")
		return missing
	}
	return v
}

func (e *env) stats() gateway.StoreStats {
	ginkgo.GinkgoHelper()
	st, err := e.store.Stats(e.ctx)
	Expect(err).NotTo(HaveOccurred())
	return st
}

const missing = "<missing>"

// sized returns a value that makes len(id)+len(value) == n.
func sized(id string, n int) string {
	return strings.Repeat("x", n-len(id))
}

// Describe registers the contract specs for one backend under name.
func Describe(name string, open Opener) bool {
	return ginkgo.Describe(name+" honours the gateway.Store contract", func() {
		describeBasics(open)
		describeExpiry(open)
		describeBounds(open)
		describeCallers(open)
		describeConcurrency(open)
		describeCancel(open)
	})
}

func describeBasics(open Opener) {
	ginkgo.Context("put and get", func() {
		ginkgo.It("returns what was put, each kind in its own namespace", func() {
			e := newEnv(open, gateway.StoreOptions{})
			e.putOriginal("a", "original a")
			e.putCompressed("b", "compressed b")
			Expect(e.original("a")).To(Equal("original a"))
			Expect(e.compressed("b")).To(Equal("compressed b"))
			Expect(e.compressed("a")).To(Equal(missing))
			Expect(e.original("b")).To(Equal(missing))
			Expect(e.original("nope")).To(Equal(missing))
		})

		ginkgo.It("keeps empty values and any bytes verbatim", func() {
			e := newEnv(open, gateway.StoreOptions{})
			odd := "line\r\n\x00\xff é :v:e: 0"
			e.putOriginal("empty", "")
			e.putCompressed("odd", odd)
			Expect(e.original("empty")).To(Equal(""))
			Expect(e.compressed("odd")).To(Equal(odd))
		})

		ginkgo.It("counts len(id)+len(value) of both kinds in Stats", func() {
			e := newEnv(open, gateway.StoreOptions{})
			Expect(e.stats()).To(Equal(gateway.StoreStats{}))
			e.putOriginal("a", "1234")
			e.putOriginal("bb", "12")
			e.putCompressed("a", "123456")
			Expect(e.stats()).To(Equal(gateway.StoreStats{Originals: 2, Compressed: 1, Bytes: 5 + 4 + 7}))
		})

		ginkgo.It("replaces the value of an id put again, counting its bytes once", func() {
			e := newEnv(open, gateway.StoreOptions{})
			e.putOriginal("a", "short")
			e.putOriginal("a", "a longer value")
			e.putCompressed("a", "c1")
			e.putCompressed("a", "c2")
			Expect(e.original("a")).To(Equal("a longer value"))
			Expect(e.compressed("a")).To(Equal("c2"))
			Expect(e.stats()).To(Equal(gateway.StoreStats{Originals: 1, Compressed: 1, Bytes: 15 + 3}))
		})
	})
}

func describeExpiry(open Opener) {
	ginkgo.Context("expiry on the injected clock", func() {
		opts := gateway.StoreOptions{OriginalTTL: 5 * time.Minute, CompressedTTL: time.Hour}

		ginkgo.It("keeps originals for OriginalTTL and compressed texts for CompressedTTL", func() {
			e := newEnv(open, opts)
			e.putOriginal("a", "original")
			e.putCompressed("a", "compressed")
			e.clock.Advance(5*time.Minute - time.Millisecond)
			Expect(e.original("a")).To(Equal("original"))
			e.clock.Advance(time.Millisecond)
			Expect(e.original("a")).To(Equal(missing))
			Expect(e.compressed("a")).To(Equal("compressed"))
			e.clock.Advance(55*time.Minute - time.Millisecond)
			Expect(e.compressed("a")).To(Equal("compressed"))
			e.clock.Advance(time.Millisecond)
			Expect(e.compressed("a")).To(Equal(missing))
		})

		ginkgo.It("drops expired entries from Stats without a lookup", func() {
			e := newEnv(open, opts)
			for i := range 20 {
				e.putOriginal(fmt.Sprintf("o%02d", i), "original")
				e.putCompressed(fmt.Sprintf("c%02d", i), "compressed")
			}
			e.clock.Advance(5 * time.Minute)
			Expect(e.stats()).To(Equal(gateway.StoreStats{Compressed: 20, Bytes: 20 * (3 + 10)}))
			e.clock.Advance(time.Hour)
			Expect(e.stats()).To(Equal(gateway.StoreStats{}))
		})

		ginkgo.It("drops expired entries when another entry is put or looked up", func() {
			e := newEnv(open, opts)
			e.putOriginal("old", "12345")
			e.clock.Advance(5 * time.Minute)
			e.putOriginal("new", "12")
			Expect(e.stats()).To(Equal(gateway.StoreStats{Originals: 1, Bytes: 5}))
			e.clock.Advance(5 * time.Minute)
			Expect(e.compressed("other")).To(Equal(missing))
			Expect(e.stats()).To(Equal(gateway.StoreStats{}))
		})

		ginkgo.It("restarts the TTL of an id put again", func() {
			e := newEnv(open, opts)
			e.putOriginal("a", "v1")
			e.putOriginal("b", "v1")
			e.clock.Advance(3 * time.Minute)
			e.putOriginal("a", "v2")
			e.clock.Advance(3 * time.Minute)
			Expect(e.original("a")).To(Equal("v2"))
			Expect(e.original("b")).To(Equal(missing))
			Expect(e.stats()).To(Equal(gateway.StoreStats{Originals: 1, Bytes: 3}))
		})
	})
}
