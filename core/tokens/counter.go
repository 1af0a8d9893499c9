package tokens

import (
	"bytes"
	"strings"
)

// Counter counts the tokens of a text that arrives in parts (it is an
// io.Writer), as Count counts the whole text, while holding only the text
// since the last safe cut: the stats of a stream in one pass, without a copy
// of it.
//
// A safe cut is a place where, with both encodings' patterns, a piece ends
// whatever follows, and the pieces after it are those of the text from
// there on. Two kinds, at position i (between s[i−1] and s[i]):
//
//  1. s[i−1] is a line break and s[i] a printable ASCII byte other than '/'
//     (0x21 to 0x7E): the start of a line of a log, a listing, a table.
//  2. s[i−1] is an ASCII letter and s[i] an ASCII byte that is neither a
//     letter nor an apostrophe: the end of a word ("key", "value", "ERROR").
//
// Why. Only the white-space alternatives and the trailing line breaks of
// " ?[^\s\p{L}\p{N}]+[\r\n]*" (o200k_base: "[\r\n/]*") can take a line
// break, and a letter's optional prefix excludes \r and \n: in case 1 a
// white-space run through s[i−1] stops at s[i], its last line break is
// s[i−1], so "\s*[\r\n]+" ends the piece at i, and the trailing run stops
// at s[i] too. In case 2 the letter runs (and o200k_base's marks, which are
// never ASCII) stop at s[i], and no contraction follows (no apostrophe).
// Every test the splitters make beyond a piece's end (the next character of
// a run, a contraction's letters, the letter after a prefix,
// "\s+(?!\S)"'s look-ahead) either stops before i or belongs to the piece
// that ends at i, so the pieces before i are the same when the text ends at
// i; and a match at i reads only s[i:]. Both sides of a cut are ASCII, so
// no UTF-8 sequence is split, and each piece counts on its own. So the
// counts of s[:i] and s[i:] add up to that of s (the specs and FuzzCounter
// check it against Count on text rich in such places).
//
// Text without a cut (a run of zero bytes or of "=", one piece whatever
// its length) is held until one comes or the text ends, in blocks, and
// counted as one string: twice its size for the moment of counting. A
// tokenizer of another pattern would hold everything (there is none today).
type Counter struct {
	t       *Tiktoken
	cuts    bool     // the encoding's pattern allows the cut above
	pending [][]byte // text since the last cut, in blocks
	size    int      // bytes pending
	tokens  int      // tokens before the last cut
	last    byte     // the last byte written, 0 before any
}

// NewCounter returns a Counter for this tokenizer's encoding.
func (t *Tiktoken) NewCounter() *Counter {
	return &Counter{t: t, cuts: t.enc.name == CL100K || t.enc.name == O200K}
}

// Write adds p to the text; it never fails.
func (c *Counter) Write(p []byte) (int, error) {
	n := len(p)
	if n == 0 {
		return 0, nil
	}
	cut := -1
	if c.cuts {
		cut = lastCut(c.last, p)
	}
	c.last = p[n-1]
	if cut < 0 {
		c.hold(p)
		return n, nil
	}
	c.hold(p[:cut])
	c.tokens += c.t.Count(c.join())
	c.hold(p[cut:])
	return n, nil
}

// Tokens returns the tokens of all the text written so far; more can be
// written after it.
func (c *Counter) Tokens() int {
	if c.size == 0 {
		return c.tokens
	}
	return c.tokens + c.t.Count(c.text())
}

// hold keeps a copy of p as pending text: p belongs to the caller.
func (c *Counter) hold(p []byte) {
	if len(p) == 0 {
		return
	}
	c.pending = append(c.pending, bytes.Clone(p))
	c.size += len(p)
}

// text returns the pending text as one string.
func (c *Counter) text() string {
	var b strings.Builder
	b.Grow(c.size)
	for _, p := range c.pending {
		b.Write(p)
	}
	return b.String()
}

// join returns the pending text as one string and forgets it.
func (c *Counter) join() string {
	s := c.text()
	clear(c.pending)
	c.pending, c.size = c.pending[:0], 0
	return s
}

// lastCut returns the last safe cut in p: an offset 0 < i < len(p), or 0
// when prev (the byte before p, 0 at the start) and p[0] make one, or -1.
func lastCut(prev byte, p []byte) int {
	for i := len(p) - 1; i > 0; i-- {
		if safeCut(p[i-1], p[i]) {
			return i
		}
	}
	if safeCut(prev, p[0]) {
		return 0
	}
	return -1
}

// safeCut reports whether the text may be cut between a and b.
func safeCut(a, b byte) bool {
	switch {
	case a == '\n':
		return b >= 0x21 && b <= 0x7e && b != '/'
	case asciiLetter(a):
		return b < 0x80 && !asciiLetter(b) && b != '\''
	}
	return false
}

func asciiLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
