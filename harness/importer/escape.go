package importer

import (
	"unicode/utf16"
	"unicode/utf8"
)

// escapeMap maps an offset in the decoded content of a JSON string literal
// back to the offset in its raw bytes (those between the quotes, as written
// in the trace) of what decoded to it. The unit that produced a decoded
// byte is a character as written, or an escape: \n and its kind (one byte),
// \uXXXX (the character's UTF-8 length), a surrogate pair \uXXXX\uXXXX (four
// bytes), a lone surrogate (U+FFFD, three bytes); a byte that is not UTF-8
// decodes to U+FFFD too. That is how jsonlex.Unescape and encoding/json
// decode a literal. A JSON text held in a string (an OTel attribute's
// stringValue) is parsed in decoded bytes; its errors are named at the raw
// offset, in the trace.
//
// Offsets are asked in increasing order, each in time proportional to the
// distance from the one before; an earlier offset starts over.
type escapeMap struct {
	raw  []byte
	i, d int // the raw and decoded offsets of the next unit
}

// at returns the raw offset of the unit that produced decoded byte d (its
// first byte when the unit decodes to several), or len(raw) for an offset
// at or past the end of the decoded content.
func (m *escapeMap) at(d int) int {
	if d < m.d {
		m.i, m.d = 0, 0
	}
	for m.i < len(m.raw) {
		rawLen, decLen := escapeUnit(m.raw, m.i)
		if m.d+decLen > d {
			return m.i
		}
		m.i, m.d = m.i+rawLen, m.d+decLen
	}
	return len(m.raw)
}

// rawOffset returns the raw offset in raw, a string literal's content, of
// decoded offset d (see escapeMap).
func rawOffset(raw []byte, d int) int {
	return (&escapeMap{raw: raw}).at(d)
}

// escapeUnit returns the length in raw and once decoded of the unit that
// starts at raw[i]. raw is a literal's content as jsonlex.String accepts it;
// a truncated escape counts as what is left of it.
func escapeUnit(raw []byte, i int) (rawLen, decLen int) {
	c := raw[i]
	switch {
	case c == '\\' && i+1 < len(raw) && raw[i+1] == 'u':
		r := hex4At(raw, i+2)
		if r < 0 {
			return len(raw) - i, 0
		}
		if !utf16.IsSurrogate(r) {
			return 6, utf8.RuneLen(r)
		}
		if r2 := hex4At(raw, i+8); i+7 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' && r2 >= 0 &&
			utf16.DecodeRune(r, r2) != utf8.RuneError {
			return 12, 4
		}
		return 6, 3 // a lone surrogate: U+FFFD
	case c == '\\':
		return min(2, len(raw)-i), 1
	case c < utf8.RuneSelf:
		return 1, 1
	}
	r, n := utf8.DecodeRune(raw[i:])
	if r == utf8.RuneError && n == 1 {
		return 1, 3 // not UTF-8: U+FFFD
	}
	return n, n
}

// hex4At reads four hex digits at raw[i], or returns -1.
func hex4At(raw []byte, i int) rune {
	if i < 0 || i+4 > len(raw) {
		return -1
	}
	var r rune
	for _, c := range raw[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return -1
		}
	}
	return r
}
