package storecontract

import (
	"time"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
)

// describeCallers is the caller scope of originals: an original is answered
// only to the caller that put it.
func describeCallers(open Opener) {
	ginkgo.Context("originals scoped to their caller", func() {
		ginkgo.It("answers an original only to the caller that put it, as missing to any other", func() {
			e := newEnv(open, gateway.StoreOptions{})
			alice, bob, anon := e.as("alice"), e.as("bob"), e.as(gateway.AnonymousCaller)
			alice.putOriginal("shadow_1", "alice's log")
			Expect(bob.original("shadow_1")).To(Equal(missing))
			Expect(anon.original("shadow_1")).To(Equal(missing))
			bob.putOriginal("shadow_1", "bob's")
			Expect(alice.original("shadow_1")).To(Equal("alice's log"), "another caller's put of the same id leaves it")
			Expect(bob.original("shadow_1")).To(Equal("bob's"))
			Expect(e.stats()).To(Equal(gateway.StoreStats{Originals: 2, Bytes: (5 + 8 + 11) + (3 + 8 + 5)}))
		})

		ginkgo.It("keeps compressed texts without a caller", func() {
			e := newEnv(open, gateway.StoreOptions{})
			e.as("alice").putCompressed("shadow_1", "summary")
			Expect(e.as("bob").compressed("shadow_1")).To(Equal("summary"))
			Expect(e.stats()).To(Equal(gateway.StoreStats{Compressed: 1, Bytes: 8 + 7}))
		})

		ginkgo.It("never lets one caller's id name another caller's original, whatever their bytes", func() {
			e := newEnv(open, gateway.StoreOptions{})
			e.as("a:1").putOriginal("x", "secret")
			for _, c := range [][2]string{{"a", "1:x"}, {"a:", "1:x"}, {"", "a:1:x"}, {"", "3:a:1:x"}, {"3:a:1", "x"}, {"a:1:x", ""}} {
				Expect(e.as(c[0]).original(c[1])).To(Equal(missing), "caller %q, id %q", c[0], c[1])
			}
			Expect(e.as("a:1").original("x")).To(Equal("secret"))
		})

		ginkgo.It("bounds and expires the originals of every caller together", func() {
			e := newEnv(open, gateway.StoreOptions{MaxEntries: 2, OriginalTTL: 5 * time.Minute})
			e.as("alice").putOriginal("id", "1")
			e.as("bob").putOriginal("id", "2")
			e.as("carol").putOriginal("id", "3")
			Expect(e.as("alice").original("id")).To(Equal(missing), "the oldest original went, whoever put it")
			Expect(e.stats()).To(Equal(gateway.StoreStats{Originals: 2, Bytes: (3 + 2 + 1) + (5 + 2 + 1)}))
			e.clock.Advance(5 * time.Minute)
			Expect(e.stats()).To(Equal(gateway.StoreStats{}))
		})
	})
}
