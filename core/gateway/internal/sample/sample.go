// Package sample hashes a sample of a long text: its length and its
// first, middle and last 512 bytes. The gateway's memos (of shadow ids, of
// the long strings of request bodies) take such a sum only as a guess,
// checked against the bytes themselves or harmless when wrong, so a 200 KB
// text costs them 1.5 KB of hashing instead of 200 KB.
package sample

import (
	"encoding/binary"
	"hash/maphash"
)

// edge is how many bytes a sample hash reads at each of a long
// text's start, middle and end.
const edge = 512

// String is a maphash of prefix, s's length and s's first,
// middle and last edge bytes (all of s when it is shorter than three
// of them). The memos that use it (of shadow ids, of strings offered once)
// take a sum only as a guess, checked against the bytes themselves or
// harmless when wrong, so a 200 KB text costs them 1.5 KB of hashing.
func String(seed maphash.Seed, prefix, s string) uint64 {
	var h maphash.Hash
	start(&h, seed, prefix, len(s))
	spans, k := spansOf(len(s))
	for _, r := range spans[:k] {
		h.WriteString(s[r[0]:r[1]])
	}
	return h.Sum64()
}

// Bytes is String of b.
func Bytes(seed maphash.Seed, prefix string, b []byte) uint64 {
	var h maphash.Hash
	start(&h, seed, prefix, len(b))
	spans, k := spansOf(len(b))
	for _, r := range spans[:k] {
		h.Write(b[r[0]:r[1]])
	}
	return h.Sum64()
}

// start sets h to seed and has it read prefix and the length n.
func start(h *maphash.Hash, seed maphash.Seed, prefix string, n int) {
	h.SetSeed(seed)
	h.WriteString(prefix)
	var l [8]byte
	h.Write(binary.LittleEndian.AppendUint64(l[:0], uint64(n)))
}

// spansOf gives the first k spans of a text of n bytes a sample hash
// reads.
func spansOf(n int) (spans [3][2]int, k int) {
	if n <= 3*edge {
		return [3][2]int{{0, n}}, 1
	}
	mid := n/2 - edge/2
	return [3][2]int{{0, edge}, {mid, mid + edge}, {n - edge, n}}, 3
}
