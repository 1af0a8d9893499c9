package jsonlex

import (
	"math"
	"unicode/utf16"
	"unicode/utf8"
)

// Text is what the functions read: a string or a byte slice, so that a
// reader over either keeps its own representation without a copy.
type Text interface{ ~string | ~[]byte }

// Space returns the index of the first byte at or after i that is not JSON
// white space (space, tab, line feed, carriage return; unlike Go's
// unicode.IsSpace, no form feed or vertical tab), or len(b).
func Space[T Text](b T, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// Literal returns the index after word when b holds it at i, or -1.
func Literal[T Text](b T, i int, word string) int {
	if i < 0 || len(b)-i < len(word) {
		return -1
	}
	for k := 0; k < len(word); k++ {
		if b[i+k] != word[k] {
			return -1
		}
	}
	return i + len(word)
}

// Number reads the number that starts at b[i],
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and returns the index
// after it. When b holds none there, ok is false and end is where the
// grammar failed: i, or i+1 after a lone '-', when no digit starts it (no
// number at all); otherwise the position after the '.' or the exponent
// marker (and its sign) where a digit is missing, which is past i+1.
func Number[T Text](b T, i int) (end int, ok bool) {
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return max(i, start), false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digits[T Text](b T, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// Fault is what makes a string literal invalid.
type Fault uint8

const (
	// OK: the literal is valid.
	OK Fault = iota
	// Unterminated: the input ends before the closing quote (at is
	// len(b), or the backslash whose escape the input cuts).
	Unterminated
	// Control: a byte below 0x20, at at.
	Control
	// BadEscape: a backslash at at followed by none of "\/bfnrtu.
	BadEscape
	// BadHex: \u at at without four hex digits.
	BadHex
)

// String reads the string literal that starts at b[i], which must be '"',
// and returns the index after its closing quote and whether it holds an
// escape. When it is not valid, at is the offset of the fault and f says
// which; a byte from 0x80 on is taken as it is (encoding/json's validator
// does the same; invalid UTF-8 is the decoder's business, see Unescape).
func String[T Text](b T, i int) (at int, escaped bool, f Fault) {
	for i++; i < len(b); i++ {
		// Most of a string is plain bytes: skip them eight at a time,
		// then four.
		for i+8 <= len(b) && plain8(word8(b, i)) {
			i += 8
		}
		for i+4 <= len(b) && plain[b[i]] && plain[b[i+1]] && plain[b[i+2]] && plain[b[i+3]] {
			i += 4
		}
		if i == len(b) {
			break
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, escaped, OK
		case c < 0x20:
			return i, escaped, Control
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				return i, escaped, Unterminated
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return i, escaped, BadHex
				}
				i += 5
			default:
				return i, escaped, BadEscape
			}
		}
	}
	return len(b), escaped, Unterminated
}

// plain marks the bytes a string literal holds as they are: not '"', not
// '\\' and not a control byte.
var plain = func() (t [256]bool) {
	for c := 0x20; c < len(t); c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// Bytes of a word, for the tests of eight bytes at once below.
const lo8, hi8 = 0x0101010101010101, 0x8080808080808080

// word8 is the eight bytes at b[i] as a little-endian word.
func word8[T Text](b T, i int) uint64 {
	w := b[i : i+8] // of known length: no bounds check between the loads, which combine
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// below reports whether a byte of x is below n (n <= 0x80).
func below(x uint64, n byte) bool { return (x-lo8*uint64(n))&^x&hi8 != 0 }

// holds reports whether a byte of x is c.
func holds(x uint64, c byte) bool { return below(x^(lo8*uint64(c)), 1) }

// special8 marks with its high bit each byte of x that AppendString must
// look at: '"', '\\', a control byte, or one of UTF-8 past ASCII. A byte
// above a marked one may be marked too (the subtractions borrow), but the
// lowest mark is exact, so bits.TrailingZeros64 finds the first such byte.
func special8(x uint64) uint64 {
	q, bs := x^(lo8*'"'), x^(lo8*'\\')
	return ((x-lo8*0x20)&^x | (q-lo8)&^q | (bs-lo8)&^bs | x) & hi8
}

// plain8 reports whether each byte of x is plain (see plain).
func plain8(x uint64) bool { return !below(x, 0x20) && !holds(x, '"') && !holds(x, '\\') }

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// Unescape appends to dst the content of a string literal, raw being the
// bytes between its quotes as String accepted them: escapes are decoded, a
// surrogate pair becomes its character and a lone surrogate U+FFFD. With
// replace, each byte of invalid UTF-8 becomes U+FFFD, as encoding/json
// decodes; without, other bytes are kept as they are.
func Unescape[T Text](dst []byte, raw T, replace bool) []byte {
	dst, _ = UnescapeSome(dst, raw, replace, math.MaxInt)
	return dst
}

// UnescapeSome is Unescape that stops once it appended at least max bytes
// (at most max+4), and returns how many bytes of raw it read: it stops only
// between a run of bytes kept as they are, an escape (a surrogate pair is
// one) and a character, so a call on raw[n:] goes on where it stopped. A
// reader decodes a long string through a small buffer with it.
func UnescapeSome[T Text](dst []byte, raw T, replace bool, max int) (out []byte, n int) {
	start := len(dst)
	for i := 0; i < len(raw); {
		room := max - (len(dst) - start)
		if room <= 0 {
			return dst, i
		}
		// Most of a string is bytes kept as they are: append each run
		// of them at once.
		j, end := i, len(raw)
		if room < end-i {
			end = i + room
		}
		for j+8 <= end {
			if x := word8(raw, j); holds(x, '\\') || replace && x&hi8 != 0 {
				break
			}
			j += 8
		}
		for j < end && raw[j] != '\\' && (raw[j] < utf8.RuneSelf || !replace) {
			j++
		}
		if j > i {
			dst = append(dst, raw[i:j]...)
			i = j
			continue
		}
		c := raw[i]
		switch {
		case c == '\\':
		default:
			r, n := decodeRune(raw[i:min(i+utf8.UTFMax, len(raw))])
			dst = utf8.AppendRune(dst, r)
			i += n
			continue
		}
		e := raw[i+1]
		if e != 'u' {
			dst = append(dst, unescaped[e])
			i += 2
			continue
		}
		r := hex4(raw, i+2)
		i += 6
		if utf16.IsSurrogate(r) {
			r2 := rune(-1)
			if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
				r2 = hex4(raw, i+2)
			}
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				r = dec
				i += 6
			} else {
				r = utf8.RuneError
			}
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst, len(raw)
}

// unescaped maps the byte after a backslash to the byte it stands for.
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// decodeRune decodes the first character of b (at most utf8.UTFMax bytes).
func decodeRune[T Text](b T) (rune, int) {
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], b)
	return utf8.DecodeRune(buf[:n])
}

// hex4 reads the four hex digits at raw[i] (String checked them), or -1
// when there are none there.
func hex4[T Text](raw T, i int) rune {
	if i+4 > len(raw) {
		return -1
	}
	var r rune
	for _, c := range []byte{raw[i], raw[i+1], raw[i+2], raw[i+3]} {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return -1
		}
	}
	return r
}
