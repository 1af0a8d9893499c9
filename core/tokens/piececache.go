package tokens

import (
	"sync/atomic"
	"unicode/utf8"
)

// pieceCache remembers the token counts of recent short pieces, by their
// bytes. Text repeats its pieces (a log's keys, levels and timestamps'
// punctuation, JSON's field names, code's keywords), and a piece that is no
// single token costs a failed rank lookup and a merge of several more; a
// hit here costs one slot read that stays in the CPU cache. Direct-mapped:
// a new piece takes its slot. The count of a piece is a function of its
// bytes alone (invalid bytes included: count replaces them the same way
// every time), so a cache serves every text of its encoding; a counting
// loop takes one from its encoding's cachePool and hands it back, so no two
// goroutines share one.
type pieceCache struct {
	slots [cacheSlots]cacheSlot
	long  [longSlots]longSlot
}

// longSlot is one piece of packedMax+1 to longMax bytes, its bytes copied
// in (n = 0: an empty slot), and its token count. cl100k_base keeps a
// CamelCase identifier whole (" newClientServerTest"), and code indents
// with runs of spaces: real source code has a few thousand such pieces a
// MiB, a few hundred distinct, each a merge of some fifty rank lookups
// when counted again (TypeScript in cl100k_base: a third of the time).
type longSlot struct {
	n      uint32
	tokens int32
	b      [longMax]byte
}

// longMax is the longest piece the long slots keep; longBits sizes them:
// 2,048 slots of 56 bytes, 112 KiB.
const (
	longMax   = 48
	longBits  = 11
	longSlots = 1 << longBits
)

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
	switch n := len(piece); {
	case n > packedMax:
		return c.countLong(e, piece, valid)
	case n == 1 && piece[0] < utf8.RuneSelf: // every byte is a token
		return 1
	case n == 2 && piece[0]|piece[1] < utf8.RuneSelf: // a two-byte token, or two of one byte
		if e.ranks.two[uint(piece[0])<<8|uint(piece[1])] >= 0 {
			return 1
		}
		return 2
	}
	var lo, hi uint64 // pack(piece), written out: a call per piece cost the counting loop a tenth
	switch n := len(piece); {
	case n >= 8:
		lo = le64(piece)
		if n > 8 {
			hi = le64(piece[n-8:]) >> (8 * (16 - n))
		}
	case n >= 4:
		lo = le32(piece) | le32(piece[n-4:])<<(8*(n-4))
	case n > 0:
		lo = uint64(piece[0]) | uint64(piece[n/2])<<(8*(n/2)) | uint64(piece[n-1])<<(8*(n-1))
	}
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

// countLong is count for a piece over packedMax bytes: through the long
// slots up to longMax bytes, compared byte for byte.
func (c *pieceCache) countLong(e *encoding, piece string, valid bool) int {
	n := len(piece)
	if n > longMax {
		return e.count(piece, valid)
	}
	h := (le64(piece) ^ uint64(n)<<56) * 0x9E3779B97F4A7C15
	h = (h ^ le64(piece[8:])*0xC2B2AE3D27D4EB4F) * 0x94D049BB133111EB
	h = (h ^ le64(piece[n-8:])) * 0x9E3779B97F4A7C15
	s := &c.long[h>>(64-longBits)]
	if s.n == uint32(n) && string(s.b[:n]) == piece {
		return int(s.tokens)
	}
	k := e.count(piece, valid)
	s.n, s.tokens = uint32(n), int32(k)
	copy(s.b[:], piece)
	return k
}

// freeCaches is how many idle piece caches an encoding keeps.
const freeCaches = 8

// cachePool keeps up to freeCaches idle piece caches of one encoding. Not a
// sync.Pool: a collection empties that, and a counting loop would then
// allocate a fresh cache (192 KiB) on its next call, whatever the size of
// its text (testing's benchmarks collect before every run, so 10 MiB
// counted in three runs showed three times the memory of 1 MiB in thirty).
// Taking and handing back are an atomic swap each; more concurrent loops
// than slots allocate caches that are then dropped.
type cachePool struct {
	free [freeCaches]atomic.Pointer[pieceCache]
}

// get returns an idle cache, or a new one.
func (p *cachePool) get() *pieceCache {
	for i := range p.free {
		if c := p.free[i].Swap(nil); c != nil {
			return c
		}
	}
	return new(pieceCache)
}

// put hands c back, or drops it when every slot holds one.
func (p *cachePool) put(c *pieceCache) {
	for i := range p.free {
		if p.free[i].CompareAndSwap(nil, c) {
			return
		}
	}
}
