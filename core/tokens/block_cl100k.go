package tokens

import "math/bits"

// blockBytes is the window blockEnds reads: 64 bytes, one bit of a word each.
const blockBytes = 64

// blockEnds is cl100k_base's split of ASCII text as bit masks: where the
// pieces that start at s[0] end, as bits of a word (bit k set when a piece
// ends at s[k]), for as many of the first 64 bytes as they alone decide;
// 0 when they decide none. s[0] must start a piece and s hold at least
// blockBytes bytes.
//
// The counting loop's splitting branched on each piece's kind (a word, a
// run of punctuation, white space, digits), and in source code, where the
// kinds alternate with no pattern a predictor learns, about one branch in
// two of those mispredicted: Go's net/http counted at 0.76x the speed of
// English prose. Here the bytes' classes come eight at a time (as
// nonLetters finds letters) and the pieces' ends from shifts of the class
// masks, with no branch on the text. The pattern's alternatives, as they
// fall on ASCII, where c is the byte before a piece's start:
//
//   - A letter run is one piece with the byte before it when that byte is
//     white space other than \r \n, or a punctuation run of one byte that no
//     space came before (that space takes the punctuation: " (x" is " (",
//     "x"); an apostrophe so placed starts a contraction when one follows
//     ("'t" of "don't"), which ends the piece after its letters.
//   - Digits: pieces of three from the run's start.
//   - Punctuation ([^\s\p{L}\p{N}]): the whole run, with the space before it
//     if one is there, and the \r \n after it.
//   - White space: a run ends a piece after its last line break
//     (\s*[\r\n]+), and its last byte, when that is no line break, is a piece
//     of its own or starts the next (\s+(?!\S)).
//
// The pattern matches forward only, so a piece's start decides the rest,
// and every window starts at a piece's start. Only the bytes to a window's
// end are read; the last run that reaches within four bytes of the end, or
// of the first byte past ASCII (which may be a letter, a digit or white
// space), might go on, so the ends returned stop at that run's start. So
// do they before a line break whose white space goes on after it to another
// (a blank line with spaces on it: which break is the last is decided
// further on), and the loop splits those pieces one at a time. A spec
// holds these ends to the splitter's at every piece of real and random
// text, and the counting specs and FuzzCount hold the counts.
func blockEnds(s string) uint64 {
	_ = s[blockBytes-1]
	if (le64(s)|le64(s[8:]))&swarHigh != 0 { // too near a byte past ASCII to decide much
		return 0
	}
	var p0, p1, p2 uint64 // the bytes' codes (blockCode), bit by bit
	for k := 0; k < blockBytes; k += 16 {
		t := s[k : k+16]
		acc := blockCode[t[0]] | blockCode[t[1]]<<1 | blockCode[t[2]]<<2 | blockCode[t[3]]<<3 |
			blockCode[t[4]]<<4 | blockCode[t[5]]<<5 | blockCode[t[6]]<<6 | blockCode[t[7]]<<7 |
			blockCode[t[8]]<<8 | blockCode[t[9]]<<9 | blockCode[t[10]]<<10 | blockCode[t[11]]<<11 |
			blockCode[t[12]]<<12 | blockCode[t[13]]<<13 | blockCode[t[14]]<<14 | blockCode[t[15]]<<15
		p0 |= uint64(uint16(acc)) << k
		p1 |= uint64(uint16(acc>>16)) << k
		p2 |= uint64(uint16(acc>>32)) << k
	}
	letter, digit := p1&^p0&^p2, p1&p0&^p2
	quote, punct := p0&^p1&^p2, ^(p1 | p2)
	high, white := p0&p1&p2, p2&^(p0&p1)
	blank, brk, space := p2&^p1, p2&p1&^p0, p2&^(p0|p1)
	h := bits.TrailingZeros64(high)
	if h == 0 {
		return 0
	}
	letters, digits := letter&^(letter<<1), digit&^(digit<<1)
	puncts, whites := punct&^(punct<<1), white&^(white<<1)

	// the last run that the window may not hold whole
	last := min(blockBytes-4, h-1)
	cut := 63 - bits.LeadingZeros64((1|letters|digits|puncts|whites)&(2<<last-1))

	// letter runs, their prefixes and the punctuation a space takes
	prefix := letters >> 1 & (blank | puncts&^(space<<1))
	taken := space & (punct >> 1)
	b := prefix | letters&^(prefix<<1) | taken | puncts&^(taken<<1)
	// digits in threes
	b |= digits
	for x := digits; ; {
		if x = x << 3 & digit & (digit << 1) & (digit << 2); x == 0 {
			break
		}
		b |= x
	}
	// white space: the breaks right after punctuation end its piece; a run
	// starts a piece, and so do the blanks after its last break and its
	// last blank
	kept := brk &^ (brk << 1) & (punct << 1)
	afterBreak := blank & (brk << 1)
	b |= whites&^kept | (brk+kept)&^brk&blank | afterBreak | blank&(^white>>1)
	if bad := (blank + afterBreak) &^ blank & brk; bad != 0 {
		// blanks between two breaks: the run's first break may not be
		// its last, and the run is split one piece at a time
		cut = min(cut, 63-bits.LeadingZeros64(whites&(2<<bits.TrailingZeros64(bad)-1)))
	}
	// a run of digits is cut in threes from its start, wherever it ends
	if digit>>cut&1 != 0 {
		run := cut + bits.TrailingZeros64(^(digit >> cut))
		cut = 63 - bits.LeadingZeros64(b&digit&(1<<run-1))
	}
	// contractions: an apostrophe that starts a piece before letters
	for x := quote & prefix; x != 0; x &= x - 1 {
		if k := contractionFast(s, bits.TrailingZeros64(x)); k >= 0 && k < blockBytes {
			b |= 1 << k
		}
	}
	return b &^ 1 & (2<<cut - 1)
}

// blockCode is each byte's class as blockEnds reads it, a code of three
// bits, each in its own 16 bits so that the codes of 16 bytes add up without
// a carry (bit b of byte k's code at bit 16b+k):
//
//	000 punctuation: [^\s\p{L}\p{N}] in ASCII, but the apostrophe
//	001 the apostrophe
//	010 a letter
//	011 a digit
//	100 a space
//	101 \t \v \f
//	110 \r \n
//	111 past ASCII
var blockCode = func() (t [256]uint64) {
	for b := range 256 {
		var code uint64
		switch class := asciiClass[b&0x7f]; {
		case b >= 0x80:
			code = 0b111
		case b == '\'':
			code = 0b001
		case class&classLetter != 0:
			code = 0b010
		case class&classNumber != 0:
			code = 0b011
		case b == ' ':
			code = 0b100
		case class&classBreak != 0:
			code = 0b110
		case class&classSpace != 0:
			code = 0b101
		}
		t[b] = code&1 | code>>1&1<<16 | code>>2<<32
	}
	return t
}()

const (
	swarLow  = 0x7f7f7f7f7f7f7f7f
	swarHigh = 0x8080808080808080
	swarOnes = 0x0101010101010101
)

// gather packs the high bits of x's eight bytes (the rest zero) into the low
// eight bits, the first byte's lowest.
func gather(x uint64) uint64 {
	return (x >> 7) * 0x0102040810204080 >> 56
}

// inRange marks the bytes of x from lo to hi (both ASCII) with their high
// bit, as nonLetters does: adding 0x80-lo to a byte's low seven bits sets
// its high bit when it is at least lo, adding 0x7f-hi when it is past hi.
func inRange(x uint64, lo, hi uint8) uint64 {
	z := x & swarLow
	return (z + swarOnes*uint64(0x80-lo)) &^ (z + swarOnes*uint64(0x7f-hi)) &^ x & swarHigh
}

// equal marks the bytes of x equal to c with their high bit.
func equal(x uint64, c uint8) uint64 {
	t := x ^ swarOnes*uint64(c)
	return ^((t&swarLow + swarLow) | t) & swarHigh
}

// countBlocks is countFast's loop for cl100k_base's ASCII text: it counts the
// pieces from s[i] that blockEnds finds, a window at a time, while the
// cache holds them, adds them to mk and keeps its marks (as countRun), and
// returns where it stopped: at a piece that no window decides (past ASCII,
// in a run of over 60 bytes, at the text's last 64), of over shortMax bytes,
// or missing from the cache (missed: countRun has other entries, and would
// not store it where this loop looks), or where a mark is due and mk holds
// no more.
func countBlocks(s string, i int, mk *marker) (end int, missed bool) {
	left, tokens, pieces := mk.left, 0, 0
blocks:
	for i+blockBytes <= len(s) {
		ends, base := blockEnds(s[i:]), i
		if ends == 0 {
			break
		}
		for ; ends != 0; ends &= ends - 1 {
			if left == 0 { // a mark is due (mk.mark, written out)
				if mk.n == mk.limit {
					break blocks
				}
				mk.buf[mk.n&(markBatch-1)] = Mark{Piece: mk.pieces + pieces, Offset: i, Tokens: mk.tokens + tokens}
				mk.n, left = mk.n+1, mk.every
			}
			j := base + bits.TrailingZeros64(ends)
			m := j - i
			if m > shortMax || i+packedMax > len(s) {
				break blocks
			}
			var hit uint64                              // the matching entry, without a branch a way: which way holds a piece is a coin toss
			if t := s[i : i+packedMax]; m <= smallMax { // the small entries (pieceCache.small, written out)
				key, set := smallKey(le64(t)&loMask[m], m)
				ways := &mk.small[set]
				if (ways[0]^key)<<countBits == 0 {
					hit = ways[0]
				}
				if (ways[1]^key)<<countBits == 0 {
					hit = ways[1]
				}
				if (ways[2]^key)<<countBits == 0 {
					hit = ways[2]
				}
				if (ways[3]^key)<<countBits == 0 {
					hit = ways[3]
				}
			} else { // the short entries (pieceCache.short, written out)
				lo, hi := le64(t)&loMask[m], le64(t[8:])&hiMask[m]
				key, set := shortKey(lo, hi, m)
				ways := &mk.sets[set]
				if (ways[0].lo^lo)|(ways[0].hi^key)<<countBits == 0 {
					hit = ways[0].hi
				}
				if (ways[1].lo^lo)|(ways[1].hi^key)<<countBits == 0 {
					hit = ways[1].hi
				}
				if (ways[2].lo^lo)|(ways[2].hi^key)<<countBits == 0 {
					hit = ways[2].hi
				}
				if (ways[3].lo^lo)|(ways[3].hi^key)<<countBits == 0 {
					hit = ways[3].hi
				}
			}
			if hit == 0 {
				missed = true
				break blocks
			}
			tokens += int(hit >> tokShift)
			i, pieces, left = j, pieces+1, left-1
		}
	}
	mk.pieces, mk.tokens, mk.left = mk.pieces+pieces, mk.tokens+tokens, left
	return i, missed
}
