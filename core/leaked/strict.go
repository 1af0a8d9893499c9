package leaked

import "github.com/toolout/toolout/core/jsonlex"

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
// scan around it (bench: BenchmarkLeaked input=dense-calls); its tokens are
// core/jsonlex's, and the fuzz target FuzzStrict checks it against
// json.Valid.
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
	clear(p.kids) // the members of the last value are not kept alive by a pooled scanner
	p.stack, p.kids, p.escaped, p.top = p.stack[:0], p.kids[:0], false, ""
	valStart := -1
	for {
		// A value is expected at i.
		i = jsonlex.Space(s, i)
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
			i = jsonlex.Space(s, i+1)
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
			i = jsonlex.Literal(s, i, "true")
		case 'f':
			i = jsonlex.Literal(s, i, "false")
		case 'n':
			i = jsonlex.Literal(s, i, "null")
		default:
			var ok bool
			if i, ok = jsonlex.Number(s, i); !ok {
				i = -1
			}
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
			i = jsonlex.Space(s, i)
			if i >= len(s) {
				return -1
			}
			isObj := p.stack[len(p.stack)-1]
			if s[i] == ',' {
				i++
				if isObj {
					if i = p.key(s, jsonlex.Space(s, i)); i < 0 {
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
	end, escaped, fault := jsonlex.String(s, i)
	if fault != jsonlex.OK {
		return -1
	}
	if len(p.stack) == 1 {
		p.top = s[i+1 : end-1]
		p.escaped = p.escaped || escaped
	}
	end = jsonlex.Space(s, end)
	if end >= len(s) || s[end] != ':' {
		return -1
	}
	return end + 1
}

// jsonStringEnd returns the index after the string literal at s[i] (which
// is '"'), or -1 when it is not valid.
func jsonStringEnd(s string, i int) int {
	end, _, fault := jsonlex.String(s, i)
	if fault != jsonlex.OK {
		return -1
	}
	return end
}
