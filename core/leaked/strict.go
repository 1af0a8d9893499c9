package leaked

// strict is a validating JSON parser for the values inside wrappers: one pass
// that checks the grammar exactly as encoding/json does and records the
// top-level members of an object (or the items of an array), so that a call
// is validated and read in one pass with no decoding into maps. It answers
// only "valid, here is where it ends and what it holds" or "not sure": the
// caller then takes the slow path (scanJSON's extent and repairs, and
// encoding/json's error), so the two can never disagree on what is valid.
//
// It is hand-written because decoding each body with encoding/json into a
// map and re-encoding the arguments cost about 8 µs a call, fifty times the
// scan around it (bench: BenchmarkLeaked input=dense-calls); the fuzz target
// FuzzStrict checks it against json.Valid.
type strict struct {
	stack []bool // open containers, innermost last: true for an object
	kids  []kid  // the top-level members (or items) of the last value
	// escaped is set when a top-level key holds an escape: its name is not
	// known without decoding, so the members are not usable.
	escaped bool
	top     string // the last top-level key read
}

// kid is a top-level member of an object (key, value) or an item of an
// array (value only), as raw JSON text.
type kid struct {
	key string
	val string
}

// maxStrictDepth is encoding/json's nesting limit; deeper values are left
// to the slow path, which reports the decoder's error.
const maxStrictDepth = 10_000

// value parses the JSON value that starts at s[i] and returns the index just
// past it, or -1 when it is not valid JSON (or nests too deep).
func (p *strict) value(s string, i int) int {
	p.stack, p.kids, p.escaped, p.top = p.stack[:0], p.kids[:0], false, ""
	valStart := -1
	for {
		// A value is expected at i.
		i = skipJSONSpace(s, i)
		if len(p.stack) == 1 {
			valStart = i
		}
		if i >= len(s) {
			return -1
		}
		switch c := s[i]; c {
		case '{', '[':
			if len(p.stack) == maxStrictDepth {
				return -1
			}
			i = skipJSONSpace(s, i+1)
			if i < len(s) && (c == '{' && s[i] == '}' || c == '[' && s[i] == ']') {
				i++
				break
			}
			p.stack = append(p.stack, c == '{')
			if c == '{' {
				if i = p.key(s, i); i < 0 {
					return -1
				}
			}
			continue
		case '"':
			i = jsonStringEnd(s, i)
		case 't':
			i = literal(s, i, "true")
		case 'f':
			i = literal(s, i, "false")
		case 'n':
			i = literal(s, i, "null")
		default:
			i = jsonNumberEnd(s, i)
		}
		if i < 0 {
			return -1
		}
		// A value ends at i: record it, then close every container that
		// ends here.
		for {
			if len(p.stack) == 0 {
				return i
			}
			if len(p.stack) == 1 {
				p.kids = append(p.kids, kid{key: p.top, val: s[valStart:i]})
			}
			i = skipJSONSpace(s, i)
			if i >= len(s) {
				return -1
			}
			isObj := p.stack[len(p.stack)-1]
			if s[i] == ',' {
				i++
				if isObj {
					if i = p.key(s, skipJSONSpace(s, i)); i < 0 {
						return -1
					}
				}
				break
			}
			if isObj && s[i] != '}' || !isObj && s[i] != ']' {
				return -1
			}
			p.stack = p.stack[:len(p.stack)-1]
			i++
		}
	}
}

// key parses `"name" :` at s[i] and returns the index after the colon, or
// -1. A top-level key's raw text (without quotes) goes to p.top.
func (p *strict) key(s string, i int) int {
	if i >= len(s) || s[i] != '"' {
		return -1
	}
	end := jsonStringEnd(s, i)
	if end < 0 {
		return -1
	}
	if len(p.stack) == 1 {
		p.top = s[i+1 : end-1]
		if containsByte(p.top, '\\') {
			p.escaped = true
		}
	}
	end = skipJSONSpace(s, end)
	if end >= len(s) || s[end] != ':' {
		return -1
	}
	return end + 1
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// skipJSONSpace skips JSON's white space (which, unlike the text's, has no
// form feed or vertical tab).
func skipJSONSpace(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// jsonStringEnd returns the index after the string literal at s[i] (which
// is '"'), or -1: a control character, a bad escape or no closing quote.
// Bytes from 0x80 are taken as they are, as encoding/json's validator does.
func jsonStringEnd(s string, i int) int {
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			if i+1 >= len(s) {
				return -1
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+5 >= len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
					return -1
				}
				i += 5
			default:
				return -1
			}
		}
	}
	return -1
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func literal(s string, i int, word string) int {
	if len(s)-i >= len(word) && s[i:i+len(word)] == word {
		return i + len(word)
	}
	return -1
}

// jsonNumberEnd returns the index after the number at s[i], or -1:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func jsonNumberEnd(s string, i int) int {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		if j := digits(s, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
