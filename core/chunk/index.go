package chunk

import (
	"encoding/binary"
	"sort"
	"sync"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/tokens"
)

// markEvery is the number of boundaries between two marks of an index.
const markEvery = 32

// segmentSize is the size of the segments that hold an index's varints:
// fixed, so that the index grows without copying itself, and a block's
// varints (at most markEvery·2·binary.MaxVarintLen64 bytes) always fit in
// the segment it starts in.
const segmentSize = 64 << 10

// index holds the piece boundaries of a document compactly: for boundary k
// (0 <= k <= n, boundary k being the start of piece k and boundary n the end
// of the document) its byte offset and the tokens before it. Boundaries are
// stored as differences from the one before, two varints (a byte each for
// pieces under 64 bytes and 64 tokens), with a mark every markEvery
// boundaries that gives its offset, tokens and place in the varints. That
// is under 3 bytes per piece, against 16 for two []int, so that planning
// a document of one-byte pieces ("a\n" repeated) costs about three bytes
// per byte of it rather than some twenty. The varints live in segments of
// fixed size, so that growing the index never copies it (an append-grown
// slice would leave garbage as large as itself behind). Reading boundary k
// decodes its block of markEvery boundaries, which stays cached for the
// next reads: the planner reads boundaries near each other.
type index struct {
	n     int      // pieces; boundaries are 0..n
	marks [][]mark // marks, marksPerSegment to a segment
	segs  [][]byte // boundaries that are not marks, as varint differences
	count int      // boundaries pushed
	last  mark     // the last boundary pushed

	// blocks are the last blocks read, decoded: the planner reads a chunk's
	// start and end in turn, two blocks, and each cut's neighbourhood.
	blocks [cachedBlocks]block
	clock  int

	// resume, when set, appends to dst the n pieces from a boundary's byte
	// offset on: the index then keeps its marks only, and reading a block
	// walks its pieces again (see marker) into pieces.
	resume func(dst []core.Piece, from, n int) []core.Piece
	pieces []core.Piece

	hint int // the mark the last search found (searchMarks)
}

// cachedBlocks is how many decoded blocks an index keeps.
const cachedBlocks = 4

// block is the boundaries j·markEvery up to the next mark, decoded; used is
// the index's clock when it was last read.
type block struct {
	j, used  int
	off, tok [markEvery]int
}

// mark is a boundary whose offset and tokens are kept as they are, with
// where the varints of the boundaries after it start: segment seg, byte pos.
// seg and pos are int32: segments are 64 KiB, and 2^31 of them would hold
// more varints than any text has pieces. 24 bytes a mark.
type mark struct {
	off, tok int
	seg, pos int32
}

// blockBytes is the most bytes the varints of one block take.
const blockBytes = markEvery * 2 * binary.MaxVarintLen64

// marksPerSegment is the number of marks in a segment of them.
const marksPerSegment = 2048

// markSegments holds segments of marks for reuse: planning a document
// allocates one per 65,536 pieces, and fresh memory costs page faults and
// collections that counting alone does not pay.
var markSegments = sync.Pool{New: func() any { return new([marksPerSegment]mark) }}

// release hands x's segments of marks back for reuse; x is not used after.
func (x *index) release() {
	for _, ms := range x.marks {
		markSegments.Put((*[marksPerSegment]mark)(ms[:marksPerSegment]))
	}
	x.marks = nil
}

// mark returns mark j.
func (x *index) mark(j int) mark { return x.marks[j/marksPerSegment][j%marksPerSegment] }

// nmarks returns the number of marks.
func (x *index) nmarks() int { return (x.count + markEvery - 1) / markEvery }

// newIndex returns an empty index.
func newIndex() *index {
	x := &index{}
	for i := range x.blocks {
		x.blocks[i].j = -1
	}
	return x
}

// push appends the next boundary, its byte offset and the tokens before it,
// to an index that keeps every boundary (resume is not set: addMarks fills
// the other kind).
func (x *index) push(off, tok int) {
	if x.count%markEvery == 0 {
		if len(x.segs) == 0 || cap(x.segs[len(x.segs)-1])-len(x.segs[len(x.segs)-1]) < blockBytes {
			x.segs = append(x.segs, make([]byte, 0, segmentSize))
		}
		m := mark{off: off, tok: tok, seg: int32(len(x.segs) - 1)}
		m.pos = int32(len(x.segs[m.seg]))
		x.appendMark(m)
	} else {
		seg := &x.segs[len(x.segs)-1]
		*seg = binary.AppendVarint(*seg, int64(off-x.last.off))
		*seg = binary.AppendVarint(*seg, int64(tok-x.last.tok))
	}
	x.last = mark{off: off, tok: tok}
	x.count++
	x.n = x.count - 1
}

// appendMark appends m to the marks, in a new segment when the last is full.
func (x *index) appendMark(m mark) {
	if len(x.marks) == 0 || len(x.marks[len(x.marks)-1]) == marksPerSegment {
		x.marks = append(x.marks, markSegments.Get().(*[marksPerSegment]mark)[:0])
	}
	ms := &x.marks[len(x.marks)-1]
	*ms = append(*ms, m)
}

// addMarks appends the boundaries of WalkMarks to an index that keeps its
// marks only (resume is set): each is a mark but the last, which may fall
// between two. push would do, one boundary at a time; this loop over a
// batch costs planning a hundredth of counting less.
func (x *index) addMarks(batch []tokens.Mark) {
	for _, mk := range batch {
		if mk.Piece%markEvery == 0 {
			x.appendMark(mark{off: mk.Offset, tok: mk.Tokens})
		}
		x.last = mark{off: mk.Offset, tok: mk.Tokens}
		x.count = mk.Piece + 1
		x.n = mk.Piece
	}
}

// at returns the byte offset of boundary k and the tokens before it.
func (x *index) at(k int) (off, tok int) {
	j := k / markEvery
	if k%markEvery == 0 {
		m := x.mark(j)
		return m.off, m.tok
	}
	x.clock++
	lru := 0
	for i := range x.blocks {
		b := &x.blocks[i]
		if b.j == j {
			b.used = x.clock
			return b.off[k%markEvery], b.tok[k%markEvery]
		}
		if b.used < x.blocks[lru].used {
			lru = i
		}
	}
	b := &x.blocks[lru]
	x.load(j, b)
	b.used = x.clock
	return b.off[k%markEvery], b.tok[k%markEvery]
}

// load decodes block j, the boundaries j·markEvery up to the next mark,
// into b.
func (x *index) load(j int, b *block) {
	m := x.mark(j)
	b.off[0], b.tok[0] = m.off, m.tok
	b.j = j
	if x.resume != nil {
		limit := min(markEvery-1, x.n-j*markEvery) // boundaries after the mark
		if limit == 0 {
			return
		}
		x.pieces = x.resume(x.pieces[:0], m.off, limit)
		tok := m.tok
		for k, p := range x.pieces {
			tok += p.Tokens
			b.off[k+1], b.tok[k+1] = p.End, tok
		}
		return
	}
	data := x.segs[m.seg][m.pos:]
	for i := 1; i < markEvery && j*markEvery+i <= x.n; i++ {
		d, w := binary.Varint(data)
		data = data[w:]
		t, w := binary.Varint(data)
		data = data[w:]
		b.off[i], b.tok[i] = b.off[i-1]+int(d), b.tok[i-1]+int(t)
	}
}

func (x *index) bound(k int) int {
	off, _ := x.at(k)
	return off
}

func (x *index) cum(k int) int {
	_, tok := x.at(k)
	return tok
}

// searchMarks is sort.Search over the nm marks, galloping from x.hint, the
// last answer: the planner's searches move forward a chunk at a time, and a
// binary search over all the marks of a large document (2.3 MB of them for
// 10 MiB) misses the CPU cache at every step, which cost planning 10 MiB a
// twentieth of counting it.
func (x *index) searchMarks(nm int, f func(j int) bool) int {
	lo, hi := 0, nm // the answer is in [lo, hi]
	h := min(x.hint, nm)
	if h < nm && !f(h) {
		lo = h + 1
		for step := 1; lo+step < nm; step *= 2 {
			if f(lo + step) {
				hi = lo + step
				break
			}
			lo += step + 1
		}
	} else {
		hi = h
		for step := 1; hi-step >= 0; step *= 2 {
			if !f(hi - step) {
				lo = hi - step + 1
				break
			}
			hi -= step
		}
	}
	return lo + sort.Search(hi-lo, func(i int) bool { return f(lo + i) })
}

// first returns the first boundary whose token position satisfies f, which
// must be false and then true along the boundaries (as for sort.Search), or
// n+1 when none does.
func (x *index) first(f func(tok int) bool) int {
	nm := x.nmarks()
	j := x.searchMarks(nm, func(j int) bool { return f(x.mark(j).tok) })
	x.hint = j
	if j == 0 {
		return 0
	}
	hi := x.n // the answer is after mark j−1 and at most mark j
	if j < nm {
		hi = j * markEvery
	}
	for k := (j-1)*markEvery + 1; k <= hi; k++ {
		if f(x.cum(k)) {
			return k
		}
	}
	return x.n + 1
}
