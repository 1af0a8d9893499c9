package gateway

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"
)

// firstWords returns the first n words of s joined by single spaces, and
// how many words s holds: a word is a run of characters that are not
// white space (unicode.IsSpace; a byte of invalid UTF-8 is not space), as
// strings.Fields splits. It keeps no word past the n-th: the rest of s is
// only counted, eight bytes at a time while they are ASCII.
func firstWords(s string, n int) (kept string, total int) {
	var b strings.Builder
	i := 0
	for i < len(s) && total < n {
		for i < len(s) { // the spaces before a word
			sp, size := spaceAt(s, i)
			if !sp {
				break
			}
			i += size
		}
		if i == len(s) {
			break
		}
		start := i
		for i < len(s) {
			sp, size := spaceAt(s, i)
			if sp {
				break
			}
			i += size
		}
		if total > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s[start:i])
		total++
	}
	// s[i-1], when i > 0, ends the last word kept, or s ended.
	return b.String(), total + countWords(s[i:])
}

// spaceAt reports whether the character at s[i] is white space, and its
// size in bytes.
func spaceAt(s string, i int) (bool, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiSpace(c), 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return unicode.IsSpace(r), size
}

func asciiSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// countWords counts the words of s, where s starts outside a word. ASCII
// is read sixteen bytes at a time, as two words whose masks are computed
// independently (the processor overlaps them); anything else a character
// at a time.
func countWords(s string) int {
	count, inWord := 0, false
	for i := 0; i < len(s); {
		if i+16 <= len(s) {
			w := s[i : i+16] // of known length: no bounds check between the loads, which combine
			x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
			y := uint64(w[8]) | uint64(w[9])<<8 | uint64(w[10])<<16 | uint64(w[11])<<24 |
				uint64(w[12])<<32 | uint64(w[13])<<40 | uint64(w[14])<<48 | uint64(w[15])<<56
			if (x|y)&hi8 == 0 {
				wx, wy := wordBytes(x), wordBytes(y)
				prev := wx << 8
				if inWord {
					prev |= 0x80
				}
				count += bits.OnesCount64(wx&^prev) + bits.OnesCount64(wy&^(wy<<8|wx>>56)) // the bytes that start a word
				inWord = wy>>63 != 0
				i += 16
				continue
			}
		}
		sp, size := spaceAt(s, i)
		if !sp && !inWord {
			count++
		}
		inWord = !sp
		i += size
	}
	return count
}

const lo8, hi8 = 0x0101010101010101, 0x8080808080808080

// wordBytes marks with its high bit each byte of x that is not white
// space, every byte of x being below 0x80: then none of the sums below
// carries into the next byte. A byte from '!' on is not space; a byte
// below ' ' is space only from '\t' to '\r', which the slower sums test
// when x holds a byte below ' ' at all (a line end, about once a line).
func wordBytes(x uint64) uint64 {
	graphic := (x + (0x80-0x21)*lo8) & hi8 // from '!' on
	if ^(x+(0x80-0x20)*lo8)&hi8 == 0 {     // no byte below ' '
		return graphic
	}
	notSP := ((x ^ 0x20*lo8) + 0x7f*lo8) & hi8
	ge9 := (x + (0x80-9)*lo8) & hi8
	ge14 := (x + (0x80-14)*lo8) & hi8
	return notSP &^ (ge9 &^ ge14)
}
