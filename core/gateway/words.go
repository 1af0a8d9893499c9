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

// countWords counts the words of s, where s starts outside a word.
func countWords(s string) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	count, inWord := 0, false
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			w := s[i : i+8] // of known length: no bounds check between the loads, which combine
			x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
			if x&hi == 0 {
				// Each byte is below 0x80, so none of the sums below
				// carries into the next byte: the high bit of each byte
				// of notSP says the byte is not ' ', of ge9 that it is
				// at least '\t', of ge14 that it is past '\r'.
				notSP := ((x ^ 0x20*lo) + 0x7f*lo) & hi
				ge9 := (x + (0x80-9)*lo) & hi
				ge14 := (x + (0x80-14)*lo) & hi
				word := notSP &^ (ge9 &^ ge14) // the high bit of each byte that is not space
				prev := word << 8
				if inWord {
					prev |= 0x80
				}
				count += bits.OnesCount64(word &^ prev) // the bytes that start a word
				inWord = word>>63 != 0
				i += 8
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
