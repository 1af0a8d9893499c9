package tokens

import (
	"encoding/base64"
	"math"
	"sync"
	"unicode/utf8"
)

var b64 = base64.StdEncoding

func b64len(src []byte) int { return b64.DecodedLen(len(src)) }

// treeThreshold is the piece length from which the tournament-tree merge
// beats the simple loop.
const treeThreshold = 48

// count returns the number of BPE tokens of one pre-split piece. valid
// reports that the whole text the piece comes from is valid UTF-8, which
// spares checking each piece. A piece with invalid bytes is counted as
// tiktoken-go counts it: each invalid byte becomes U+FFFD (replaceInvalid).
func (e *encoding) count(piece string, valid bool) int {
	if !valid && !utf8.ValidString(piece) {
		piece = replaceInvalid(piece)
	}
	if _, ok := e.ranks.get(piece); ok {
		return 1
	}
	switch {
	case len(piece) < treeThreshold:
		return e.countLoop(piece)
	case len(piece) > 2*window:
		return e.countLong(piece, window)
	}
	return e.countTree(piece)
}

const noRank = math.MaxInt32

// rank returns the rank of token s, or noRank when s is no token.
func (e *encoding) rank(s string) int32 {
	if r, ok := e.ranks.get(s); ok {
		return r
	}
	return noRank
}

// countLoop is tiktoken's merge: find the lowest-ranked adjacent pair
// (leftmost on ties), merge it, repeat. Quadratic in scans of a small array,
// and fastest for short pieces: the rank of each adjacent pair is kept, so a
// merge looks up only the two pairs it changes (tiktoken-go looks up every
// pair again after each merge, and lookups are most of counting's cost).
func (e *encoding) countLoop(piece string) int {
	var bbuf [treeThreshold + 1]int32
	var rbuf [treeThreshold]int32
	parts := len(piece)
	bounds := bbuf[:parts+1] // part i is piece[bounds[i]:bounds[i+1]]
	for i := range bounds {
		bounds[i] = int32(i)
	}
	ranks := rbuf[:parts-1] // ranks[i] is the rank of parts i and i+1 together
	for i := range ranks {
		ranks[i] = e.rank(piece[i : i+2])
	}
	for parts > 1 {
		best, at := int32(noRank), -1
		for i, r := range ranks[:parts-1] {
			if r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		copy(bounds[at+1:], bounds[at+2:parts+1])
		if at+2 < parts-1 {
			copy(ranks[at+1:], ranks[at+2:parts-1])
		}
		parts--
		if at+1 < parts {
			ranks[at] = e.rank(piece[bounds[at]:bounds[at+2]])
		}
		if at > 0 {
			ranks[at-1] = e.rank(piece[bounds[at-1]:bounds[at+1]])
		}
	}
	return parts
}

// countTree performs the same merges as countLoop in O(n log n); see merge.
func (e *encoding) countTree(piece string) int {
	m := mergers.Get().(*merger)
	n := m.merge(e, piece)
	if len(piece) <= 2*window { // keep small buffers only
		mergers.Put(m)
	}
	return n
}

// mergers holds reusable mergers, so that counting text of many medium
// pieces does not allocate for each.
var mergers = sync.Pool{New: func() any { return new(merger) }}

// merger holds the buffers of one merge, reused from window to window by
// countLong. Offsets are int32: pieces over 2 GiB are not supported.
type merger struct {
	next []int32 // next[i]: start of the part after the part starting at i, or n
	prev []int32 // prev[i]: start of the part before the part starting at i, or -1
	part []int32 // part[i]: the rank of the part starting at i, or -1 (a byte that is no token)
	// tree is a tournament tree over the part starts: leaf i (at size+i)
	// holds the key of the pair formed by the part at i and the next one,
	// rank<<32 | i, or none; each inner node holds the least key below it.
	tree []uint64
	// pairs caches the rank of two tokens together by their ranks, for enc:
	// a long piece asks for the same pairs again and again, and one slot
	// read here is cheaper than packing and hashing the bytes and probing
	// the rank table (1 MiB of one letter: 25 -> 33 MB/s).
	enc   *encoding
	pairs [pairSlots]uint64
}

// pairSlots entries of pairs, each a pair of ranks and the rank of the two
// tokens together, in fields of rankBits bits: (a+1)<<42 | (b+1)<<21 | r+1,
// with r+1 = 0 for no token. A zero entry matches no pair. Ranks are below
// 1<<rankBits - 1 (build checks the embedded files).
const (
	pairBits  = 10
	pairSlots = 1 << pairBits
	rankBits  = 21
	rankField = 1<<rankBits - 1
)

// pairRank returns the rank of the parts at i and j (j = next[i], which
// ends at end) together, through the cache when both parts are tokens.
func (m *merger) pairRank(e *encoding, piece string, i, j, end int32) int32 {
	a, b := m.part[i], m.part[j]
	if a < 0 || b < 0 {
		return e.rank(piece[i:end])
	}
	k := uint64(a+1)<<(2*rankBits) | uint64(b+1)<<rankBits
	h := (k * 0x9E3779B97F4A7C15) >> (64 - pairBits)
	if v := m.pairs[h]; v&^rankField == k {
		if f := int32(v & rankField); f != 0 {
			return f - 1
		}
		return noRank
	}
	r := e.rank(piece[i:end])
	if r != noRank {
		k |= uint64(r + 1)
	}
	m.pairs[h] = k
	return r
}

const none = math.MaxUint64

// merge performs the same merges as countLoop in O(n log n) and returns the
// number of parts left. The parts form a linked list (next, prev); the
// tournament tree always holds the current pair of each part, so its root is
// the lowest-ranked pair, leftmost on ties, and a merge updates three leaves
// (the merged part, the part absorbed, the part before). Afterwards m.next
// links the start of each final part to the start of the next one, from 0.
func (m *merger) merge(e *encoding, piece string) int {
	n := len(piece)
	m.next = resize(m.next, n+1)
	m.prev = resize(m.prev, n)
	m.part = resize(m.part, n)
	if m.enc != e {
		m.enc, m.pairs = e, [pairSlots]uint64{}
	}
	next, prev, part := m.next, m.prev, m.part
	for i := range n {
		next[i], prev[i], part[i] = int32(i+1), int32(i-1), e.ranks.one[piece[i]]
	}
	next[n] = int32(n) // sentinel: piece[i:next[next[i]]] for the last part
	size := 1
	for size < n {
		size *= 2
	}
	if cap(m.tree) >= 2*size {
		m.tree = m.tree[:2*size]
	} else {
		m.tree = make([]uint64, 2*size)
	}
	tree := m.tree
	key := func(i int32) uint64 {
		if int(next[i]) >= n {
			return none
		}
		j := next[i]
		r := m.pairRank(e, piece, i, j, next[j])
		if r == noRank {
			return none
		}
		return uint64(r)<<32 | uint64(i)
	}
	for i := range n - 1 { // pairs of single bytes: the two-byte table, not the pair cache (one letter: 33 -> 36 MB/s)
		tree[size+i] = none
		if r := e.ranks.two[uint(piece[i])<<8|uint(piece[i+1])]; r >= 0 {
			tree[size+i] = uint64(r)<<32 | uint64(i)
		}
	}
	for i := max(n-1, 0); i < size; i++ {
		tree[size+i] = none
	}
	for j := size - 1; j >= 1; j-- {
		tree[j] = min(tree[2*j], tree[2*j+1])
	}
	// set carries the new least key up in a register, reading only each
	// sibling: reading both children back from the tree made each level wait
	// for the store below it (one letter: 20 -> 25 MB/s)
	set := func(i int32, k uint64) {
		j := size + int(i)
		tree[j] = k
		for j > 1 {
			k = min(k, tree[j^1])
			j >>= 1
			if tree[j] == k {
				return // unchanged, and so is everything above it
			}
			tree[j] = k
		}
	}
	parts := n
	for tree[1] != none {
		i := int32(tree[1] & math.MaxUint32)
		part[i] = int32(tree[1] >> 32)
		mid := next[i]
		after := next[mid]
		next[i] = after
		if int(after) < n {
			prev[after] = i
		}
		parts--
		set(mid, none)
		set(i, key(i))
		if p := prev[i]; p >= 0 {
			set(p, key(p))
		}
	}
	return parts
}

// resize returns s with length n, reusing its array when it is large enough.
func resize(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n)
}
