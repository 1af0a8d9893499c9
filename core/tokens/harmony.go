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

// nextSpecial returns where the first special token at or after s[i:]
// starts, or len(s). Each "<|" is looked at once, and at most
// maxSpecialLen bytes after it: linear in the text.
func (e *encoding) nextSpecial(s string, i int) int {
	for i < len(s) {
		k := strings.Index(s[i:], "<|")
		if k < 0 {
			return len(s)
		}
		if _, _, ok := e.special(s, i+k); ok {
			return i + k
		}
		i += k + 1
	}
	return len(s)
}

// splitter walks the pieces of one text from left to right: the
// encoding's pieces and, in an encoding with special tokens, each special
// token as a piece of its own, the text between them split as if each
// stretch were a text alone (tiktoken splits the text between two special
// tokens on its own: a pattern's look-ahead never sees past one).
type splitter struct {
	e    *encoding
	s    string
	next int // where the next special token starts (len(s): none); -1 until known
}

func newSplitter(e *encoding, s string) splitter { return splitter{e: e, s: s, next: -1} }

// piece returns the end of the piece that starts at i, and the id of the
// special token it is (-1 for an ordinary piece). i must be 0 or the end
// of a piece, and grow from call to call.
func (p *splitter) piece(i int) (end, special int) {
	e := p.e
	if e.specials == nil {
		return e.match(p.s, i), -1
	}
	if p.next < i {
		p.next = e.nextSpecial(p.s, i)
	}
	if p.next == i {
		id, n, _ := e.special(p.s, i)
		return i + n, id
	}
	return e.match(p.s[:p.next], i), -1
}
