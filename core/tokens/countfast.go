package tokens

// marker is where the counting loop stands, for WalkMarks' marks: the
// pieces and tokens counted so far, the pieces left before the next mark,
// and the marks found, buf[:n], at most limit (up to markBatch). Count runs
// with left beyond any text's pieces, and PiecesFrom with a mark at every
// boundary and a limit, which stops the loop after limit+1 pieces. Marks
// are written into an array of plain values, so that keeping one calls
// nothing (an append grows a slice and a slice header written through a
// pointer takes a write barrier: either put a call in the counting loop,
// and the compiler then kept the loop's variables on the stack, a tenth
// more instructions a piece).
type marker struct {
	pieces, tokens int
	every, left    int
	n, limit       int
	buf            *[markBatch]Mark
	// the counting loop's encoding and cache, read from here rather than
	// passed: each argument held in a register for the whole loop left
	// fewer for the piece at hand (countBlocks)
	o200k bool
	sets  *[cacheSets]cacheSet
	small *[smallSets]smallSet
	long  *[longSets]longSet
}

// mark records the mark of the boundary before the next piece, at i, if
// one is due (left is 0): it resets left and reports true, or reports false
// when the marks are at their limit and the caller must hand them over
// first. countFast calls it before each piece it counts; countBlocks
// writes it out.
func (mk *marker) mark(i int) bool {
	if mk.left > 0 {
		return true
	}
	if mk.n == mk.limit {
		return false
	}
	mk.buf[mk.n&(markBatch-1)] = Mark{Piece: mk.pieces, Offset: i, Tokens: mk.tokens}
	mk.n, mk.left = mk.n+1, mk.every
	return true
}

// marks returns the marks recorded.
func (mk *marker) marks() []Mark { return mk.buf[:mk.n] }

// countFast is the counting loop of cl100k_base and o200k_base, and of
// each stretch of o200k_harmony between two special tokens. It counts from
// i to the end of s, or until a mark is due and mk holds no more, and
// returns where it stopped. countBlocks counts the pieces of ASCII text, a
// window of 64 bytes at a time, from the piece cache; a piece that no
// window decides (near a byte past ASCII, in a run of over 60 bytes, in the
// text's last 64 bytes) or that the cache misses comes back here, which
// counts that one piece with the encoding's splitter and pieceCache.count,
// which keeps it, and goes back in.
//
// Most of counting's time on real text had gone to calls (the splitter, its
// helpers, the cache lookup), each saving and restoring the loop's
// registers: about 350 instructions a piece of Go's net/http in
// cl100k_base. A loop that split a piece at a time on the splitters' ASCII
// paths, with no call in it, took about 140, and branched on each piece's
// kind, which source code does not let a predictor learn (578,000
// mispredicts a warm MiB of net/http in cl100k_base, 782,000 in
// o200k_base). countBlocks takes about 125 (33.7 million a warm MiB;
// o200k_base 36.0 million, 43.4 before), with 70,000 and 53,000
// mispredicts. Once the windows counted most pieces, that loop counted only
// the ones they left, one at a time, with no fewer instructions than the
// splitter and the cache here (more, on text with bytes past ASCII every
// few words), and it was removed. Marks are kept in countBlocks, not by
// returning to WalkMarks every few pieces: a call a block of 32 pieces,
// three layers deep, cost chunk planning a tenth over counting alone.
// WalkMarks walks through this loop and Pieces through the splitter, so
// the specs that hold the two to the same pieces (and FuzzCount) check that
// they split alike.
func (e *encoding) countFast(c *pieceCache, s string, i int, mk *marker, valid bool) int {
	mk.o200k, mk.sets, mk.long, mk.small = e.o200k, &c.sets, &c.long, &c.small
	for {
		if i = countBlocks(s, i, mk); i >= len(s) || !mk.mark(i) {
			return i
		}
		j := e.match(s, i)
		mk.tokens += c.count(e, s[i:j], valid)
		mk.pieces, mk.left, i = mk.pieces+1, mk.left-1, j
	}
}
