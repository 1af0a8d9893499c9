package tokens

import "unicode/utf8"

// Byte kinds, for the counting loop's dispatch on a piece's first byte:
// which alternatives of the pattern can start there (byteKind).
const (
	kindHigh    uint8 = iota // 0x80 and above: the general splitter decides
	kindLetter               // A-Z a-z
	kindDigit                // 0-9
	kindSpace                // ' ', which may come before punctuation
	kindBlank                // \t \v \f: white space other than ' ' and line breaks
	kindNewline              // \r \n
	kindQuote                // ', which starts cl100k_base's contractions
	kindOther                // the rest of ASCII: [^\s\p{L}\p{N}]
)

var byteKind = func() (t [256]uint8) {
	for b := range utf8.RuneSelf {
		switch class := asciiClass[b]; {
		case class&classLetter != 0:
			t[b] = kindLetter
		case class&classNumber != 0:
			t[b] = kindDigit
		case b == ' ':
			t[b] = kindSpace
		case b == '\r' || b == '\n':
			t[b] = kindNewline
		case class&classSpace != 0:
			t[b] = kindBlank
		case b == '\'':
			t[b] = kindQuote
		default:
			t[b] = kindOther
		}
	}
	return t
}()

// loMask and hiMask keep the first n bytes of a piece read as two
// little-endian words (packed as pack packs it), by n.
var loMask, hiMask = func() (lo, hi [packedMax + 1]uint64) {
	for n := range packedMax + 1 {
		lo[n] = 1<<(8*min(n, 8)) - 1
		hi[n] = 1<<(8*max(n-8, 0)) - 1
	}
	return lo, hi
}()

// countFast is countBlock's loop for cl100k_base and o200k_base: the
// splitter and the piece cache written into one loop, so that a piece costs
// no call. Splitting pieces that start with an ASCII character is decided
// here from byteKind and byteClass, as the splitters' fast paths decide it
// (matchASCII, wordASCII, wordO200KASCII); wherever the answer depends on a
// character past ASCII, the encoding's splitter decides the piece instead.
// WalkMarks walks through this loop and Pieces through the splitter, so the
// specs that hold the two to the same pieces (and FuzzCount) check that
// they split alike. Most of counting's time on real text went to calls: the
// splitter, its helpers and the cache lookup, each saving the loop's
// registers (go-net-http, cl100k_base: about 350 instructions a piece).
func (e *encoding) countFast(c *pieceCache, s string, i, n int, valid bool) (end, tokens, pieces int) {
	o200k := e.o200k
	for pieces = n; pieces > 0 && i < len(s); pieces-- {
		j := i + 1
		switch byteKind[s[i]] {
		case kindLetter:
			j = wordFast(s, i, o200k)
		case kindDigit: // \p{N}{1,3}
			if j < len(s) && byteClass[s[j]]&classNumber != 0 {
				j++
				if j < len(s) && byteClass[s[j]]&classNumber != 0 {
					j++
				}
			}
			if j-i < 3 && j < len(s) && s[j] >= utf8.RuneSelf {
				j = -1
			}
		case kindQuote:
			if !o200k {
				if k := contractionFast(s, i); k >= 0 {
					j = k
					break
				}
			}
			fallthrough
		case kindOther: // [^\r\n\p{L}\p{N}]?\p{L}+, then ?[^\s\p{L}\p{N}]+[TRAIL]*
			if j == len(s) {
				break
			}
			switch next := byteClass[s[j]]; {
			case next&classLetter != 0:
				j = wordFast(s, j, o200k)
			case next&classOther != 0:
				j = punctFast(s, j, o200k)
			case next == 0:
				j = -1
			default:
				j = trailFast(s, j, o200k)
			}
		case kindSpace:
			if j == len(s) {
				break
			}
			switch next := byteClass[s[j]]; {
			case next&classLetter != 0:
				j = wordFast(s, j, o200k)
			case next&classOther != 0:
				j = punctFast(s, j, o200k)
			case next == 0:
				j = -1
			default:
				j = spaceFast(s, i)
			}
		case kindBlank:
			if j < len(s) && byteClass[s[j]]&classLetter != 0 {
				j = wordFast(s, j, o200k)
				break
			}
			j = spaceFast(s, i)
		case kindNewline:
			j = spaceFast(s, i)
		default:
			j = -1
		}
		if j < 0 {
			j = e.match(s, i)
		}
		// the piece s[i:j], through the cache (pieceCache.count, written out)
		switch m := j - i; {
		case m == 1 && s[i] < utf8.RuneSelf:
			tokens++
		case m == 2 && s[i]|s[i+1] < utf8.RuneSelf:
			tokens += 1 + int(uint32(e.ranks.two[uint(s[i])<<8|uint(s[i+1])])>>31) // -1: two tokens
		case m <= shortMax && i+packedMax <= len(s):
			lo, hi := le64(s[i:])&loMask[m], le64(s[i+8:])&hiMask[m]
			key, set := shortKey(lo, hi, m)
			switch ways := &c.sets[set]; {
			case ways[0].lo == lo && ways[0].hi&^tokMask == key:
				tokens += int(ways[0].hi >> tokShift)
			case ways[1].lo == lo && ways[1].hi&^tokMask == key:
				tokens += int(ways[1].hi >> tokShift)
			default:
				tokens += c.short(e, ways, s[i:j], lo, key, valid)
			}
		default:
			tokens += c.count(e, s[i:j], valid)
		}
		i = j
	}
	return i, tokens, n - pieces
}

// wordFast is the letters of a word from s[p], an ASCII letter: \p{L}+ in
// cl100k_base, the upper run, the lower run and an optional contraction in
// o200k_base (wordO200KASCII). It returns -1 when the letters stop at a
// character past ASCII.
func wordFast(s string, p int, o200k bool) int {
	if !o200k {
		j := asciiRun(s, p+1, classLetter)
		if j < len(s) && s[j] >= utf8.RuneSelf {
			return -1
		}
		return j
	}
	return wordO200KASCII(s, p)
}

// punctFast is ?[^\s\p{L}\p{N}]+[TRAIL]* from p, the first character of the
// run (ASCII punctuation), and the line breaks (and in o200k_base slashes)
// after it. It returns -1 when the run stops at a character past ASCII.
func punctFast(s string, p int, o200k bool) int {
	j := asciiRun(s, p+1, classOther)
	if j < len(s) && s[j] >= utf8.RuneSelf {
		return -1
	}
	return trailFast(s, j, o200k)
}

// trailFast is [\r\n]* (cl100k_base) or [\r\n/]* (o200k_base) from j.
func trailFast(s string, j int, o200k bool) int {
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || o200k && s[j] == '/') {
		j++
	}
	return j
}

// contractionFast is cl100k_base's first alternative,
// (?i:'s|'t|'re|'ve|'m|'ll|'d), at s[i] (an apostrophe): the end of the
// contraction, or -1 when none starts there.
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

// spaceFast is the white-space alternatives, \s*[\r\n]+|\s+(?!\S)|\s+,
// from s[i] (ASCII white space) as matchSpace reads them, or -1 when the
// run stops at a character past ASCII, which may be white space.
func spaceFast(s string, i int) int {
	end, lastNL := i, -1
	for ; end < len(s) && byteClass[s[end]]&classSpace != 0; end++ {
		if s[end] == '\r' || s[end] == '\n' {
			lastNL = end
		}
	}
	switch {
	case end < len(s) && s[end] >= utf8.RuneSelf:
		return -1
	case lastNL >= 0:
		return lastNL + 1
	case end == len(s) || end-1 == i:
		return end
	}
	return end - 1
}
