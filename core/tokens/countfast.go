package tokens

import (
	"math/bits"
	"unicode/utf8"
)

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
// little-endian words (packed as pack packs it), by n up to shortMax.
var loMask, hiMask = func() (lo, hi [shortMax + 1]uint64) {
	for n := range shortMax + 1 {
		lo[n] = 1<<(8*min(n, 8)) - 1
		hi[n] = 1<<(8*max(n-8, 0)) - 1
	}
	return lo, hi
}()

// marker is where the counting loops stand, for WalkMarks' marks: the
// pieces and tokens counted so far, the pieces left before the next mark,
// and the marks found, buf[:n], at most limit (up to markBatch). Count runs
// with left beyond any text's pieces, and PiecesFrom with a mark at every
// boundary and a limit, which stops the loop after limit+1 pieces. Marks
// are written into an array of plain values, so that keeping one calls
// nothing (an append grows a slice and a slice header written through a
// pointer takes a write barrier: either put a call in countRun's loop, and
// the compiler then kept the loop's variables on the stack, a tenth more
// instructions a piece).
type marker struct {
	pieces, tokens int
	every, left    int
	n, limit       int
	buf            *[markBatch]Mark
	// the counting loop's encoding and cache, read from here rather than
	// passed: each argument held in a register for the whole loop left
	// fewer for the piece at hand (countRun)
	o200k bool
	two   *[1 << 16]int32
	sets  *[cacheSets]cacheSet
	small *[smallSets]smallSet
	long  *[longSets]longSet
}

// mark records the mark of the boundary before the next piece, at i, if
// one is due (left is 0): it resets left and reports true, or reports false
// when the marks are at their limit and the caller must hand them over
// first. The loops call it before each piece (countRun, written out).
func (mk *marker) mark(i int) bool {
	if mk.left > 0 {
		return true
	}
	if mk.n == mk.limit {
		return false
	}
	mk.buf[mk.n&(markBatch-1)] = Mark{Piece: mk.pieces, Offset: i, Tokens: mk.tokens}
	mk.n, mk.left = mk.n+1, mk.every
	return true
}

// marks returns the marks recorded.
func (mk *marker) marks() []Mark { return mk.buf[:mk.n] }

// countFast is the counting loop of cl100k_base and o200k_base, and of
// each stretch of o200k_harmony between two special tokens. It counts from
// i to the end of s, or until a mark is due and mk holds no more, and
// returns where it stopped. Two inner loops count the pieces of ASCII text
// from the piece cache with no call to the splitter: countBlocks splits a
// window of 64 bytes at a time from the bytes' class masks (blockEnds);
// countRun splits a piece at a time on the splitters' own ASCII paths
// (matchASCII, wordASCII, wordO200KASCII), for the pieces that no window
// decides, one at a time before going back to the windows. Anything
// neither counts (a character past ASCII where it matters, a piece of over
// 48 bytes or at the end of the text, a cache miss) comes back here, which
// counts that one piece with the encoding's splitter and pieceCache.count,
// which keeps it, and goes back in.
//
// Most of counting's time on real text had gone to calls (the splitter, its
// helpers, the cache lookup), each saving and restoring the loop's
// registers: about 350 instructions a piece of Go's net/http in
// cl100k_base. countRun alone took about 140; with countBlocks, 125 (33.7
// million a warm MiB; o200k_base 36.0 million, 43.4 before). Past calls,
// mispredicted branches cost more than instructions: countRun reads a
// word's letters eight at a time (nonLetters) and both loops compare the
// cache's ways without a branch each, but countRun still branches on each
// piece's kind, which source code does not let a predictor learn (578,000
// mispredicts a warm MiB of net/http in cl100k_base, 782,000 in o200k_base;
// 70,000 and 53,000 with countBlocks). Marks are kept in the loops, not by
// returning to WalkMarks every few pieces: a call a block of 32 pieces,
// three layers deep, cost chunk planning a tenth over counting alone.
// WalkMarks walks through these loops and Pieces through the splitter, so
// the specs that hold the two to the same pieces (and FuzzCount) check that
// they split alike.
func (e *encoding) countFast(c *pieceCache, s string, i int, mk *marker, valid bool) int {
	mk.o200k, mk.two, mk.sets, mk.long, mk.small = e.o200k, &e.ranks.two, &c.sets, &c.long, &c.small
	for {
		var missed bool
		if i, missed = countBlocks(s, i, mk); i < len(s) && !missed {
			if k := countRun(s, i, mk, i+1); k > i { // the piece no window decided, then back to the windows
				i = k
				continue
			}
		}
		if i >= len(s) || !mk.mark(i) {
			return i
		}
		j := e.match(s, i)
		mk.tokens += c.count(e, s[i:j], valid)
		mk.pieces, mk.left, i = mk.pieces+1, mk.left-1, j
	}
}

// countRun is countFast's piece-at-a-time loop: it counts the pieces from
// s[i] to stop (at most len(s)) while they start with an ASCII character,
// ASCII decides where they end and the cache holds them (or they are one or
// two bytes), adds them to mk and keeps its marks, and returns where it
// stopped. It calls only the lookups of pieces of 8 to 15 bytes (shortHit,
// which the compiler does not inline) and of 16 to 48 (longHit): shortHit's
// call cost 1.6% more instructions and no time measurable when o200k_base
// counted through this loop alone, and the windows count most pieces now.
func countRun(s string, i int, mk *marker, stop int) int {
	left, tokens, pieces := mk.left, 0, 0
inner:
	for i < stop {
		if left == 0 { // a mark is due (mk.mark, written out)
			if mk.n == mk.limit {
				break
			}
			mk.buf[mk.n&(markBatch-1)] = Mark{Piece: mk.pieces + pieces, Offset: i, Tokens: mk.tokens + tokens}
			mk.n, left = mk.n+1, mk.every
		}
		j := i + 1
		word := -1 // where the piece's letters start, if it is a word
		switch kind := byteKind[s[i]]; kind {
		case kindLetter:
			word = i
		case kindDigit: // \p{N}{1,3}
			for j < len(s) && j < i+3 && byteClass[s[j]]&classNumber != 0 {
				j++
			}
			if j < i+3 && j < len(s) && s[j] >= utf8.RuneSelf {
				break inner
			}
		case kindQuote:
			if !mk.o200k {
				if k := contractionFast(s, i); k >= 0 {
					j = k
					break
				}
			}
			fallthrough
		case kindOther, kindSpace, kindBlank:
			if j == len(s) {
				break
			}
			switch next := byteClass[s[j]]; {
			case next&classLetter != 0: // [^\r\n\p{L}\p{N}] before the letters
				word = j
			case next == 0:
				break inner
			case kind == kindBlank || kind == kindSpace && next&classOther == 0:
				if j = spaceEnd(s, i); j < 0 {
					break inner
				}
			default: //  ?[^\s\p{L}\p{N}]+[TRAIL]*
				if j = asciiRun(s, j, classOther); j < len(s) && s[j] >= utf8.RuneSelf {
					break inner
				}
				for j < len(s) && (s[j] == '\r' || s[j] == '\n' || mk.o200k && s[j] == '/') {
					j++
				}
			}
		case kindNewline:
			if j = spaceEnd(s, i); j < 0 {
				break inner
			}
		default:
			break inner
		}
		if word >= 0 { // \p{L}+ in cl100k_base; the upper run, the lower run and a contraction in o200k_base
			if !mk.o200k {
				for j = word + 1; ; j += 8 { // eight letters at a time (nonLetters)
					if j+8 > len(s) {
						j = asciiRun(s, j, classLetter)
						break
					}
					if out := nonLetters(le64(s[j:])); out != 0 {
						j += bits.TrailingZeros64(out) >> 3
						break
					}
				}
			} else if j = asciiRun(s, asciiRun(s, word, classUpper), classLower); j < len(s) && s[j] == '\'' {
				if k := contractionFast(s, j); k >= 0 {
					j = k
				}
			}
			if j < len(s) && s[j] >= utf8.RuneSelf {
				break inner
			}
		}
		// the piece s[i:j], through the cache (pieceCache.count's lookups)
		switch m := j - i; {
		case m > 2 && m <= smallMax && i+8 <= len(s): // most pieces: first
			key, set := smallKey(le64(s[i:])&loMask[m&shortMax], m)
			hit := smallHit(&mk.small[set], key)
			if hit == 0 {
				break inner
			}
			tokens += int(hit >> tokShift)
		case m > smallMax && m <= shortMax && i+packedMax <= len(s):
			t := s[i : i+packedMax]
			lo, hi := le64(t)&loMask[m&shortMax], le64(t[8:])&hiMask[m&shortMax]
			key, set := shortKey(lo, hi, m)
			hit := shortHit(&mk.sets[set], lo, key)
			if hit == 0 {
				break inner
			}
			tokens += int(hit >> tokShift)
		case m == 1: // ASCII: one byte, one token
			tokens++
		case m == 2: // a two-byte token, or two of one byte
			tokens += 1 + int(uint32(mk.two[uint(s[i])<<8|uint(s[i+1])])>>31) // rank -1: two
		case m > shortMax && m <= longMax: // an identifier, a run of spaces: the long slots
			k, ok := longHit(mk.long, s[i:j])
			if !ok {
				break inner
			}
			tokens += k
		default: // at the end of the text, or over longMax bytes
			break inner
		}
		i, pieces, left = j, pieces+1, left-1
	}
	mk.pieces, mk.tokens, mk.left = mk.pieces+pieces, mk.tokens+tokens, left
	return i
}

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

// spaceEnd is the white-space alternatives, \s*[\r\n]+|\s+(?!\S)|\s+,
// from s[i] (ASCII white space) as matchSpace reads them, or -1 when the
// run stops at a character past ASCII, which may be white space.
func spaceEnd(s string, i int) int {
	end, lastNL := i, -1
	for ; end < len(s) && byteClass[s[end]]&classSpace != 0; end++ {
		if byteClass[s[end]]&classBreak != 0 {
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

// nonLetters marks the bytes of x, eight read as a little-endian word, that
// are no ASCII letter: the high bit of each such byte, the rest zero. A
// letter's lower case (x|0x20) is 'a' to 'z' and its high bit clear;
// adding 0x1f and 0x05 to each byte's low seven bits sets its high bit when
// the byte is at least 'a' and above 'z' respectively, with no carry into
// the next byte.
func nonLetters(x uint64) uint64 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	z := (x | 0x2020202020202020) & low7
	atLeastA, pastZ := z+0x1f1f1f1f1f1f1f1f, z+0x0505050505050505
	return (x | ^atLeastA | pastZ) & high
}
