package memstore

import (
	"math"
	"strings"

	"github.com/toolout/toolout/core/gateway"
)

// EntryOverhead is the heap an entry holds beyond its key and value: the
// entry itself (links, expiry, order), its map slot at the map's load, and
// the string headers. Measured on 64-bit Go with the specs of Held.
const EntryOverhead = 160

// keyPrefix bounds what gateway.OriginalKey adds to the caller and the id
// it counts: the caller's length in digits and two colons.
const keyPrefix = 24

// HeapBound is the most heap a Store with opts holds in its entries
// (opts at their defaults where zero): MaxBytes of counted bytes, plus
// EntryOverhead and an original key's prefix for each of at most
// MaxEntries entries of each kind. The allocator's rounding of each value
// to its size class (at most an eighth of a small value, under 8 KiB of a
// large one) comes on top.
func HeapBound(opts gateway.StoreOptions) int64 {
	opts = opts.WithDefaults()
	const perEntry = 2 * (EntryOverhead + keyPrefix) // one entry of each kind
	if int64(opts.MaxEntries) > (math.MaxInt64-max(opts.MaxBytes, 0))/perEntry {
		return math.MaxInt64 // no bound that an int64 can hold
	}
	return opts.MaxBytes + int64(opts.MaxEntries)*perEntry
}

// hold copies key and value into allocations of their own and returns the
// copies with the heap the entry holds: the bytes of those allocations as
// the allocator sized them (strings.Builder.Cap) and EntryOverhead.
func hold(key, value string) (k, v string, heap int64) {
	k, nk := clone(key)
	v, nv := clone(value)
	return k, v, int64(nk+nv) + EntryOverhead
}

// take is hold for a value the caller gave away, in an allocation of held
// bytes: the key is copied, the value kept as it is.
func take(key, value string, held int) (k, v string, heap int64) {
	k, nk := clone(key)
	return k, value, int64(nk+max(held, len(value))) + EntryOverhead
}

func clone(s string) (string, int) {
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s)
	return b.String(), b.Cap()
}
