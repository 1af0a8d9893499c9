package storecontract

import (
	"fmt"
	"time"

	"github.com/toolout/toolout/core/gateway"
)

func basics() []Case {
	return []Case{
		{Name: "basics/namespaces", Desc: "returns what was put, each kind in its own namespace", body: func(e *env) {
			e.putOriginal("a", "original a")
			e.putCompressed("b", "compressed b")
			eq(e, e.original("a"), "original a", "original a")
			eq(e, e.compressed("b"), "compressed b", "compressed b")
			eq(e, e.compressed("a"), missing, "compressed a (only an original was put)")
			eq(e, e.original("b"), missing, "original b (only a compressed text was put)")
			eq(e, e.original("nope"), missing, "original nope (never put)")
		}},
		{Name: "basics/verbatim", Desc: "keeps empty values and any bytes verbatim", body: func(e *env) {
			odd := "line\r\n\x00\xff é :v:e: 0"
			e.putOriginal("empty", "")
			e.putCompressed("odd", odd)
			eq(e, e.original("empty"), "", "original empty")
			eq(e, e.compressed("odd"), odd, "compressed odd")
		}},
		{Name: "basics/stats", Desc: "counts len(id)+len(value) of both kinds in Stats", body: func(e *env) {
			eq(e, e.stats(), gateway.StoreStats{}, "stats of an empty store")
			e.putOriginal("a", "1234")
			e.putOriginal("bb", "12")
			e.putCompressed("a", "123456")
			eq(e, e.stats(), gateway.StoreStats{Originals: 2, Compressed: 1, Bytes: 5 + 4 + 7}, "stats")
		}},
		{Name: "basics/replace", Desc: "replaces the value of an id put again, counting its bytes once", body: func(e *env) {
			e.putOriginal("a", "short")
			e.putOriginal("a", "a longer value")
			e.putCompressed("a", "c1")
			e.putCompressed("a", "c2")
			eq(e, e.original("a"), "a longer value", "original a")
			eq(e, e.compressed("a"), "c2", "compressed a")
			eq(e, e.stats(), gateway.StoreStats{Originals: 1, Compressed: 1, Bytes: 15 + 3}, "stats")
		}},
	}
}

func expiry() []Case {
	opts := gateway.StoreOptions{OriginalTTL: 5 * time.Minute, CompressedTTL: time.Hour}
	return []Case{
		{Name: "expiry/ttl", Desc: "keeps originals for OriginalTTL and compressed texts for CompressedTTL", opts: opts, body: func(e *env) {
			e.putOriginal("a", "original")
			e.putCompressed("a", "compressed")
			e.clock.Advance(5*time.Minute - time.Millisecond)
			eq(e, e.original("a"), "original", "original a 1ms before OriginalTTL")
			e.clock.Advance(time.Millisecond)
			eq(e, e.original("a"), missing, "original a at OriginalTTL")
			eq(e, e.compressed("a"), "compressed", "compressed a at OriginalTTL")
			e.clock.Advance(55*time.Minute - time.Millisecond)
			eq(e, e.compressed("a"), "compressed", "compressed a 1ms before CompressedTTL")
			e.clock.Advance(time.Millisecond)
			eq(e, e.compressed("a"), missing, "compressed a at CompressedTTL")
		}},
		{Name: "expiry/stats", Desc: "drops expired entries from Stats without a lookup", opts: opts, body: func(e *env) {
			for i := range 20 {
				e.putOriginal(fmt.Sprintf("o%02d", i), "original")
				e.putCompressed(fmt.Sprintf("c%02d", i), "compressed")
			}
			e.clock.Advance(5 * time.Minute)
			eq(e, e.stats(), gateway.StoreStats{Compressed: 20, Bytes: 20 * (3 + 10)}, "stats at OriginalTTL")
			e.clock.Advance(time.Hour)
			eq(e, e.stats(), gateway.StoreStats{}, "stats past CompressedTTL")
		}},
		{Name: "expiry/on-put", Desc: "drops expired entries when another entry is put or looked up", opts: opts, body: func(e *env) {
			e.putOriginal("old", "12345")
			e.clock.Advance(5 * time.Minute)
			e.putOriginal("new", "12")
			eq(e, e.stats(), gateway.StoreStats{Originals: 1, Bytes: 5}, "stats after a put past the first TTL")
			e.clock.Advance(5 * time.Minute)
			eq(e, e.compressed("other"), missing, "compressed other")
			eq(e, e.stats(), gateway.StoreStats{}, "stats after a lookup past the second TTL")
		}},
		{Name: "expiry/restart", Desc: "restarts the TTL of an id put again", opts: opts, body: func(e *env) {
			e.putOriginal("a", "v1")
			e.putOriginal("b", "v1")
			e.clock.Advance(3 * time.Minute)
			e.putOriginal("a", "v2")
			e.clock.Advance(3 * time.Minute)
			eq(e, e.original("a"), "v2", "original a, put again 3 minutes later")
			eq(e, e.original("b"), missing, "original b")
			eq(e, e.stats(), gateway.StoreStats{Originals: 1, Bytes: 3}, "stats")
		}},
	}
}
