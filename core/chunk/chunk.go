package chunk

import (
	"errors"
	"fmt"
	"math"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/tokens"
)

// DefaultOverlap is the overlap fraction of the spec (10%).
const DefaultOverlap = 0.10

// Chunk is one planned chunk: the bytes [Start, End) of the document.
type Chunk struct {
	// Index is 1-based.
	Index int `json:"index"`
	Start int `json:"start"`
	End   int `json:"end"`
	// Tokens is the chunk's token count (the sum of its pieces).
	Tokens int `json:"tokens"`
	// OverlapTokens is how many tokens it shares with the previous chunk.
	OverlapTokens int `json:"overlap_tokens"`
}

// Plan is the chunking of one document.
type Plan struct {
	// Tokens is the document's token count.
	Tokens int `json:"tokens"`
	// Budget is the most tokens a chunk may hold, overlap included.
	Budget int `json:"budget"`
	// Overlap is the target overlap in tokens, floor(fraction × Budget).
	Overlap int `json:"overlap"`
	// Target is the balanced chunk size, ceil((T + (N−1)·O) / N).
	Target int     `json:"target"`
	Chunks []Chunk `json:"chunks"`
}

// Errors of Make; they are wrapped with the details.
var (
	ErrBudget   = errors.New("budget must be positive")
	ErrOverlap  = errors.New("overlap must be at least 0 and below 0.5")
	ErrTooLarge = errors.New("a piece is larger than the budget")
)

// Make plans the chunks of text for a budget of tokens per chunk and an
// overlap fraction (DefaultOverlap is the spec's 10%). See the package
// documentation for the algorithm and its guarantees.
func Make(text string, tk core.Tokenizer, budget int, overlap float64) (Plan, error) {
	if budget <= 0 {
		return Plan{}, fmt.Errorf("chunk: budget %d: %w", budget, ErrBudget)
	}
	if overlap < 0 || overlap >= 0.5 || math.IsNaN(overlap) {
		return Plan{}, fmt.Errorf("chunk: overlap %v: %w", overlap, ErrOverlap)
	}
	// Boundaries: boundary k is the byte offset before piece k (boundary n
	// is the end) and the tokens before it, kept compactly in an index.
	x := newIndex()
	defer x.release()
	var err error
	if m, ok := tk.(marker); ok {
		err = x.fromMarks(text, m, budget)
	} else {
		err = x.fromPieces(text, tk, budget)
	}
	if err != nil {
		return Plan{}, err
	}
	return plan(text, x, budget, overlap)
}

// tooLarge is Make's error for a piece of more than budget tokens.
func tooLarge(start, end, tokens, budget int) error {
	return fmt.Errorf("chunk: piece at bytes %d-%d has %d tokens, budget %d: %w", start, end, tokens, budget, ErrTooLarge)
}

// fromPieces fills x with every boundary of text, from a tokenizer that
// hands its pieces over one by one (WalkPieces) or as a slice.
func (x *index) fromPieces(text string, tk core.Tokenizer, budget int) error {
	total := 0
	var err error
	add := func(start, end, tokens int) {
		if tokens > budget && err == nil {
			err = tooLarge(start, end, tokens, budget)
		}
		x.push(start, total)
		total += tokens
	}
	if w, ok := tk.(pieceWalker); ok {
		w.WalkPieces(text, add)
	} else {
		for _, p := range tk.Pieces(nil, text) {
			add(p.Start, p.End, p.Tokens)
		}
	}
	x.push(len(text), total)
	return err
}

// fromMarks fills x with the marks of text only, every markEvery boundaries
// and the last; reading a boundary between two walks their block again.
// A block of more tokens than the budget may hold a piece over it: its
// pieces are walked again to check, and the first such piece is an error
// (with a budget of thousands of tokens, as chunks for a model have, no
// block of 32 pieces comes near it; a budget of a few tokens walks most
// blocks twice).
func (x *index) fromMarks(text string, m marker, budget int) error {
	x.resume = func(dst []core.Piece, from, n int) []core.Piece { return m.PiecesFrom(dst, text, from, n) }
	var err error
	prev := tokens.Mark{}
	m.WalkMarks(text, markEvery, func(batch []tokens.Mark) bool {
		for i, mk := range batch {
			if mk.Tokens-prev.Tokens > budget {
				if err = x.checkBlock(prev, mk.Piece-prev.Piece, budget); err != nil {
					x.addMarks(batch[:i])
					return false
				}
			}
			prev = mk
		}
		x.addMarks(batch)
		return true
	})
	return err
}

// checkBlock walks the n pieces from mark from again and returns Make's
// error for the first of more tokens than the budget, if one is.
func (x *index) checkBlock(from tokens.Mark, n, budget int) error {
	x.pieces = x.resume(x.pieces[:0], from.Offset, n)
	for _, p := range x.pieces {
		if p.Tokens > budget {
			return tooLarge(p.Start, p.End, p.Tokens, budget)
		}
	}
	return nil
}

// pieceWalker is a tokenizer that can hand its pieces over one by one.
type pieceWalker interface {
	WalkPieces(s string, fn func(start, end, tokens int))
}

// marker is a tokenizer that can count a text while reporting every
// markEvery-th piece boundary, and walk its pieces again from any piece
// boundary on, giving the very pieces and counts of a walk from the start
// (tokens.Tiktoken: its pre-split reads nothing before a piece's start).
// Make then keeps one boundary in markEvery and walks a block again when the
// planner reads it, so that planning costs one counting pass plus a few
// blocks near each cut, and memory a mark (32 bytes) per 64 pieces.
type marker interface {
	WalkMarks(s string, every int, fn func(batch []tokens.Mark) bool)
	PiecesFrom(dst []core.Piece, s string, from, n int) []core.Piece
}

func plan(text string, x *index, budget int, overlap float64) (Plan, error) {
	total := x.cum(x.n)
	o := OverlapTokens(budget, overlap)
	pl := Plan{Tokens: total, Budget: budget, Overlap: o}
	switch {
	case len(text) == 0:
		return pl, nil
	case total <= budget:
		pl.Target = total
		pl.Chunks = []Chunk{{Index: 1, Start: 0, End: len(text), Tokens: total}}
		return pl, nil
	}
	// No plan has fewer chunks than greedy packing without overlap, and the
	// spec's count assumes every overlap is whole: start from the larger.
	// Greedy packing costs a pass over the cuts, so it is made only when
	// balancing the spec's count fails: when that succeeds, greedy packing
	// needs no more chunks (dropping the overlaps of any plan within budget
	// packs the pieces without overlap, and greedy packing is the fewest),
	// and the larger of the two is the spec's count anyway.
	n := MinChunks(total, budget, overlap)
	if chunks, target, ok := balanceLines(text, x, n, o, budget); ok {
		pl.Target, pl.Chunks = target, chunks
		return pl, nil
	}
	packed := greedy(x, budget)
	minimum := max(n, len(packed))
	for count := minimum; count < minimum+8; count++ {
		if count == n {
			continue // failed above
		}
		if chunks, target, ok := balanceLines(text, x, count, o, budget); ok {
			pl.Target, pl.Chunks = target, chunks
			return pl, nil
		}
	}
	// Pieces too coarse to balance: pack greedily, without overlap.
	pl.Chunks = packed
	pl.Target = budget
	return pl, nil
}

// balanceLines balances count chunks with cuts moved to line breaks, and
// failing that without: line breaks are a preference, and when moving cuts
// to them would cost a chunk, the cuts stay where the balance puts them.
func balanceLines(text string, x *index, count, o, budget int) ([]Chunk, int, bool) {
	for _, lines := range []bool{true, false} {
		if chunks, target, ok := balance(text, x, count, o, budget, lines); ok {
			return chunks, target, true
		}
	}
	return nil, 0, false
}

// greedy packs whole pieces into chunks of at most budget tokens.
func greedy(x *index, budget int) []Chunk {
	var out []Chunk
	s := 0
	for s < x.n {
		e := snapDown(x, x.cum(s)+budget)
		out = append(out, Chunk{Index: len(out) + 1, Start: x.bound(s), End: x.bound(e), Tokens: x.cum(e) - x.cum(s)})
		s = e
	}
	return out
}

// balance places count chunks. Each chunk aims at an equal share of what is
// left, ceil((R + (k−1)·O) / k) for R tokens left and k chunks to go, so the
// small losses of snapping cuts to piece boundaries spread over the remaining
// chunks instead of piling up in the last one. It returns false when a chunk
// would exceed the budget or hold no token (the caller then tries one chunk
// more). When a chunk before the last already reaches the end of the
// document (pieces too coarse to overlap by O), the plan stops there with
// fewer chunks: the chunks left would be empty.
func balance(text string, x *index, count, o, budget int, lines bool) ([]Chunk, int, bool) {
	last := x.n
	total := x.cum(last)
	target := ceilDiv(total+(count-1)*o, count)
	tol := 0 // how far a cut may move to land on a line break
	if lines {
		tol = max(target/50, 1)
	}
	chunks := make([]Chunk, count)
	s := 0
	for i := range count {
		k := count - i
		e := last
		if k > 1 {
			size := ceilDiv(total-x.cum(s)+(k-1)*o, k)
			idealEnd := x.cum(s) + size
			e = snapDown(x, idealEnd)
			if up := e + 1; up <= last && x.cum(e) < idealEnd && x.cum(up)-x.cum(s) <= budget && x.cum(up)-idealEnd < idealEnd-x.cum(e) {
				e = up // the nearer boundary, when it stays within budget
			}
			if tol > 0 {
				e = preferLineEnd(text, x, e, idealEnd-tol)
			}
			if x.cum(e) == total {
				e, k = last, 1 // the rest holds no token: this chunk is the last
			}
		}
		tokens := x.cum(e) - x.cum(s)
		if tokens > budget || tokens <= 0 || e <= s {
			return nil, 0, false
		}
		chunks[i] = Chunk{Index: i + 1, Start: x.bound(s), End: x.bound(e), Tokens: tokens, OverlapTokens: chunks[i].OverlapTokens}
		if k == 1 {
			return chunks[:i+1], target, true
		}
		next := e // no overlap: the next chunk starts where this one ends
		if o > 0 {
			idealStart := x.cum(e) - o
			next = snapUp(x, idealStart, total)
			if tol > 0 {
				next = preferLineStart(text, x, next, idealStart, tol)
			}
			next = min(next, e)
		}
		if next <= s {
			return nil, 0, false
		}
		chunks[i+1].OverlapTokens = x.cum(e) - x.cum(next)
		s = next
	}
	return chunks, target, true // not reached: the last chunk returns
}

// snapDown returns the last boundary whose token position is <= v.
func snapDown(x *index, v int) int {
	return x.first(v+1) - 1
}

// snapUp returns the first boundary whose token position is >= v.
func snapUp(x *index, v, total int) int {
	v = min(v, total)
	return x.first(v)
}

// preferLineEnd moves boundary e back to the nearest line break whose token
// position is at least floor, if there is one.
func preferLineEnd(text string, x *index, e, floor int) int {
	if k := x.lineBack(text, e, floor); k >= 0 {
		return k
	}
	return e
}

// preferLineStart moves start boundary s to the line start nearest to token
// position ideal, within tol tokens either way, if there is one. Moving back
// adds overlap; moving forward takes some away.
func preferLineStart(text string, x *index, s, ideal, tol int) int {
	best, dist := s, math.MaxInt
	if k := x.lineBack(text, s, ideal-tol); k >= 0 {
		best, dist = k, abs(x.cum(k)-ideal)
	}
	if k := x.lineForward(text, s, ideal+tol); k >= 0 && abs(x.cum(k)-ideal) < dist {
		best = k
	}
	return best
}

// OverlapTokens is O = floor(overlap × budget), the overlap in tokens. A
// product within 1e-9 below an integer counts as that integer, so that 29% of
// 100 is 29 despite binary floating point.
func OverlapTokens(budget int, overlap float64) int {
	return int(math.Floor(overlap*float64(budget) + 1e-9))
}

// MinChunks is the fewest chunks of at most budget tokens, consecutive ones
// sharing OverlapTokens(budget, overlap), that cover tokens tokens:
// 0 for none, 1 when tokens <= budget, else ceil((T−O)/(B−O)). Make uses
// exactly that many on text of fine pieces; pieces too coarse to overlap by
// O can allow fewer, and pieces too coarse to pack can need more (see the
// package documentation). It needs budget > 0 and overlap in [0, 0.5).
func MinChunks(tokens, budget int, overlap float64) int {
	switch {
	case tokens <= 0:
		return 0
	case tokens <= budget:
		return 1
	}
	o := OverlapTokens(budget, overlap)
	return ceilDiv(tokens-o, budget-o)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
