package core

// Piece is one pre-split piece of a text: the bytes [Start, End) and the number
// of tokens they encode to. Chunk planning cuts only between pieces, so the
// token counts of the parts of a cut text add up to the count of the whole.
type Piece struct {
	Start  int
	End    int
	Tokens int
}

// Tokenizer counts tokens. Implementations must be safe for concurrent use.
//
// For every text s, the pieces returned by Pieces are contiguous, start at 0,
// end at len(s), and their Tokens add up to Count(s). The contract check in
// core/tokens (tokens.Check) verifies this for any implementation.
type Tokenizer interface {
	// Name identifies the encoding, e.g. "cl100k_base" or "estimate".
	Name() string
	// Count returns the number of tokens s encodes to.
	Count(s string) int
	// Pieces appends the pre-split pieces of s to dst and returns it.
	Pieces(dst []Piece, s string) []Piece
}
