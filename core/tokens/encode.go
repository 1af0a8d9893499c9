package tokens

import "unicode/utf8"

// Encode appends the token ids of s to dst, as tiktoken encodes it: the ids
// Count counts, one by one (the benchmarks compare them with tiktoken-go's,
// not only their number). An encoding with special tokens (o200k_harmony)
// gives each its id; in the others they are text. A piece is merged whole,
// so Encode's memory grows with its longest piece (Count's does not).
func (t *Tiktoken) Encode(dst []int, s string) []int {
	valid := utf8.ValidString(s)
	t.walk(s, func(start, end, special int) {
		if special >= 0 {
			dst = append(dst, special)
			return
		}
		dst = t.enc.encodePiece(dst, s[start:end], valid)
	})
	return dst
}

// encodePiece appends the ids of one pre-split piece: the merges of count,
// each final part's rank.
func (e *encoding) encodePiece(dst []int, piece string, valid bool) []int {
	if !valid && !utf8.ValidString(piece) {
		piece = replaceInvalid(piece)
	}
	if r, ok := e.ranks.get(piece); ok {
		return append(dst, int(r))
	}
	m := mergers.Get().(*merger)
	m.merge(e, piece)
	for i := int32(0); int(i) < len(piece); i = m.next[i] {
		dst = append(dst, int(m.part[i]))
	}
	if len(piece) <= 2*window {
		mergers.Put(m)
	}
	return dst
}
