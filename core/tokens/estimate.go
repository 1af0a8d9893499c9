package tokens

import (
	"unicode"

	"github.com/toolout/toolout/core"
)

// Estimator counts ceil(bytes/4) tokens, the cheap rule of thumb used where an
// exact count does not matter (and by in-tool size validation).
type Estimator struct{}

var _ core.Tokenizer = Estimator{}

// Name returns "estimate".
func (Estimator) Name() string { return "estimate" }

// Count returns ceil(len(s)/4).
func (Estimator) Count(s string) int { return (len(s) + 3) / 4 }

// Pieces splits s into words, each with its trailing white space. Piece
// [a,b) carries ceil(b/4) − ceil(a/4) tokens, so the pieces add up to Count.
func (Estimator) Pieces(dst []core.Piece, s string) []core.Piece {
	start := 0
	inSpace := false
	for i, r := range s {
		space := unicode.IsSpace(r)
		if !space && inSpace && i > start {
			dst = append(dst, estPiece(start, i))
			start = i
		}
		inSpace = space
	}
	if start < len(s) {
		dst = append(dst, estPiece(start, len(s)))
	}
	return dst
}

func estPiece(a, b int) core.Piece {
	return core.Piece{Start: a, End: b, Tokens: (b+3)/4 - (a+3)/4}
}
