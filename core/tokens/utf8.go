package tokens

import (
	"strings"
	"unicode/utf8"
)

// replacement is U+FFFD REPLACEMENT CHARACTER in UTF-8.
const replacement = "\uFFFD"

// replaceInvalid returns s with every byte that does not start a valid UTF-8
// sequence replaced by the three bytes of U+FFFD: one replacement per byte,
// as Go's []rune(s) conversion does (tiktoken-go converts the text to runes
// before splitting it and merges the runes' re-encoded bytes). A truncated
// sequence such as E2 82 becomes two replacements, a surrogate ED A0 80
// three, an overlong C0 80 two.
func replaceInvalid(s string) string {
	invalid := 0
	walkInvalid(s, func(int) { invalid++ })
	var b strings.Builder
	b.Grow(len(s) + invalid*(len(replacement)-1))
	last := 0
	walkInvalid(s, func(i int) {
		b.WriteString(s[last:i])
		b.WriteString(replacement)
		last = i + 1
	})
	b.WriteString(s[last:])
	return b.String()
}

// walkInvalid calls fn with the offset of each byte of s that does not start
// a valid UTF-8 sequence, in order.
func walkInvalid(s string, fn func(i int)) {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			fn(i)
		}
		i += n
	}
}
