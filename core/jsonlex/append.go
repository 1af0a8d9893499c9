package jsonlex

import "unicode/utf8"

// Append appends s to dst as a JSON string literal, byte for byte what an
// encoding/json Encoder with SetEscapeHTML(false) writes: '"' and '\\'
// escaped, \b \f \n \r \t by name and the other bytes below 0x20 as \u00XX,
// U+2028 and U+2029 escaped (JavaScript reads them as line ends), each byte
// of invalid UTF-8 as \ufffd, and everything else, <, > and & included,
// as it is. It appends runs of plain bytes at once, so it costs about a
// copy of s.
func Append[T Text](dst []byte, s T) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0 // s[start:i] is plain, not yet appended
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, n := decodeRune(s[i:min(i+utf8.UTFMax, len(s))])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += n
			continue
		}
		i += n
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
