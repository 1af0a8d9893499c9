package tokens

import (
	"unicode"
	"unicode/utf8"
)

// isUpperish is [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}].
func isUpperish(r rune) bool {
	if uint32(r) <= unicode.MaxLatin1 {
		return latin1Class[r]&classUpper != 0
	}
	return unicode.Is(upperish16, r)
}

// isLowerish is [\p{Ll}\p{Lm}\p{Lo}\p{M}].
func isLowerish(r rune) bool {
	if uint32(r) <= unicode.MaxLatin1 {
		return latin1Class[r]&classLower != 0
	}
	return unicode.Is(lowerish16, r)
}

// isPrefix is [^\r\n\p{L}\p{N}].
func isPrefix(r rune) bool { return r >= 0 && r != '\r' && r != '\n' && !isLetter(r) && !isNumber(r) }

// run returns the end of the run of runes from j that satisfy in. ascii is
// in's answer for each ASCII character as a class bit (asciiClass), so that
// the common case reads a table rather than calling in.
func run(s string, j int, ascii uint8, in func(rune) bool) int {
	for {
		j = asciiRun(s, j, ascii)
		if j == len(s) || s[j] < utf8.RuneSelf {
			return j
		}
		r, m := utf8.DecodeRuneInString(s[j:])
		if !in(r) {
			return j
		}
		j += m
	}
}

// contraction returns the end of an optional (?i:'s|'t|'re|'ve|'m|'ll|'d)
// at j.
func contraction(s string, j int) int {
	if j < len(s) && s[j] == '\'' {
		if k := contractionFast(s, j); k >= 0 {
			return k
		}
	}
	return j
}

// lettersFirst is the first alternative from p (the prefix already taken):
// U*L+ with U* giving back until L+ can start. It returns -1 when it fails.
func lettersFirst(s string, p int) int {
	u := run(s, p, classUpper, isUpperish)
	for j := u; ; {
		if r, _ := decode(s, j); isLowerish(r) {
			return contraction(s, run(s, j, classLower, isLowerish))
		}
		if j == p {
			return -1
		}
		_, m := utf8.DecodeLastRuneInString(s[p:j])
		j -= m
	}
}

// lettersSecond is the second alternative from p: U+L*. It returns -1 when
// it fails.
func lettersSecond(s string, p int) int {
	u := run(s, p, classUpper, isUpperish)
	if u == p {
		return -1
	}
	return contraction(s, run(s, u, classLower, isLowerish))
}

// matchO200K returns the end of the piece that starts at s[i]: a
// hand-written equivalent of o200k_base's pre-split
// pattern, which regexp2 runs at a few MB/s:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// The alternatives are tried in order at each position, with the regex
// engine's backtracking reproduced where it matters: in the first
// alternative the greedy upper run gives characters back until a lower one
// can start, and the optional prefix is tried before its absence. A spec
// checks the pieces against regexp2 on random text.
func matchO200K(s string, i int) int {
	if c := s[i]; c < utf8.RuneSelf {
		if j := matchASCII(s, i, c, wordO200KASCII, "\r\n/"); j >= 0 {
			return j
		}
	}
	c, n := decode(s, i)
	prefixed := isPrefix(c) || c == utf8.RuneError && n == 1
	for _, alt := range [...]func(string, int) int{lettersFirst, lettersSecond} {
		if prefixed {
			if j := alt(s, i+n); j >= 0 {
				return j
			}
		}
		if j := alt(s, i); j >= 0 {
			return j
		}
	}
	if j := matchDigits(s, i, c, n); j >= 0 {
		return j
	}
	//  ?[^\s\p{L}\p{N}]+[\r\n/]*
	if j := matchPunct(s, i, c, "\r\n/"); j >= 0 {
		return j
	}
	return matchSpace(s, i, n)
}

// wordO200KASCII is matchASCII's word for o200k_base. In ASCII no letter is
// both upper and lower, so the two letter alternatives (U*L+ and U+L*) come
// to one: the upper run, then the lower run, then a contraction. It returns
// -1 when the runs stop at a non-ASCII character, which may be a letter
// that is both upper and lower and so needs the general path's backtracking.
func wordO200KASCII(s string, p int) int {
	j := asciiRun(s, asciiRun(s, p, classUpper), classLower)
	if j < len(s) && s[j] >= utf8.RuneSelf {
		return -1
	}
	return contraction(s, j)
}

// asciiRun returns the end of the run of ASCII characters of class from j.
// It reads byteClass, indexed by any byte: one test a byte, no bounds check.
func asciiRun(s string, j int, class uint8) int {
	for j < len(s) && byteClass[s[j]]&class != 0 {
		j++
	}
	return j
}

// byteClass is asciiClass for every byte, 0 (no class) from 0x80 on.
var byteClass = func() (t [256]uint8) {
	copy(t[:], asciiClass[:])
	return t
}()
