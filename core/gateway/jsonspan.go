package gateway

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// jnode is a parsed JSON value with the byte range it occupies in the body,
// so that a request can be edited by splicing: every byte outside the
// edited values stays as the client sent it.
type jnode struct {
	kind       byte // '{', '[', '"', 'n' (number), 't', 'f', '0' (null)
	start, end int
	keys       []string // object keys, in order
	keyStarts  []int    // where each key's string starts
	vals       []*jnode // object values or array elements
	str        string   // decoded string value
}

func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != '{' {
		return nil
	}
	// The last of duplicate keys wins, as in encoding/json and Python's
	// json, which most upstreams use: the gateway reads (and edits) the
	// value the upstream will read.
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == key {
			return n.vals[i]
		}
	}
	return nil
}

func (n *jnode) items() []*jnode {
	if n == nil || n.kind != '[' {
		return nil
	}
	return n.vals
}

func (n *jnode) text() string {
	if n == nil || n.kind != '"' {
		return ""
	}
	return n.str
}

// parseSpans parses body into a jnode tree. Errors name the byte offset.
func parseSpans(body []byte) (*jnode, error) {
	p := &jparser{b: body}
	p.ws()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(body) {
		return nil, fmt.Errorf("invalid JSON at byte %d: data after the value", p.i)
	}
	return n, nil
}

type jparser struct {
	b []byte
	i int
}

func (p *jparser) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

func (p *jparser) fail(what string) error {
	return fmt.Errorf("invalid JSON at byte %d: %s", p.i, what)
}

func (p *jparser) value(depth int) (*jnode, error) {
	if depth > 512 {
		return nil, p.fail("nested too deeply")
	}
	if p.i >= len(p.b) {
		return nil, p.fail("unexpected end of input")
	}
	start := p.i
	switch c := p.b[p.i]; {
	case c == '{':
		n := &jnode{kind: '{', start: start}
		p.i++
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			n.end = p.i
			return n, nil
		}
		for {
			p.ws()
			if p.i >= len(p.b) || p.b[p.i] != '"' {
				return nil, p.fail("want an object key")
			}
			k, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			p.ws()
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, p.fail("want ':'")
			}
			p.i++
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.keys, n.vals = append(n.keys, k.str), append(n.vals, v)
			n.keyStarts = append(n.keyStarts, k.start)
			p.ws()
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.b) && p.b[p.i] == '}' {
				p.i++
				n.end = p.i
				return n, nil
			}
			return nil, p.fail("want ',' or '}'")
		}
	case c == '[':
		n := &jnode{kind: '[', start: start}
		p.i++
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			n.end = p.i
			return n, nil
		}
		for {
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
			p.ws()
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.b) && p.b[p.i] == ']' {
				p.i++
				n.end = p.i
				return n, nil
			}
			return nil, p.fail("want ',' or ']'")
		}
	case c == '"':
		p.i++
		for p.i < len(p.b) && p.b[p.i] != '"' {
			if p.b[p.i] == '\\' {
				p.i++
			}
			p.i++
		}
		if p.i >= len(p.b) {
			p.i = len(p.b) // a final backslash stepped past the end
			return nil, p.fail("unterminated string")
		}
		p.i++
		n := &jnode{kind: '"', start: start, end: p.i}
		if err := json.Unmarshal(p.b[start:p.i], &n.str); err != nil {
			p.i = start
			return nil, p.fail("bad string: " + err.Error())
		}
		return n, nil
	default:
		for p.i < len(p.b) && !strings.ContainsRune(",]} \t\r\n", rune(p.b[p.i])) {
			p.i++
		}
		lit := string(p.b[start:p.i])
		if lit == "" {
			return nil, p.fail(fmt.Sprintf("unexpected %q", p.b[p.i]))
		}
		kind := byte('n')
		switch lit {
		case "true":
			kind = 't'
		case "false":
			kind = 'f'
		case "null":
			kind = '0'
		default:
			var f json.Number
			if json.Unmarshal(p.b[start:p.i], &f) != nil {
				p.i = start
				return nil, p.fail(fmt.Sprintf("unexpected %q", lit))
			}
		}
		return &jnode{kind: kind, start: start, end: p.i}, nil
	}
}

// edit replaces body[start:end] with text.
type edit struct {
	start, end int
	text       []byte
}

// splice applies non-overlapping edits to body.
func splice(body []byte, edits []edit) []byte {
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	out := make([]byte, 0, len(body))
	at := 0
	for _, e := range edits {
		out = append(out, body[at:e.start]...)
		out = append(out, e.text...)
		at = e.end
	}
	return append(out, body[at:]...)
}

// jsonString encodes s as a JSON string without HTML escaping.
func jsonString(s string) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return []byte(strings.TrimSuffix(b.String(), "\n"))
}

// appendToArray returns the edit that appends raw elements to array arr.
func appendToArray(arr *jnode, elems ...[]byte) edit {
	var b []byte
	for i, e := range elems {
		if i > 0 || len(arr.vals) > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	return edit{start: arr.end - 1, end: arr.end - 1, text: b}
}

// addKey returns the edit that adds "key": raw to object obj.
func addKey(obj *jnode, key string, raw []byte) edit {
	b := []byte{}
	if len(obj.keys) > 0 {
		b = append(b, ',')
	}
	b = append(b, jsonString(key)...)
	b = append(b, ':')
	b = append(b, raw...)
	return edit{start: obj.end - 1, end: obj.end - 1, text: b}
}

// removeKey returns the edit that removes key (and one neighbouring comma)
// from object obj; ok is false when obj has no such key.
func removeKey(obj *jnode, key string) (edit, bool) {
	for i, k := range obj.keys {
		if k != key {
			continue
		}
		switch {
		case i > 0:
			return edit{start: obj.vals[i-1].end, end: obj.vals[i].end}, true
		case len(obj.keys) > 1:
			return edit{start: obj.keyStarts[0], end: obj.keyStarts[1]}, true
		default:
			return edit{start: obj.keyStarts[0], end: obj.vals[0].end}, true
		}
	}
	return edit{}, false
}
