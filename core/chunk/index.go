package chunk

import (
	"encoding/binary"
	"sort"
)

// markEvery is the number of boundaries between two marks of an index.
const markEvery = 64

// index holds the piece boundaries of a document compactly: for boundary k
// (0 <= k <= n, boundary k being the start of piece k and boundary n the end
// of the document) its byte offset and the tokens before it. Boundaries are
// stored as differences from the one before, two varints (a byte each for
// pieces under 64 bytes and 64 tokens), with a mark every markEvery
// boundaries that gives its offset, tokens and place in the varints. That
// is about 2.4 bytes per piece, against 16 for two []int, so that planning
// a document of one-byte pieces ("a\n" repeated) costs about three bytes
// per byte of it rather than some twenty. Reading boundary k decodes its
// block of markEvery boundaries, which stays cached for the next reads:
// the planner reads boundaries near each other.
type index struct {
	n     int // pieces; boundaries are 0..n
	marks []mark
	data  []byte // boundaries that are not marks, as varint differences
	count int    // boundaries pushed
	last  mark   // the last boundary pushed

	blk int // the block in off and tok, or -1
	off [markEvery]int
	tok [markEvery]int
}

type mark struct{ off, tok, pos int }

// newIndex returns an empty index for a document of size bytes.
func newIndex(size int) *index {
	return &index{data: make([]byte, 0, size/2+16), blk: -1}
}

// push appends the next boundary: its byte offset and the tokens before it.
func (x *index) push(off, tok int) {
	if x.count%markEvery == 0 {
		x.marks = append(x.marks, mark{off, tok, len(x.data)})
	} else {
		x.data = binary.AppendVarint(x.data, int64(off-x.last.off))
		x.data = binary.AppendVarint(x.data, int64(tok-x.last.tok))
	}
	x.last = mark{off, tok, 0}
	x.count++
	x.n = x.count - 1
}

// at returns the byte offset of boundary k and the tokens before it.
func (x *index) at(k int) (off, tok int) {
	j := k / markEvery
	if k%markEvery == 0 {
		return x.marks[j].off, x.marks[j].tok
	}
	if j != x.blk {
		x.load(j)
	}
	return x.off[k%markEvery], x.tok[k%markEvery]
}

// load decodes block j: boundaries j·markEvery up to the next mark.
func (x *index) load(j int) {
	m := x.marks[j]
	x.off[0], x.tok[0] = m.off, m.tok
	pos := m.pos
	for i := 1; i < markEvery && j*markEvery+i <= x.n; i++ {
		d, w := binary.Varint(x.data[pos:])
		pos += w
		t, w := binary.Varint(x.data[pos:])
		pos += w
		x.off[i], x.tok[i] = x.off[i-1]+int(d), x.tok[i-1]+int(t)
	}
	x.blk = j
}

func (x *index) bound(k int) int {
	off, _ := x.at(k)
	return off
}

func (x *index) cum(k int) int {
	_, tok := x.at(k)
	return tok
}

// first returns the first boundary whose token position satisfies f, which
// must be false and then true along the boundaries (as for sort.Search), or
// n+1 when none does.
func (x *index) first(f func(tok int) bool) int {
	j := sort.Search(len(x.marks), func(j int) bool { return f(x.marks[j].tok) })
	if j == 0 {
		return 0
	}
	hi := x.n // the answer is after mark j−1 and at most mark j
	if j < len(x.marks) {
		hi = j * markEvery
	}
	for k := (j-1)*markEvery + 1; k <= hi; k++ {
		if f(x.cum(k)) {
			return k
		}
	}
	return x.n + 1
}
