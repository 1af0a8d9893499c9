package tokens

import "math/bits"

// rankTable maps a token's bytes to its rank. Counting is mostly rank
// lookups (one per piece, and a few per pair while merging), and a Go map
// keyed by string costs about three cache misses per lookup on a table of
// 100,000 tokens: its control word, its slot, and the key's bytes, which sit
// elsewhere in memory. Here a token of up to 16 bytes (all but a few hundred
// of each encoding's) is packed into two words held in the slot itself, so a
// lookup hashes two words and reads one slot, usually one cache line; the
// rest stay in a Go map. Open addressing, linear probing, at most half full.
// Tokens of one and two bytes, which the first round of every merge looks
// up, are read straight from arrays indexed by their bytes (256 KiB, which
// stays in the CPU cache while the hashed slots do not).
//
// Most lookups of three bytes or more are of strings that are no token (a
// merge asks for every adjacent pair; on random letters 19 of 20 such
// lookups fail), and the slots (6 MB for cl100k, 12 MB for o200k) do not
// stay in the CPU cache. So each slot has a one-byte tag beside it, in an
// array of its own (a quarter or half a MiB, which does stay): eight bits of
// the hash that the slot's index does not use, never zero, which marks an
// empty slot. A lookup walks the tags and reads a slot only where the tag
// matches: a failing lookup reads a slot once in 255 probes.
type rankTable struct {
	one   [1 << 8]int32  // rank of each byte, or -1
	two   [1 << 16]int32 // rank of each two-byte token by its bytes, or -1
	slots []rankSlot
	tags  []uint8 // tags[i]: slot i's tag, or 0 when it is empty
	shift uint    // 64 - log2(len(slots))
	mask  uint64
	long  map[string]int32 // tokens over 16 bytes
	// maxLen is the length of the longest token: nothing longer is looked up.
	maxLen int
}

// rankSlot is one token of up to 16 bytes: its bytes little-endian in lo
// (the first eight) and hi, zero-padded, its length n (0: an empty slot; no
// token is empty) and its rank.
type rankSlot struct {
	lo, hi uint64
	n      uint32
	rank   int32
}

const packedMax = 16

func newRankTable(tokens int) *rankTable {
	size := 1
	for size < 2*tokens {
		size *= 2
	}
	t := &rankTable{slots: make([]rankSlot, size), tags: make([]uint8, size), shift: uint(64 - bits.TrailingZeros(uint(size))),
		mask: uint64(size - 1), long: map[string]int32{}}
	for i := range t.one {
		t.one[i] = -1
	}
	for i := range t.two {
		t.two[i] = -1
	}
	return t
}

// add records tok's rank; a token added twice keeps its last rank.
func (t *rankTable) add(tok string, rank int32) {
	t.maxLen = max(t.maxLen, len(tok))
	switch len(tok) {
	case 1:
		t.one[tok[0]] = rank
	case 2:
		t.two[uint(tok[0])<<8|uint(tok[1])] = rank
	}
	if len(tok) > packedMax {
		t.long[tok] = rank
		return
	}
	lo, hi := pack(tok)
	n := uint32(len(tok))
	i, tag := t.slot(lo, hi, n)
	for ; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.n == 0 || s.lo == lo && s.hi == hi && s.n == n {
			*s = rankSlot{lo: lo, hi: hi, n: n, rank: rank}
			t.tags[i] = tag
			return
		}
	}
}

// get returns tok's rank and whether tok is a token.
func (t *rankTable) get(tok string) (int32, bool) {
	switch len(tok) {
	case 1:
		r := t.one[tok[0]]
		return r, r >= 0
	case 2:
		r := t.two[uint(tok[0])<<8|uint(tok[1])]
		return r, r >= 0
	}
	if len(tok) > packedMax {
		if len(tok) > t.maxLen {
			return 0, false
		}
		r, ok := t.long[tok]
		return r, ok
	}
	lo, hi := pack(tok)
	n := uint32(len(tok))
	i, tag := t.slot(lo, hi, n)
	for ; ; i = (i + 1) & t.mask {
		switch t.tags[i] {
		case tag:
			if s := &t.slots[i]; s.lo == lo && s.hi == hi && s.n == n {
				return s.rank, true
			}
		case 0:
			return 0, false
		}
	}
}

// slot returns the first slot to probe for the token packed as lo, hi, n,
// and its tag: the eight bits of the hash below the index's, never 0.
func (t *rankTable) slot(lo, hi uint64, n uint32) (uint64, uint8) {
	h := (lo ^ uint64(n)<<56) * 0x9E3779B97F4A7C15
	h ^= hi * 0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	h *= 0x94D049BB133111EB
	return h >> t.shift, max(uint8(h>>(t.shift-8)), 1)
}

// pack returns the bytes of s (at most 16) as two little-endian words,
// zero-padded. Loads overlap rather than loop: a string of 4 to 8 bytes is
// read as its first four and its last four, shifted into place.
func pack(s string) (lo, hi uint64) {
	switch n := len(s); {
	case n >= 8:
		lo = le64(s)
		if n > 8 {
			hi = le64(s[n-8:]) >> (8 * (16 - n))
		}
	case n >= 4:
		lo = le32(s) | le32(s[n-4:])<<(8*(n-4))
	case n > 0:
		lo = uint64(s[0]) | uint64(s[n/2])<<(8*(n/2)) | uint64(s[n-1])<<(8*(n-1))
	}
	return lo, hi
}

// le64 and le32 read the first bytes of s little-endian; the compiler turns
// each into one load.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint64 {
	_ = s[3]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
}
