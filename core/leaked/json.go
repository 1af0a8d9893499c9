package leaked

import (
	"errors"
	"fmt"
	"strconv"
)

// Repair kinds, reported in Result.Repairs.
const (
	RepairCodeFence     = "code_fence"
	RepairTrailingComma = "trailing_comma"
	RepairControlChars  = "control_chars"
)

var errNotJSON = errors.New("not JSON")

// scanJSON finds the extent of the JSON object or array that starts at
// s[start] and returns the index just past it, the text with lossless repairs
// applied (nil when none was needed) and the repairs made. It fails fast at
// the first byte that cannot belong to JSON outside a string, so that a
// wrapper holding prose costs little; it does not fully validate (the caller
// decodes the extent with encoding/json).
func scanJSON(s string, start int) (end int, fixed []byte, repairs []string, err error) {
	if start >= len(s) || (s[start] != '{' && s[start] != '[') {
		return start, nil, nil, errNotJSON
	}
	depth := 0
	var buf []byte // repaired copy, allocated at the first repair
	copied := start
	repair := func(at int, kind string, replacement string) {
		if buf == nil {
			// Sized by what is known, not by the rest of the input: many
			// small repaired values must not each cost the whole input.
			buf = make([]byte, 0, 2*(at-start)+64)
		}
		buf = append(buf, s[copied:at]...)
		buf = append(buf, replacement...)
		copied = at + 1
		if !contains(repairs, kind) {
			repairs = append(repairs, kind)
		}
	}
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			// A string: scan to its closing quote, escaping raw control characters.
			i++
			for ; i < len(s); i++ {
				c := s[i]
				if c == '\\' {
					i++
					continue
				}
				if c == '"' {
					break
				}
				if c < 0x20 {
					repair(i, RepairControlChars, escapeControl(c))
				}
			}
			if i >= len(s) {
				return len(s), nil, nil, errors.New("unterminated string")
			}
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				end = i + 1
				if buf != nil {
					buf = append(buf, s[copied:end]...)
				}
				return end, buf, repairs, nil
			}
		case c == ',':
			// A trailing comma: only white space between it and a closing bracket.
			j := i + 1
			for j < len(s) && isSpace(s[j]) {
				j++
			}
			if j < len(s) && (s[j] == '}' || s[j] == ']') {
				repair(i, RepairTrailingComma, "")
			}
		case isSpace(c) || c == ':' || c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		case c == 't' || c == 'r' || c == 'u' || c == 'e' || c == 'f' || c == 'a' || c == 'l' || c == 's' || c == 'n' || c == 'E':
			// letters of true, false, null and exponents
		default:
			return i, nil, nil, fmt.Errorf("unexpected %s outside a string with %d bracket(s) still open", strconv.QuoteRune(rune(c)), depth)
		}
	}
	return len(s), nil, nil, errors.New("truncated JSON")
}

func escapeControl(c byte) string {
	switch c {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	return `\u00` + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15])
}
