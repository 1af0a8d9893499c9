package tokens

import (
	"fmt"
	"strings"
)

// O200KHarmony is gpt-oss's encoding: o200k_base's ranks and pattern, and
// the special tokens of OpenAI's Harmony format (<|start|>, <|channel|>,
// <|message|>, <|end|>, <|call|>, <|return|>, ...), each one token.
const O200KHarmony = "o200k_harmony"

// harmonySpecials is o200k_harmony's special-token table as tiktoken
// defines it (tiktoken_ext/openai_public.py, o200k_harmony): o200k_base's
// two, the named tokens of the Harmony format, and <|reserved_N|> for
// every other id up to 201087. Id 200018 has two names there, o200k_base's
// <|endofprompt|> and <|reserved_200018|>; both encode to it.
func harmonySpecials() map[string]int {
	m := map[string]int{
		"<|endoftext|>": 199999, "<|endofprompt|>": 200018, // o200k_base's
		"<|startoftext|>": 199998,
		"<|return|>":      200002, "<|constrain|>": 200003, "<|channel|>": 200005, "<|start|>": 200006,
		"<|end|>": 200007, "<|message|>": 200008, "<|call|>": 200012,
	}
	for _, id := range []int{200000, 200001, 200004, 200009, 200010, 200011} {
		m[fmt.Sprintf("<|reserved_%d|>", id)] = id
	}
	for id := 200013; id < 201088; id++ {
		m[fmt.Sprintf("<|reserved_%d|>", id)] = id
	}
	return m
}

// maxSpecialLen is the longest special token's length ("<|reserved_201087|>").
const maxSpecialLen = len("<|reserved_201087|>")

// special returns the id of the special token that starts s[i:], if one
// does.
func (e *encoding) special(s string, i int) (id, n int, ok bool) {
	if e.specials == nil || len(s)-i < 4 || s[i] != '<' || s[i+1] != '|' {
		return 0, 0, false
	}
	rest := s[i+2 : min(len(s), i+maxSpecialLen)]
	j := strings.Index(rest, "|>")
	if j < 0 {
		return 0, 0, false
	}
	n = j + 4
	id, ok = e.specials[s[i:i+n]]
	return id, n, ok
}

// specialWindow is how far ahead a splitter looks for the next special
// token at first, doubling while a piece reaches past what it has looked
// at: a walk that starts anywhere (PiecesFrom, once per chunk) reads a few
// KiB, not the rest of the text; a walk to the end reads each byte once
// more or less.
const specialWindow = 4 << 10

// specialMargin is how far from the end of the text a splitter has looked
// at a piece must end for the piece to be taken as is: the pattern's
// alternatives read at most a character or two past the piece they match
// (a run of white space and the character after it), so a piece that ends
// this far before that end ends there in the whole text too.
const specialMargin = 64

// scanned, when set (specs), gets the length of each stretch of text
// searched for special tokens.
var scanned func(n int)

// specialIn returns where the first special token that starts in s[from:to]
// starts (it may end past to), or -1. Each "<|" is looked at once, and at
// most maxSpecialLen bytes after it.
func (e *encoding) specialIn(s string, from, to int) int {
	if scanned != nil {
		scanned(to - from)
	}
	for i := from; i < to; {
		k := strings.Index(s[i:to], "<|")
		if k < 0 {
			return -1
		}
		if _, _, ok := e.special(s, i+k); ok {
			return i + k
		}
		i += k + 1
	}
	return -1
}

// splitter walks the pieces of one text from left to right: the
// encoding's pieces and, in an encoding with special tokens, each special
// token as a piece of its own, the text between them split as if each
// stretch were a text alone (tiktoken splits the text between two special
// tokens on its own: a pattern's look-ahead never sees past one).
type splitter struct {
	e *encoding
	s string
	// next is where the next special token starts, -1 when none is known;
	// clear is how far the text holds none after the last one passed.
	next, clear int
}

func newSplitter(e *encoding, s string) splitter { return splitter{e: e, s: s, next: -1} }

// piece returns the end of the piece that starts at i, and the id of the
// special token it is (-1 for an ordinary piece). i must be 0 or the end
// of a piece, and grow from call to call.
func (p *splitter) piece(i int) (end, special int) {
	e, s := p.e, p.s
	if e.specials == nil {
		return e.match(s, i), -1
	}
	for {
		switch {
		case p.next == i:
			id, n, _ := e.special(s, i)
			return i + n, id
		case p.next > i:
			return e.match(s[:p.next], i), -1
		}
		p.next, p.clear = -1, max(p.clear, i)
		if p.clear == len(s) {
			return e.match(s, i), -1
		}
		if p.clear-i > specialMargin {
			if j := e.match(s[:p.clear], i); j < p.clear-specialMargin {
				return j, -1
			}
		}
		to := min(len(s), p.clear+max(specialWindow, p.clear-i)) // doubling: a long piece is matched O(1) times
		if p.next = e.specialIn(s, p.clear, to); p.next < 0 {
			p.clear = to // none up to to; past a special found, nothing is known yet
		}
	}
}

// stop returns where the ordinary text from i ends: the start of the next
// special token at or after i, or the end of the text. i must be 0 or the
// end of a piece, and grow from call to call; a walk from the start to the
// end reads each byte once looking for special tokens (the counting loop
// counts each stretch between two whole, with countFast).
func (p *splitter) stop(i int) int {
	switch {
	case p.next >= i:
		return p.next
	case p.clear >= len(p.s):
		return len(p.s)
	}
	if p.next = p.e.specialIn(p.s, max(i, p.clear), len(p.s)); p.next < 0 {
		p.clear = len(p.s)
		return len(p.s)
	}
	return p.next
}
