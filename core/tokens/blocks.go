package tokens

import "math/bits"

// blockBytes is the window blockEnds reads: 64 bytes, one bit of a word each.
const blockBytes = 64

// loMask and hiMask keep the first n bytes of a piece read as two
// little-endian words (packed as pack packs it), by n up to shortMax.
var loMask, hiMask = func() (lo, hi [shortMax + 1]uint64) {
	for n := range shortMax + 1 {
		lo[n] = 1<<(8*min(n, 8)) - 1
		hi[n] = 1<<(8*max(n-8, 0)) - 1
	}
	return lo, hi
}()

// blockEnds is the split of ASCII text as bit masks, cl100k_base's or (with
// o200k) o200k_base's: where the pieces that start at s[0] end, as bits of
// a word (bit k set when a piece ends at s[k]), for as many of the first 64
// bytes as they alone decide; 0 when they decide none. s[0] must start a
// piece and s hold at least blockBytes bytes.
//
// A loop that splits a piece at a time branches on its kind (a word, a
// run of punctuation, white space, digits). In source code the kinds
// alternate with no pattern a predictor learns: cachegrind's branch
// simulation counted 578,000 mispredicted branches a warm MiB of Go's
// net/http in cl100k_base (220,000 of the Opticks text), and that code
// counted at 0.75-0.79x the prose's speed. Here each byte's class comes from
// a table (blockCode), 16 bytes to a word, and the pieces' ends from shifts
// of the classes' bit masks, with no branch on the text: 70,000 mispredicts
// a MiB of either; splitting alone, 2.4x faster on net/http, 1.8x on the
// Opticks text. cl100k_base's alternatives, as they fall on ASCII
// (o200kEnds has o200k_base's differences):
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
// The patterns match forward only, so a piece's start decides the rest,
// and every window starts at a piece's start. Only a window's bytes are
// read: the run that reaches within four bytes of its end, or of the first
// byte past ASCII (which may be a letter, a digit or white space), may go
// on, so the ends returned stop at that run's start (a run of digits is cut
// in threes wherever it ends, so its ends count to the window's end). So do
// they before white space that holds a line break, then blanks, then
// another break (a blank line with spaces on it: which break is the last
// is decided further on). A window that starts within 16 bytes of a byte
// past ASCII decides nothing. Those pieces countFast counts one at a time
// with the splitter.
// TestBlockEndsAreTheSplittersEnds and FuzzBlockEnds hold these ends to
// the splitters' at every piece start, TestSplittersMatchTheirPatterns the
// counting loop's to the patterns, and FuzzCount the counts to tiktoken-go.
// The first two are the ones that see a wrong end: a piece that no splitter
// gives is never in the cache, so the loop counts it through the splitter,
// which splits it right, and counts and marks come out right but slow.
func blockEnds(s string, o200k bool) uint64 {
	_ = s[blockBytes-1]
	if (le64(s)|le64(s[8:]))&0x8080808080808080 != 0 {
		return 0
	}
	var p0, p1, p2, p3 uint64 // the bytes' codes (blockCode), bit by bit
	for k := 0; k < blockBytes; k += 16 {
		t := s[k : k+16]
		acc := blockCode[t[0]] | blockCode[t[1]]<<1 | blockCode[t[2]]<<2 | blockCode[t[3]]<<3 |
			blockCode[t[4]]<<4 | blockCode[t[5]]<<5 | blockCode[t[6]]<<6 | blockCode[t[7]]<<7 |
			blockCode[t[8]]<<8 | blockCode[t[9]]<<9 | blockCode[t[10]]<<10 | blockCode[t[11]]<<11 |
			blockCode[t[12]]<<12 | blockCode[t[13]]<<13 | blockCode[t[14]]<<14 | blockCode[t[15]]<<15
		p0 |= uint64(uint16(acc)) << k
		p1 |= uint64(uint16(acc>>16)) << k
		p2 |= uint64(uint16(acc>>32)) << k
		p3 |= acc >> 48 << k
	}
	letter, digit := p1&^p0&^p2, p1&p0&^p2
	quote, punct := p0&^p1&^p2, ^(p1 | p2)
	high, white := p0&p1&p2, p2&^(p0&p1)
	blank, brk, space := p2&^p1, p2&p1&^p0, p2&^(p0|p1)
	h := bits.TrailingZeros64(high) // at least 16
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
	if o200k {
		b, cut = o200kEnds(s, b, letter, p3, quote, brk, kept, cut)
		return b &^ 1 & (2<<cut - 1)
	}
	// contractions: an apostrophe that starts a piece before letters
	for x := quote & prefix; x != 0; x &= x - 1 {
		if k := contractionFast(s, bits.TrailingZeros64(x)); k >= 0 && k < blockBytes {
			b |= 1 << k
		}
	}
	return b &^ 1 & (2<<cut - 1)
}

// o200kEnds turns the ends that blockEnds found, b, into o200k_base's, and
// returns them with the last that the window decides, at most cut. o200k_base's
// pattern differs on ASCII in three places:
//
//   - A letter run is split where a lower-case letter meets an upper-case
//     one ([\p{Lu}...]*[\p{Ll}...]+ or [\p{Lu}...]+[\p{Ll}...]*).
//   - A contraction ends the word before it ("don't" is one piece), and the
//     letters after it start a word of their own.
//   - Punctuation takes '/' after its \r \n as well (?[^\s\p{L}\p{N}]+[\r\n/]*):
//     where one does, rare, the ends stop at that piece's start.
//
// upper is the bytes of the window that are upper-case letters, or '/'.
func o200kEnds(s string, b, letter, upper, quote, brk, kept uint64, cut int) (uint64, int) {
	b |= upper & letter & (letter &^ upper << 1)
	for x, after := quote&(letter<<1), -1; x != 0; x &= x - 1 {
		// a word takes one contraction: "they'd've" is "they'd", "'ve"
		if q := bits.TrailingZeros64(x); q != after {
			if k := contractionFast(s, q); k >= 0 {
				b, after = b&^(1<<k-1<<q)|1<<k, k
			}
		}
	}
	if slash := (brk + kept) &^ brk & upper &^ letter; slash != 0 {
		cut = min(cut, 63-bits.LeadingZeros64(b&(1<<bits.TrailingZeros64(slash)-1)))
	}
	return b, cut
}

// blockCode is each byte's class as blockEnds reads it, a code of four
// bits, each in its own 16 bits so that the codes of 16 bytes add up without
// a carry (bit b of byte k's code at bit 16b+k). The low three:
//
//	000 punctuation: [^\s\p{L}\p{N}] in ASCII, but the apostrophe
//	001 the apostrophe
//	010 a letter
//	011 a digit
//	100 a space
//	101 \t \v \f
//	110 \r \n
//	111 past ASCII
//
// The fourth marks the upper-case letters and '/', for o200k_base
// (o200kEnds).
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
		if 'A' <= b && b <= 'Z' || b == '/' {
			code |= 0b1000
		}
		t[b] = code&1 | code>>1&1<<16 | code>>2&1<<32 | code>>3<<48
	}
	return t
}()

// countBlocks is countFast's loop for ASCII text: it counts the pieces from
// s[i] that blockEnds finds, a window at a time, while the cache holds
// them, adds them to mk and keeps its marks, and returns where it stopped:
// at a piece that no window decides (past ASCII, in a run of over 60
// bytes, in the text's last 64), at one the cache misses (pieces of over
// longMax bytes among them), or where a mark is due and mk holds no more.
// countFast counts that piece with the splitter and pieceCache.count, which
// keeps it.
func countBlocks(s string, i int, mk *marker) int {
	left, tokens, pieces := mk.left, 0, 0
	small, short, long := mk.small, mk.sets, mk.long
blocks:
	for i+blockBytes <= len(s) {
		ends, base := blockEnds(s[i:], mk.o200k), i
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
			if m > shortMax { // an identifier, a run of spaces: the long slots
				k, ok := longHit(&long[longHash(s[i:j])>>(64-longBits)], s[i:j])
				if !ok {
					break blocks
				}
				tokens += k
				i, pieces, left = j, pieces+1, left-1
				continue
			}
			if i+packedMax > len(s) {
				break blocks
			}
			var hit uint64
			if t := s[i : i+packedMax]; m <= smallMax { // pieceCache.count's lookups
				key, set := smallKey(le64(t)&loMask[m], m)
				hit = smallHit(&small[set], key)
			} else {
				lo, hi := le64(t)&loMask[m], le64(t[8:])&hiMask[m]
				key, set := shortKey(lo, hi, m)
				hit = shortHit(&short[set], lo, key)
			}
			if hit == 0 {
				break blocks
			}
			tokens += int(hit >> tokShift)
			i, pieces, left = j, pieces+1, left-1
		}
	}
	mk.pieces, mk.tokens, mk.left = mk.pieces+pieces, mk.tokens+tokens, left
	return i
}
