package tokens

import "sync"

// pieceCache remembers the token counts of recent short pieces, by their
// bytes. Text repeats its pieces (a log's keys, levels and timestamps'
// punctuation, JSON's field names, code's keywords), and a piece that is no
// single token costs a failed rank lookup and a merge of several more; a
// hit here costs one slot read that stays in the CPU cache. Direct-mapped:
// a new piece takes its slot. The count of a piece is a function of its
// bytes alone (invalid bytes included: count replaces them the same way
// every time), so a cache serves every text of its encoding; one is taken
// from a pool per call, never shared between goroutines.
type pieceCache struct {
	slots [cacheSlots]cacheSlot
}

// cacheSlot is one piece of at most packedMax bytes, packed as in the rank
// table (n = 0: an empty slot; no piece is empty), and its token count.
type cacheSlot struct {
	lo, hi uint64
	n      uint32
	tokens int32
}

// cacheBits sizes the cache: 8,192 slots of 24 bytes, 192 KiB, which stay in
// the CPU's second-level cache next to the hot part of the rank table.
const (
	cacheBits  = 13
	cacheSlots = 1 << cacheBits
)

// count is e.count through the cache.
func (c *pieceCache) count(e *encoding, piece string, valid bool) int {
	if len(piece) > packedMax {
		return e.count(piece, valid)
	}
	lo, hi := pack(piece)
	n := uint32(len(piece))
	h := (lo ^ uint64(n)<<56) * 0x9E3779B97F4A7C15
	h = (h ^ hi*0xC2B2AE3D27D4EB4F) * 0x94D049BB133111EB
	s := &c.slots[h>>(64-cacheBits)]
	if s.lo == lo && s.hi == hi && s.n == n {
		return int(s.tokens)
	}
	k := e.count(piece, valid)
	*s = cacheSlot{lo: lo, hi: hi, n: n, tokens: int32(k)}
	return k
}

// cache takes a piece cache of e's from its pool; put it back with
// e.caches.Put when done.
func (e *encoding) cache() *pieceCache { return e.caches.Get().(*pieceCache) }

// newCaches returns the pool of piece caches of one encoding.
func newCaches() sync.Pool { return sync.Pool{New: func() any { return new(pieceCache) }} }
