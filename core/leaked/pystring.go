package leaked

import (
	"strings"
	"unicode/utf8"

	"github.com/toolout/toolout/core/jsonlex"
)

// The string literals of pythonic calls: single, double and triple quotes,
// the prefixes r and u, Python's escapes, adjacent literals joined.

// pyStringAt reports whether a string literal starts at s[j]: a quote, or
// the prefix r, R, u or U and a quote.
func (sc *scanner) pyStringAt(j int) bool {
	s := sc.s
	if j >= len(s) {
		return false
	}
	if c := s[j]; c == '"' || c == '\'' {
		return true
	}
	return strings.IndexByte("rRuU", s[j]) >= 0 && j+1 < len(s) && (s[j+1] == '"' || s[j+1] == '\'')
}

// pyStrings reads the string literal at s[j] and those that follow it
// (Python joins adjacent literals), and appends them as one JSON string.
func (sc *scanner) pyStrings(j int) (int, bool) {
	p := &sc.py
	p.str = p.str[:0]
	for {
		end, ok := sc.pyString(j)
		if !ok {
			return end, false
		}
		if j = sc.skip(end); !sc.pyStringAt(j) {
			p.out = jsonlex.Append(p.out, p.str)
			return end, true
		}
	}
}

// pyString decodes one string literal at s[j] into p.str.
func (sc *scanner) pyString(j int) (int, bool) {
	s, p := sc.s, &sc.py
	raw := false
	if c := s[j]; c != '"' && c != '\'' {
		raw = c|0x20 == 'r'
		j++
	}
	q := s[j]
	triple := j+2 < len(s) && s[j+1] == q && s[j+2] == q
	k := j + 1
	if triple {
		k = j + 3
	}
	for {
		if k >= len(s) {
			return p.cut(k, "a string")
		}
		switch c := s[k]; {
		case c == q && !triple:
			return k + 1, true
		case c == q && k+2 < len(s) && s[k+1] == q && s[k+2] == q:
			return k + 3, true
		case (c == '\n' || c == '\r') && !triple:
			return p.bad(k, "a line break in a string")
		case c == '\\':
			var ok bool
			if k, ok = sc.pyEscape(k, raw); !ok {
				return k, false
			}
		default:
			r := k + 1
			for r < len(s) && s[r] != q && s[r] != '\\' && s[r] != '\n' && s[r] != '\r' {
				r++
			}
			p.str = append(p.str, s[k:r]...)
			k = r
		}
	}
}

// pyEscape decodes the escape at s[k] ('\\') into p.str, as Python does:
// the named escapes, octal, \x, \u, \U (a surrogate pair written as two
// \u escapes is joined; a lone surrogate becomes U+FFFD), a line
// continuation; an unknown escape keeps its backslash, and \N{...} is not
// supported. In a raw string the backslash and the next byte stay as they
// are.
func (sc *scanner) pyEscape(k int, raw bool) (int, bool) {
	s, p := sc.s, &sc.py
	if k+1 >= len(s) {
		return p.cut(k+1, "a string")
	}
	e := s[k+1]
	if raw {
		p.str = append(p.str, '\\', e)
		return k + 2, true
	}
	if i := strings.IndexByte(`\'"abfnrtv`, e); i >= 0 {
		p.str = append(p.str, "\\'\"\a\b\f\n\r\t\v"[i])
		return k + 2, true
	}
	switch e {
	case '\n':
		return k + 2, true
	case '\r':
		if k+2 < len(s) && s[k+2] == '\n' {
			return k + 3, true
		}
		return k + 2, true
	case 'x', 'u', 'U':
		return sc.pyHexEscape(k)
	case 'N':
		return p.bad(k, "a named escape")
	}
	if e >= '0' && e <= '7' {
		r, n := rune(0), k+1
		for ; n < len(s) && n < k+4 && s[n] >= '0' && s[n] <= '7'; n++ {
			r = r*8 + rune(s[n]-'0')
		}
		p.str = utf8.AppendRune(p.str, r)
		return n, true
	}
	p.str = append(p.str, '\\') // unknown: kept, and the byte after it is read as text
	return k + 1, true
}

// pyHexEscape decodes \xNN, \uNNNN or \UNNNNNNNN at s[k].
func (sc *scanner) pyHexEscape(k int) (int, bool) {
	s, p := sc.s, &sc.py
	n := 2
	switch s[k+1] {
	case 'u':
		n = 4
	case 'U':
		n = 8
	}
	r, end, ok := hexAt(s, k+2, n)
	switch {
	case !ok && end >= len(s):
		return p.cut(end, "a string")
	case !ok || r > utf8.MaxRune:
		return p.bad(k, "a malformed escape")
	}
	if r >= 0xD800 && r < 0xDC00 && strings.HasPrefix(s[end:], `\u`) {
		if lo, e2, ok := hexAt(s, end+2, 4); ok && lo >= 0xDC00 && lo < 0xE000 {
			r, end = 0x10000+(r-0xD800)<<10+(lo-0xDC00), e2
		}
	}
	p.str = utf8.AppendRune(p.str, rune(r)) // a lone surrogate is written as U+FFFD
	return end, true
}

// hexAt reads n hex digits at s[j]: their value, and where they end (or
// where a byte that is not a hex digit stands, or len(s)).
func hexAt(s string, j, n int) (uint32, int, bool) {
	var r uint32
	for k := j; k < j+n; k++ {
		if k >= len(s) {
			return 0, k, false
		}
		v := hexVal(s[k])
		if v < 0 {
			return 0, k, false
		}
		r = r<<4 | uint32(v)
	}
	return r, j + n, true
}

// hexVal is the value of a hex digit, or -1.
func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}
