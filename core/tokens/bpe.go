package tokens

import (
	"encoding/base64"
	"math"
)

var b64 = base64.StdEncoding

func b64len(src []byte) int { return b64.DecodedLen(len(src)) }

// heapThreshold is the piece length from which the priority-queue merge beats
// the simple loop.
const heapThreshold = 48

// count returns the number of BPE tokens of one pre-split piece.
func (e *encoding) count(piece string) int {
	if _, ok := e.ranks[piece]; ok {
		return 1
	}
	if len(piece) < heapThreshold {
		return e.countLoop(piece)
	}
	return e.countHeap(piece)
}

const noRank = math.MaxInt32

func (e *encoding) rank(s string) int {
	if len(s) > e.maxLen {
		return noRank // longer than any token: skip hashing it
	}
	if r, ok := e.ranks[s]; ok {
		return r
	}
	return noRank
}

// countLoop is tiktoken's merge: find the lowest-ranked adjacent pair (leftmost
// on ties), merge it, repeat. Quadratic, and fastest for short pieces.
func (e *encoding) countLoop(piece string) int {
	var buf [heapThreshold + 1]int
	bounds := buf[:0]
	for i := 0; i <= len(piece); i++ {
		bounds = append(bounds, i)
	}
	for len(bounds) > 2 {
		best, at := noRank, -1
		for i := 0; i+2 < len(bounds); i++ {
			if r := e.rank(piece[bounds[i]:bounds[i+2]]); r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		bounds = append(bounds[:at+1], bounds[at+2:]...)
	}
	return len(bounds) - 1
}

// countHeap performs the same merges as countLoop in O(n log n): the parts form
// a linked list, and candidate pairs wait in a heap ordered by (rank, start).
// A popped candidate is stale when either part has changed since it was
// pushed; such candidates are skipped.
func (e *encoding) countHeap(piece string) int {
	n := len(piece)
	next := make([]int32, n) // next[i]: start of the part after the part starting at i, or n
	prev := make([]int32, n)
	ver := make([]int32, n) // bumped whenever the part starting at i changes
	for i := range n {
		next[i], prev[i] = int32(i+1), int32(i-1)
	}
	// next[n-1] == n, so piece[i:next[next[i]]] needs a sentinel for next[n].
	next = append(next, int32(n))
	candidate := func(i int32) (pair, bool) {
		if i < 0 || int(next[i]) >= n {
			return pair{}, false
		}
		r := e.rank(piece[i:next[next[i]]])
		return pair{rank: int32(r), start: i, mid: next[i], ver: ver[i], midVer: ver[next[i]]}, r != noRank
	}
	h := make(pairHeap, 0, n)
	for i := int32(0); int(i)+1 < n; i++ {
		if p, ok := candidate(i); ok {
			h = append(h, p)
		}
	}
	h.init()
	push := func(i int32) {
		if p, ok := candidate(i); ok {
			h.push(p)
		}
	}
	parts := n
	for len(h) > 0 {
		p := h.pop()
		if ver[p.start] != p.ver || next[p.start] != p.mid || ver[p.mid] != p.midVer {
			continue
		}
		// Merge the part at p.mid into the part at p.start.
		after := next[p.mid]
		next[p.start] = after
		if int(after) < n {
			prev[after] = p.start
		}
		ver[p.start]++
		ver[p.mid]++
		parts--
		push(prev[p.start])
		push(p.start)
	}
	return parts
}

// pair is a merge candidate: the part at start followed by the part at mid.
// int32 keeps the heap compact; pieces longer than 2 GiB are not supported.
type pair struct {
	rank, start, mid int32
	ver, midVer      int32
}

// pairHeap is a binary min-heap of pairs ordered by (rank, start), typed to
// avoid container/heap's boxing of every element.
type pairHeap []pair

func (h pairHeap) less(i, j int) bool {
	if h[i].rank != h[j].rank {
		return h[i].rank < h[j].rank
	}
	return h[i].start < h[j].start
}

func (h *pairHeap) push(p pair) {
	*h = append(*h, p)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s.less(i, parent) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h pairHeap) down(i int) {
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && h.less(l, m) {
			m = l
		}
		if r < len(h) && h.less(r, m) {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func (h *pairHeap) pop() pair {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	s.down(0)
	*h = s
	return top
}
