package importer

import (
	"bytes"

	"github.com/toolout/toolout/core/jsonlex"
)

// maxDepth is how deep skipValue follows nested lists and objects, as
// encoding/json's decoder does (it refuses deeper ones).
const maxDepth = 10000

// skipValue returns the offset just past the JSON value that starts at
// b[i] (after white space), and false, with where it failed, when that is
// not one valid value or nests deeper than maxDepth. It copies nothing: a
// trace's parts are found in place, where encoding/json's Decoder copied
// each one (and buffered the rest of the trace) to step over it.
func skipValue(b []byte, i int) (int, bool) {
	var stack []byte // the open lists and objects
	for {
		i = jsonlex.Space(b, i)
		if i >= len(b) {
			return i, false
		}
		var ok bool
		switch c := b[i]; c {
		case '{', '[':
			if len(stack) == maxDepth {
				return i, false
			}
			if j := jsonlex.Space(b, i+1); j < len(b) && b[j] == c+2 { // {} or []: '}' is '{'+2, ']' is '['+2
				i, ok = j+1, true
				break
			}
			stack = append(stack, c)
			i++
			if c == '{' {
				if i, ok = memberKey(b, i); !ok {
					return i, false
				}
			}
			continue
		case '"':
			var f jsonlex.Fault
			i, _, f = jsonlex.String(b, i)
			ok = f == jsonlex.OK
		case 't', 'f', 'n':
			end := max(jsonlex.Literal(b, i, "true"), jsonlex.Literal(b, i, "false"), jsonlex.Literal(b, i, "null"))
			i, ok = max(end, i), end >= 0
		default:
			i, ok = jsonlex.Number(b, i)
		}
		if !ok {
			return i, false
		}
		// After a value: close what it ends, then a ',' and the next.
		for {
			if len(stack) == 0 {
				return i, true
			}
			i = jsonlex.Space(b, i)
			top := stack[len(stack)-1]
			if i < len(b) && b[i] == top+2 {
				stack, i = stack[:len(stack)-1], i+1
				continue
			}
			if i >= len(b) || b[i] != ',' {
				return i, false
			}
			i++
			if top == '{' {
				if i, ok = memberKey(b, i); !ok {
					return i, false
				}
			}
			break
		}
	}
}

// memberKey reads an object member's key and its ':' from b[i] on and
// returns where its value may start.
func memberKey(b []byte, i int) (int, bool) {
	i = jsonlex.Space(b, i)
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	end, _, f := jsonlex.String(b, i)
	if f != jsonlex.OK {
		return end, false
	}
	i = jsonlex.Space(b, end)
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	return i + 1, true
}

// child returns the offset in v of its member named (a string: the last
// key equal to it regardless of case) or indexed (an int) by step, or -1;
// where v stops being valid JSON, what was found before.
func child(v []byte, step any) int {
	i := jsonlex.Space(v, 0)
	if i >= len(v) || v[i] != '{' && v[i] != '[' {
		return -1
	}
	d := v[i]
	name, isName := step.(string)
	index, _ := step.(int)
	found := -1
	i++
	for n := 0; ; n++ {
		i = jsonlex.Space(v, i)
		if i >= len(v) || v[i] == d+2 || d == '[' && v[i] == '}' { // as the Decoder's More
			return found
		}
		if n > 0 {
			if v[i] != ',' {
				// As the Decoder's More: an element that follows the
				// one before without a comma is still found, and
				// nothing after it.
				if d == '[' && !isName && n == index && v[i] != '}' {
					return skipSpace(v, i)
				}
				return found
			}
			i++
		}
		match := d == '[' && !isName && n == index
		if d == '{' {
			// As encoding/json's Decoder: a key read whole is matched,
			// its value found past white space, ':' and ',', even when
			// what follows is not valid.
			i = jsonlex.Space(v, i)
			if i >= len(v) || v[i] != '"' {
				return found
			}
			end, escaped, f := jsonlex.String(v, i)
			if f != jsonlex.OK {
				return found
			}
			key := v[i+1 : end-1]
			if escaped {
				key = jsonlex.Unescape(nil, key, true)
			}
			match = isName && bytes.EqualFold(key, []byte(name))
			if i = jsonlex.Space(v, end); i >= len(v) || v[i] != ':' {
				if match {
					found = skipSpace(v, end)
				}
				return found
			}
		}
		from := i // a member's value starts past its ':'
		if d == '{' {
			from++
		}
		start := skipSpace(v, i)
		if match {
			found = start
			if d == '[' {
				return found
			}
		}
		if start != jsonlex.Space(v, from) {
			return found // the Decoder reads a value after a stray ',' or ':' as an error
		}
		end, ok := skipValue(v, start)
		if !ok {
			return found
		}
		i = end
	}
}
