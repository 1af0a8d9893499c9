package chunk_test

import (
	"errors"
	"fmt"
	"reflect"
	"sort"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/tokens"
)

// maxExtraChunks is how many chunks above max(MinChunks, the fewest
// possible) a plan may use when pieces too coarse defeat balancing (see the
// package documentation).
const maxExtraChunks = 7

// checkPlan returns the first property that the plan (or error) Make gave
// for doc breaks, or nil:
//   - an error only for a piece over the budget (ErrTooLarge), and then there
//     is one;
//   - Tokens is the document's count; no chunks for an empty document;
//   - every chunk is non-empty (Start < End) and holds at least one token,
//     at most the budget, and exactly the tokens of the pieces it spans; its
//     text counted on its own is within the budget too (one more for the
//     Estimator, see recountSlack);
//   - chunks start and end on piece boundaries (valid byte offsets of the
//     input), in order: each starts after the previous one's start and no
//     later than its end (they touch or overlap), and ends after it;
//   - they cover the input: the first starts at 0, the last ends at len;
//   - OverlapTokens is the tokens shared with the previous chunk;
//   - the count is at least the fewest possible (greedy packing) and at most
//     max(MinChunks, that) + maxExtraChunks;
//   - Make is deterministic.
func checkPlan(tk core.Tokenizer, doc string, budget int, overlap float64, p chunk.Plan, err error) error {
	pieces := tk.Pieces(nil, doc)
	cum := map[int]int{0: 0} // byte offset of each piece boundary -> tokens before it
	total := 0
	for _, pc := range pieces {
		total += pc.Tokens
		cum[pc.End] = total
	}
	if err != nil {
		for _, pc := range pieces {
			if pc.Tokens > budget {
				return checkTooLarge(tk, doc, budget, overlap, pc, err)
			}
		}
		return fmt.Errorf("error without a piece over the budget: %w", err)
	}
	again, err2 := chunk.Make(doc, tk, budget, overlap)
	if err2 != nil || !reflect.DeepEqual(again, p) {
		return fmt.Errorf("not deterministic: %+v, then %+v (%v)", p, again, err2)
	}
	if tt, ok := tk.(*tokens.Tiktoken); ok {
		kept, err3 := chunk.Make(doc, walkOnly{tt}, budget, overlap)
		if err3 != nil || !reflect.DeepEqual(kept, p) {
			return fmt.Errorf("walking blocks again planned %+v, keeping every boundary %+v (%v)", p, kept, err3)
		}
	}
	if p.Tokens != total || p.Tokens != tk.Count(doc) {
		return fmt.Errorf("plan tokens %d, pieces %d, Count %d", p.Tokens, total, tk.Count(doc))
	}
	if len(doc) == 0 {
		if len(p.Chunks) != 0 {
			return fmt.Errorf("empty document: %d chunks", len(p.Chunks))
		}
		return nil
	}
	if err := checkChunks(tk, doc, budget, p.Chunks, cum); err != nil {
		return err
	}
	fewest := greedyCount(pieces, budget)
	most := max(chunk.MinChunks(total, budget, overlap), fewest) + maxExtraChunks
	if n := len(p.Chunks); n < fewest || n > most {
		return fmt.Errorf("%d chunks, want %d to %d (min chunks %d)", n, fewest, most, chunk.MinChunks(total, budget, overlap))
	}
	return nil
}

func checkChunks(tk core.Tokenizer, doc string, budget int, chunks []chunk.Chunk, cum map[int]int) error {
	if len(chunks) == 0 || chunks[0].Start != 0 || chunks[len(chunks)-1].End != len(doc) {
		return fmt.Errorf("chunks do not cover [0,%d): %+v", len(doc), chunks)
	}
	for i, c := range chunks {
		at := fmt.Sprintf("chunk %d [%d,%d)", c.Index, c.Start, c.End)
		cs, okS := cum[c.Start]
		ce, okE := cum[c.End]
		switch {
		case c.Index != i+1:
			return fmt.Errorf("%s: index, want %d", at, i+1)
		case !okS || !okE:
			return fmt.Errorf("%s: not on piece boundaries", at)
		case c.Start >= c.End || c.Tokens < 1:
			return fmt.Errorf("%s: empty (%d tokens)", at, c.Tokens)
		case c.Tokens != ce-cs:
			return fmt.Errorf("%s: %d tokens, its pieces hold %d", at, c.Tokens, ce-cs)
		case c.Tokens > budget:
			return fmt.Errorf("%s: %d tokens, budget %d", at, c.Tokens, budget)
		}
		if n := tk.Count(doc[c.Start:c.End]); n > budget+recountSlack(tk) {
			return fmt.Errorf("%s: re-counted %d tokens, budget %d", at, n, budget)
		}
		if i == 0 {
			if c.OverlapTokens != 0 {
				return fmt.Errorf("%s: first chunk overlaps by %d", at, c.OverlapTokens)
			}
			continue
		}
		prev := chunks[i-1]
		if c.Start <= prev.Start || c.Start > prev.End || c.End <= prev.End {
			return fmt.Errorf("%s: out of order after [%d,%d)", at, prev.Start, prev.End)
		}
		if want := cum[prev.End] - cs; c.OverlapTokens != want {
			return fmt.Errorf("%s: overlap %d tokens, shares %d", at, c.OverlapTokens, want)
		}
	}
	return nil
}

// checkTooLarge checks Make's error for a document whose first piece over
// the budget is first: ErrTooLarge naming that piece, and for Tiktoken the
// same error when every boundary is kept.
func checkTooLarge(tk core.Tokenizer, doc string, budget int, overlap float64, first core.Piece, err error) error {
	want := fmt.Sprintf("chunk: piece at bytes %d-%d has %d tokens, budget %d: %v", first.Start, first.End, first.Tokens, budget, chunk.ErrTooLarge)
	if !errors.Is(err, chunk.ErrTooLarge) || err.Error() != want {
		return fmt.Errorf("error %q, want %q", err, want)
	}
	if tt, ok := tk.(*tokens.Tiktoken); ok {
		if _, err2 := chunk.Make(doc, walkOnly{tt}, budget, overlap); err2 == nil || err2.Error() != err.Error() {
			return fmt.Errorf("walking blocks again: error %q, keeping every boundary %v", err, err2)
		}
	}
	return nil
}

// recountSlack is how many tokens more than its pieces a chunk's text can
// count on its own: the Estimator's pieces carry ceil(b/4) − ceil(a/4)
// tokens, and ceil((b−a)/4) can be one more.
func recountSlack(tk core.Tokenizer) int {
	if _, ok := tk.(tokens.Estimator); ok {
		return 1
	}
	return 0
}

// greedyCount is the fewest chunks of at most budget tokens that cover the
// pieces: greedy packing, which no plan can beat.
func greedyCount(pieces []core.Piece, budget int) int {
	sum := make([]int, len(pieces)+1)
	for i, pc := range pieces {
		sum[i+1] = sum[i] + pc.Tokens
	}
	n := 0
	for s := 0; s < len(pieces); n++ {
		e := sort.Search(len(sum), func(k int) bool { return sum[k] > sum[s]+budget }) - 1
		if e <= s {
			return n + len(pieces) // a piece over the budget: not reached after Make succeeded
		}
		s = e
	}
	return n
}

// walkOnly hides Tiktoken.WalkMarks and PiecesFrom, so that Make keeps every piece
// boundary instead of walking blocks of pieces again: the two must plan
// alike.
type walkOnly struct{ tk *tokens.Tiktoken }

func (w walkOnly) Name() string                                   { return w.tk.Name() }
func (w walkOnly) Count(s string) int                             { return w.tk.Count(s) }
func (w walkOnly) Pieces(dst []core.Piece, s string) []core.Piece { return w.tk.Pieces(dst, s) }
func (w walkOnly) WalkPieces(s string, fn func(start, end, tokens int)) {
	w.tk.WalkPieces(s, fn)
}
