package jsonlex

import (
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// AppendString reads the string literal that starts at b[i] (which must be
// '"') as String does, and appends its content to dst decoded as
// Unescape(replace: true) decodes it, in the same one pass: at and f are
// String's, and escaped is String's or true when invalid UTF-8 was
// replaced. On OK, when escaped, dst holds what Unescape gives; when not,
// dst is as it was (the text is the literal's own bytes, nothing is
// copied). On a fault, what dst holds past its length before is
// unspecified. A reader that keeps the text of a long string with escapes
// saves String's scan with it.
func AppendString[T Text](dst []byte, b T, i int) (out []byte, at int, escaped bool, f Fault) {
	i++
	run := i // b[run:i] is kept as it is, not yet appended
	for i < len(b) {
		for i+16 <= len(b) { // two words a round: a run of plain text costs a test per 16 bytes
			if special8(word8(b, i))|special8(word8(b, i+8)) != 0 {
				break
			}
			i += 16
		}
		for i+8 <= len(b) {
			if m := special8(word8(b, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3 // straight to the first byte to look at
				break
			}
			i += 8
		}
		if i == len(b) {
			break
		}
		switch c := b[i]; {
		case c == '"':
			if !escaped {
				return dst, i + 1, false, OK
			}
			return append(dst, b[run:i]...), i + 1, true, OK
		case c < 0x20:
			return dst, i, escaped, Control
		case c == '\\':
			dst = append(dst, b[run:i]...)
			escaped = true
			if i+1 < len(b) && unescaped[b[i+1]] != 0 { // \n, \" and the like, here rather than in a call
				dst = append(dst, unescaped[b[i+1]])
				i += 2
				run = i
				continue
			}
			var fault Fault
			if dst, i, fault = appendEscape(dst, b, i); fault != OK {
				return dst, i, escaped, fault
			}
			run = i
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := decodeRune(b[i:min(i+utf8.UTFMax, len(b))])
			if r == utf8.RuneError && n == 1 {
				dst = utf8.AppendRune(append(dst, b[run:i]...), utf8.RuneError)
				escaped = true
				run = i + 1
			}
			i += n
		}
	}
	return dst, len(b), escaped, Unterminated
}

// appendEscape decodes the escape at b[i] (a backslash) onto dst, as
// String checks it and UnescapeSome decodes it: a \u high surrogate
// followed by a \u low one is one character, any other surrogate U+FFFD.
// It returns the index after the escape, or the fault at i.
func appendEscape[T Text](dst []byte, b T, i int) ([]byte, int, Fault) {
	if i+1 >= len(b) {
		return dst, i, Unterminated
	}
	switch e := b[i+1]; e {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return append(dst, unescaped[e]), i + 2, OK
	case 'u':
	default:
		return dst, i, BadEscape
	}
	if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
		return dst, i, BadHex
	}
	r := hex4(b, i+2)
	i += 6
	if utf16.IsSurrogate(r) {
		r2 := rune(-1)
		if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
			r2 = hex4(b, i+2) // -1 unless four hex digits: then the next escape is a fault of its own
		}
		if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
			return utf8.AppendRune(dst, dec), i + 6, OK
		}
		r = utf8.RuneError
	}
	return utf8.AppendRune(dst, r), i, OK
}
