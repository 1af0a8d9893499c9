package chunk

import (
	"encoding/binary"
	"strings"
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
	mru    int // the block read last

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
// the index's clock when it was last read. Of an index that keeps its marks
// only, the first filled boundaries are read (see fill).
type block struct {
	j, used  int
	filled   int
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

// addMarks appends a batch of WalkMarks(markEvery) to an index that keeps
// its marks only (resume is set): each is a mark but the end of the text,
// reported last, which may fall between two. push would do, one boundary at
// a time; a loop over the batch, without a call per mark, costs planning
// two hundredths of counting less.
func (x *index) addMarks(batch []tokens.Mark) {
	if len(batch) == 0 {
		return
	}
	end := batch[len(batch)-1]
	x.last = mark{off: end.Offset, tok: end.Tokens}
	x.count, x.n = end.Piece+1, end.Piece
	if end.Piece%markEvery != 0 {
		batch = batch[:len(batch)-1]
	}
	for len(batch) > 0 {
		if len(x.marks) == 0 || len(x.marks[len(x.marks)-1]) == marksPerSegment {
			x.marks = append(x.marks, markSegments.Get().(*[marksPerSegment]mark)[:0])
		}
		ms := &x.marks[len(x.marks)-1]
		n := min(marksPerSegment-len(*ms), len(batch))
		for _, mk := range batch[:n] {
			*ms = append(*ms, mark{off: mk.Offset, tok: mk.Tokens})
		}
		batch = batch[n:]
	}
}

// at returns the byte offset of boundary k and the tokens before it.
func (x *index) at(k int) (off, tok int) {
	j, i := k/markEvery, k%markEvery
	b := &x.blocks[x.mru]
	if b.j != j {
		if i == 0 {
			m := x.mark(j)
			return m.off, m.tok
		}
		b = x.block(j)
	}
	if i >= b.filled {
		x.fill(b, i)
	}
	return b.off[i], b.tok[i]
}

// block returns block j from the cache, loaded into the least recently read
// slot when it is not there, and makes it the most recent.
func (x *index) block(j int) *block {
	x.clock++
	lru := 0
	for i := range x.blocks {
		b := &x.blocks[i]
		if b.j == j {
			b.used, x.mru = x.clock, i
			return b
		}
		if b.used < x.blocks[lru].used {
			lru = i
		}
	}
	b := &x.blocks[lru]
	x.load(j, b)
	b.used, x.mru = x.clock, lru
	return b
}

// load decodes block j, the boundaries j·markEvery up to the next mark,
// into b: all of them from the varints, or only the mark of an index that
// keeps its marks only (fill walks the others as they are read).
func (x *index) load(j int, b *block) {
	m := x.mark(j)
	b.off[0], b.tok[0] = m.off, m.tok
	b.j, b.filled = j, 1
	if x.resume != nil {
		return
	}
	b.filled = markEvery
	data := x.segs[m.seg][m.pos:]
	for i := 1; i < markEvery && j*markEvery+i <= x.n; i++ {
		d, w := binary.Varint(data)
		data = data[w:]
		t, w := binary.Varint(data)
		data = data[w:]
		b.off[i], b.tok[i] = b.off[i-1]+int(d), b.tok[i-1]+int(t)
	}
}

// fillStep is the fewest pieces fill walks at a time.
const fillStep = 8

// fill walks the pieces of block b again, from its last filled boundary up
// to boundary i at least (fillStep pieces at least, up to the block's end):
// the planner reads a block from a search that stops about half way
// through it, or near one end, so walking all of it at load cost a third
// more walking than reading on demand.
func (x *index) fill(b *block, i int) {
	limit := min(markEvery-1, x.n-b.j*markEvery) // boundaries after the mark
	n := min(max(i, b.filled-1+fillStep), limit) - (b.filled - 1)
	x.pieces = x.resume(x.pieces[:0], b.off[b.filled-1], n)
	tok := b.tok[b.filled-1]
	for _, p := range x.pieces {
		tok += p.Tokens
		b.off[b.filled], b.tok[b.filled] = p.End, tok
		b.filled++
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

// lineBack returns the last boundary from k back whose piece before it ends
// a line (a '\n'), of those with at least floor tokens before them, or -1.
// A block whose bytes hold no line break is stepped over without reading
// it: walking its pieces again would find none.
func (x *index) lineBack(text string, k, floor int) int {
	for k > 0 {
		off, tok := x.at(k)
		if tok < floor {
			return -1
		}
		if text[off-1] == '\n' {
			return k
		}
		if k%markEvery == 0 {
			// The boundaries between mark j and k end pieces within
			// text[mark j : off−1].
			j := k/markEvery - 1
			if strings.IndexByte(text[x.mark(j).off:off-1], '\n') < 0 {
				k = j * markEvery
				continue
			}
		}
		k--
	}
	return -1
}

// lineForward returns the first boundary from k on, before the end, whose
// piece before it ends a line, of those with at most ceil tokens before
// them, or -1; blocks without a line break are stepped over as by lineBack.
func (x *index) lineForward(text string, k, ceil int) int {
	nm := x.nmarks()
	for k < x.n {
		off, tok := x.at(k)
		if tok > ceil {
			return -1
		}
		if k > 0 && text[off-1] == '\n' {
			return k
		}
		if j := k / markEvery; k%markEvery == 0 && j+1 < nm {
			// The boundaries between k and mark j+1 end pieces within
			// text[off : mark j+1 − 1].
			if next := x.mark(j + 1).off; strings.IndexByte(text[off:next-1], '\n') < 0 {
				k = (j + 1) * markEvery
				continue
			}
		}
		k++
	}
	return -1
}

// searchMarks returns the first of the nm marks with at least t tokens
// before it, or nm, galloping from x.hint, the last answer: the planner's
// searches move forward a chunk at a time, and a binary search over all the
// marks of a large document (2.3 MB of them for 10 MiB) misses the CPU cache
// at every step, which cost planning 10 MiB a twentieth of counting it.
func (x *index) searchMarks(nm, t int) int {
	at := func(j int) bool { return x.mark(j).tok >= t }
	lo, hi := 0, nm // the answer is in [lo, hi]
	h := min(x.hint, nm)
	if h < nm && !at(h) {
		lo = h + 1
		for step := 1; lo+step < nm; step *= 2 {
			if at(lo + step) {
				hi = lo + step
				break
			}
			lo += step + 1
		}
	} else {
		hi = h
		for step := 1; hi-step >= 0; step *= 2 {
			if !at(hi - step) {
				lo = hi - step + 1
				break
			}
			hi -= step
		}
	}
	for lo < hi { // sort.Search, without its call per step
		mid := int(uint(lo+hi) >> 1)
		if at(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// first returns the first boundary with at least t tokens before it, or
// n+1 when none has.
func (x *index) first(t int) int {
	nm := x.nmarks()
	j := x.searchMarks(nm, t)
	x.hint = j
	if j == 0 {
		return 0
	}
	if j < nm {
		last := j*markEvery - 1 // the answer is after mark j−1 and at most mark j
		b := x.block(j - 1)
		for i := 1; i < markEvery; i++ {
			if i >= b.filled {
				x.fill(b, i)
			}
			if b.tok[i] >= t {
				return last - markEvery + 1 + i
			}
		}
		return last + 1
	}
	for k := (j-1)*markEvery + 1; k <= x.n; k++ { // the last block: no mark after it
		if x.cum(k) >= t {
			return k
		}
	}
	return x.n + 1
}
