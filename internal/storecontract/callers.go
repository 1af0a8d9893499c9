package storecontract

import (
	"time"

	"github.com/toolout/toolout/core/gateway"
)

// callers is the caller scope of originals: an original is answered only
// to the caller that put it.
func callers() []Case {
	return []Case{
		{Name: "callers/scoped", Desc: "answers an original only to the caller that put it, as missing to any other", body: func(e *env) {
			alice, bob, anon := e.as("alice"), e.as("bob"), e.as(gateway.AnonymousCaller)
			alice.putOriginal("shadow_1", "alice's log")
			eq(e, bob.original("shadow_1"), missing, "bob's original of alice's id")
			eq(e, anon.original("shadow_1"), missing, "the anonymous caller's original of alice's id")
			bob.putOriginal("shadow_1", "bob's")
			eq(e, alice.original("shadow_1"), "alice's log", "alice's original after bob put the same id")
			eq(e, bob.original("shadow_1"), "bob's", "bob's original")
			eq(e, e.stats(), gateway.StoreStats{Originals: 2, Bytes: (5 + 8 + 11) + (3 + 8 + 5)}, "stats")
		}},
		{Name: "callers/compressed-shared", Desc: "keeps compressed texts without a caller", body: func(e *env) {
			e.as("alice").putCompressed("shadow_1", "summary")
			eq(e, e.as("bob").compressed("shadow_1"), "summary", "bob's lookup of alice's compressed text")
			eq(e, e.stats(), gateway.StoreStats{Compressed: 1, Bytes: 8 + 7}, "stats")
		}},
		{Name: "callers/no-aliasing", Desc: "never lets one caller's id name another caller's original, whatever their bytes", body: func(e *env) {
			e.as("a:1").putOriginal("x", "secret")
			for _, c := range [][2]string{{"a", "1:x"}, {"a:", "1:x"}, {"", "a:1:x"}, {"", "3:a:1:x"}, {"3:a:1", "x"}, {"a:1:x", ""}} {
				eq(e, e.as(c[0]).original(c[1]), missing, "caller %q, id %q", c[0], c[1])
			}
			eq(e, e.as("a:1").original("x"), "secret", "caller a:1, id x")
		}},
		{Name: "callers/bounds", Desc: "bounds and expires the originals of every caller together",
			opts: gateway.StoreOptions{MaxEntries: 2, OriginalTTL: 5 * time.Minute}, body: func(e *env) {
				e.as("alice").putOriginal("id", "1")
				e.as("bob").putOriginal("id", "2")
				e.as("carol").putOriginal("id", "3")
				eq(e, e.as("alice").original("id"), missing, "alice's original (the oldest goes, whoever put it)")
				eq(e, e.stats(), gateway.StoreStats{Originals: 2, Bytes: (3 + 2 + 1) + (5 + 2 + 1)}, "stats")
				e.clock.Advance(5 * time.Minute)
				eq(e, e.stats(), gateway.StoreStats{}, "stats at OriginalTTL")
			}},
	}
}
