package tokens

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

func decode(s string, i int) (rune, int) {
	if i >= len(s) {
		return -1, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// The classes of the patterns are Unicode 16.0.0's, as in tiktoken's Rust
// regexes, from the tables in unicode16.go (go generate writes them; see
// internal/ucdgen), not Go's unicode package, which has Unicode 15.0.0's.
//
//go:generate go run ./internal/ucdgen

// isSpaceRE is \s: the White_Space property, which is the set of regexp2's
// [\f\n\r\t\v\x85\p{Z}].
func isSpaceRE(r rune) bool {
	if uint32(r) <= unicode.MaxLatin1 {
		return latin1Class[r]&classSpace != 0
	}
	return unicode.Is(space16, r)
}

// isLetter is \p{L}.
func isLetter(r rune) bool {
	if uint32(r) <= unicode.MaxLatin1 {
		return latin1Class[r]&classLetter != 0
	}
	return unicode.Is(letter16, r)
}

// isNumber is \p{N}.
func isNumber(r rune) bool {
	if uint32(r) <= unicode.MaxLatin1 {
		return latin1Class[r]&classNumber != 0
	}
	return unicode.Is(number16, r)
}

func isOther(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiClass[r]&classOther != 0
	}
	return r >= 0 && !isSpaceRE(r) && !isLetter(r) && !isNumber(r)
}

// Class bits of ASCII characters, for the splitters' fast paths: each is
// the answer of the predicate it is named after (isLetter, isNumber,
// isSpaceRE, isOther, isUpperish, isLowerish) for an ASCII character.
const (
	classLetter uint8 = 1 << iota
	classNumber
	classSpace
	classOther
	classUpper
	classLower
	classBreak // \r \n, which are white space too
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range rune(utf8.RuneSelf) {
		switch {
		case 'a' <= c && c <= 'z':
			t[c] = classLetter | classLower
		case 'A' <= c && c <= 'Z':
			t[c] = classLetter | classUpper
		case '0' <= c && c <= '9':
			t[c] = classNumber
		case c == '\r' || c == '\n':
			t[c] = classSpace | classBreak
		case c == ' ' || '\t' <= c && c <= '\r': // \t \v \f
			t[c] = classSpace
		default:
			t[c] = classOther
		}
	}
	return t
}()

// latin1Class extends asciiClass to Latin-1 from the tables (classLetter,
// classNumber, classSpace, classUpper, classLower; the rest is classOther),
// so that the predicates answer the Latin-1 letters of Western European
// text without a binary search, as unicode.IsLetter does.
var latin1Class = func() (t [unicode.MaxLatin1 + 1]uint8) {
	copy(t[:], asciiClass[:])
	for c := rune(utf8.RuneSelf); c <= unicode.MaxLatin1; c++ {
		for _, x := range [...]struct {
			table *unicode.RangeTable
			bit   uint8
		}{{letter16, classLetter}, {number16, classNumber}, {space16, classSpace}, {upperish16, classUpper}, {lowerish16, classLower}} {
			if unicode.Is(x.table, c) {
				t[c] |= x.bit
			}
		}
		if t[c]&(classLetter|classNumber|classSpace) == 0 {
			t[c] |= classOther
		}
	}
	return t
}()

// contractionFast is (?i:'s|'t|'re|'ve|'m|'ll|'d) at s[i], an apostrophe:
// cl100k_base's first alternative, o200k_base's contraction after a word
// (contraction). It returns the end of the contraction, or -1 when none
// starts there.
func contractionFast(s string, i int) int {
	if i+1 >= len(s) {
		return -1
	}
	switch s[i+1] | 0x20 { // ASCII lower case; no other byte maps to these letters
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	}
	return -1
}

// matchCL100K returns the end of the piece that starts at s[i]: a
// hand-written equivalent of cl100k_base's pre-split
// pattern, several times faster than running it through regexp2:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// At each position the alternatives are tried in order and the first that
// matches wins, as in the regex engine. Invalid UTF-8 bytes count as
// "other" characters, one byte each.
func matchCL100K(s string, i int) int {
	if c := s[i]; c < utf8.RuneSelf && c != '\'' {
		if j := wordASCII(s, i, c); j >= 0 {
			return j
		}
		if j := matchASCII(s, i, c, wordCL100K, "\r\n"); j >= 0 {
			return j
		}
	}
	c, n := decode(s, i)
	// (?i:'s|'t|'re|'ve|'m|'ll|'d)
	if c == '\'' {
		if j := contractionFast(s, i); j >= 0 {
			return j
		}
	}
	// [^\r\n\p{L}\p{N}]?\p{L}+
	j := i
	if c != '\r' && c != '\n' && !isLetter(c) && !isNumber(c) {
		if next, _ := decode(s, i+n); isLetter(next) {
			j = i + n
		}
	}
	if r, _ := decode(s, j); isLetter(r) {
		return run(s, j, classLetter, isLetter)
	}
	if j := matchDigits(s, i, c, n); j >= 0 {
		return j
	}
	//  ?[^\s\p{L}\p{N}]+[\r\n]*
	if j := matchPunct(s, i, c, "\r\n"); j >= 0 {
		return j
	}
	return matchSpace(s, i, n)
}

// matchASCII is the splitters' fast path for a piece that starts with an
// ASCII character c other than an apostrophe (cl100k_base tries the
// contractions first): the class table decides, as long as the character
// after c is ASCII too. word is the encoding's letter alternatives from an
// ASCII letter ([^\r\n\p{L}\p{N}]? taken or not), trail the bytes that may
// follow punctuation. It returns -1 when the general path must decide.
func matchASCII(s string, i int, c byte, word func(s string, p int) int, trail string) int {
	class := asciiClass[c]
	switch {
	case class&classLetter != 0:
		return word(s, i)
	case class&classNumber != 0:
		return matchDigits(s, i, rune(c), 1)
	}
	next, ok := nextClass(s, i)
	if !ok {
		return -1
	}
	switch {
	case next&classLetter != 0 && c != '\r' && c != '\n': // [^\r\n\p{L}\p{N}] then a word
		return word(s, i+1)
	case class&classOther != 0 || c == ' ' && next&classOther != 0: //  ?[^\s\p{L}\p{N}]+[TRAIL]*
		return matchPunct(s, i, rune(c), trail)
	}
	return matchSpace(s, i, 1)
}

// wordASCII is cl100k_base's most common piece, read without a call:
// [^\r\n\p{L}\p{N}]?\p{L}+ where the letters start with an ASCII one and c,
// the character at s[i], is ASCII (a letter, or one that may come before
// the letters). A run that goes on past ASCII goes on as run reads it. It
// returns -1 when the piece at s[i] is no such word. Splitting is most of
// the cost of counting real text whose pieces the cache holds, and the
// calls to the general path were most of splitting (go-net-http: about
// 160 instructions a piece).
func wordASCII(s string, i int, c byte) int {
	j := i
	if class := byteClass[c]; class&classLetter == 0 {
		if class&classNumber != 0 || c == '\r' || c == '\n' || i+1 >= len(s) || byteClass[s[i+1]]&classLetter == 0 {
			return -1
		}
		j = i + 1
	}
	for j++; j < len(s) && byteClass[s[j]]&classLetter != 0; j++ {
	}
	if j < len(s) && s[j] >= utf8.RuneSelf {
		return run(s, j, classLetter, isLetter)
	}
	return j
}

// wordCL100K is matchASCII's word for cl100k_base: \p{L}+, which may stop
// at a non-ASCII letter or not.
func wordCL100K(s string, p int) int { return run(s, p, classLetter, isLetter) }

// nextClass returns the class of the character after s[i], 0 at the end of
// s, and false when that character is not ASCII.
func nextClass(s string, i int) (uint8, bool) {
	switch {
	case i+1 >= len(s):
		return 0, true
	case s[i+1] >= utf8.RuneSelf:
		return 0, false
	}
	return asciiClass[s[i+1]], true
}

// matchDigits is \p{N}{1,3} at s[i] (c, of n bytes); -1 when c is no number.
func matchDigits(s string, i int, c rune, n int) int {
	if !isNumber(c) {
		return -1
	}
	j := i + n
	for k := 1; k < 3; k++ {
		r, m := decode(s, j)
		if !isNumber(r) {
			break
		}
		j += m
	}
	return j
}

// matchPunct is " ?[^\s\p{L}\p{N}]+[TRAIL]*" at s[i] (c), where trail
// lists the trailing bytes; -1 when it does not match.
func matchPunct(s string, i int, c rune, trail string) int {
	j := i
	if c == ' ' {
		j = i + 1
	}
	if r, _ := decode(s, j); !isOther(r) && r != utf8.RuneError {
		return -1
	}
	j = run(s, j, classOther, isOther) // isOther(U+FFFD): an invalid byte is "other"
	for j < len(s) && strings.IndexByte(trail, s[j]) >= 0 {
		j++
	}
	return j
}

// matchSpace is the white-space alternatives shared by both patterns,
// \s*[\r\n]+|\s+(?!\S)|\s+, from s[i] (a character of n bytes).
func matchSpace(s string, i, n int) int {
	end := i
	lastNL := -1
	for {
		if end < len(s) && s[end] < utf8.RuneSelf { // ASCII: no decoding
			c := s[end]
			if asciiClass[c]&classSpace == 0 {
				break
			}
			if c == '\r' || c == '\n' {
				lastNL = end
			}
			end++
			continue
		}
		r, m := decode(s, end)
		if m == 0 || !isSpaceRE(r) {
			break
		}
		if r == '\r' || r == '\n' {
			lastNL = end
		}
		end += m
	}
	if end == i {
		// Not white space and no alternative matched: a lone character
		// (cannot happen for valid text; keeps invalid bytes moving).
		return i + max(n, 1)
	}
	// \s*[\r\n]+ : up to and including the last line break of the run.
	if lastNL >= 0 {
		return lastNL + 1
	}
	// \s+(?!\S) : the run, minus its last character when a non-space follows.
	if end == len(s) {
		return end
	}
	_, lastSize := utf8.DecodeLastRuneInString(s[i:end])
	if end-lastSize > i {
		return end - lastSize
	}
	// \s+
	return end
}
