package gateway

import (
	"encoding/binary"
	"hash/maphash"
)

// sampleEdge is how many bytes a sample hash reads at each of a long
// text's start, middle and end.
const sampleEdge = 512

// sampleHashString is a maphash of prefix, s's length and s's first,
// middle and last sampleEdge bytes (all of s when it is shorter than three
// of them). The memos that use it (of shadow ids, of strings offered once)
// take a sum only as a guess, checked against the bytes themselves or
// harmless when wrong, so a 200 KB text costs them 1.5 KB of hashing.
func sampleHashString(seed maphash.Seed, prefix, s string) uint64 {
	var h maphash.Hash
	sampleStart(&h, seed, prefix, len(s))
	spans, k := sampleSpans(len(s))
	for _, r := range spans[:k] {
		h.WriteString(s[r[0]:r[1]])
	}
	return h.Sum64()
}

// sampleHashBytes is sampleHashString of b.
func sampleHashBytes(seed maphash.Seed, prefix string, b []byte) uint64 {
	var h maphash.Hash
	sampleStart(&h, seed, prefix, len(b))
	spans, k := sampleSpans(len(b))
	for _, r := range spans[:k] {
		h.Write(b[r[0]:r[1]])
	}
	return h.Sum64()
}

// sampleStart sets h to seed and has it read prefix and the length n.
func sampleStart(h *maphash.Hash, seed maphash.Seed, prefix string, n int) {
	h.SetSeed(seed)
	h.WriteString(prefix)
	var l [8]byte
	h.Write(binary.LittleEndian.AppendUint64(l[:0], uint64(n)))
}

// sampleSpans are the first k spans of a text of n bytes a sample hash
// reads.
func sampleSpans(n int) (spans [3][2]int, k int) {
	if n <= 3*sampleEdge {
		return [3][2]int{{0, n}}, 1
	}
	mid := n/2 - sampleEdge/2
	return [3][2]int{{0, sampleEdge}, {mid, mid + sampleEdge}, {n - sampleEdge, n}}, 3
}
