package importer

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/toolout/toolout/core/jsonlex"
)

// jnode is a JSON value of a trace and where it starts in the trace: the
// OTel reader walks spans, attributes and messages as a tree of them,
// built in one pass (see tree), so that every error can name its line:col.
type jnode struct {
	kind byte     // '{', '[', '"', '0' (a number), 't', 'f', 'n'
	at   int      // byte offset in the trace
	text string   // a string's decoded value, a number's text
	keys []string // an object's keys, one per kid
	kids []*jnode
	// lit is a string's raw content (between the quotes) when the string
	// is written in the trace itself, not in a JSON text that a string
	// holds: only such a string's JSON text is parsed (see embedded). For
	// a lazy list, it is the list's bytes, from '[' to ']'.
	lit []byte
	// lazy tells a list of the trace whose items are not built: each
	// builds them one at a time (see lazyTree).
	lazy bool
}

// get returns the value of an object's member key (the last one when the
// key repeats, as encoding/json takes it), or nil.
func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == key {
			return n.kids[i]
		}
	}
	return nil
}

// tree parses b, one JSON value whose syntax is checked, into nodes; a
// node's offset is pos of its offset in b, asked in increasing order. With
// outer, b is the trace itself and its strings keep their raw content. It
// keeps its own stack, so nesting costs no goroutine stack (encoding/json's
// check bounds it at 10000 levels anyway).
func tree(b []byte, pos func(int) int, outer bool) *jnode {
	return build(b, pos, outer, nil)
}

// lazyTree is tree(b) for b at offset base of the trace, except that a
// list that is the member lazy names of an object is left lazy: its
// items are built one at a time, when each reads them, and dropped after.
// A Responses call of 100,000 small items was a tree of 5 to 6 times its
// bytes while it was read; its items one at a time are what one holds.
func lazyTree(b []byte, base int, lazy ...string) *jnode {
	return build(b, func(i int) int { return base + i }, true, lazy)
}

// each calls f with each item of the list n, in order, and their index;
// a lazy list's items are built one at a time. It stops at f's first
// error.
func (n *jnode) each(f func(k int, it *jnode) error) error {
	if !n.lazy {
		for k, it := range n.kids {
			if err := f(k, it); err != nil {
				return err
			}
		}
		return nil
	}
	b := n.lit
	for k, i := 0, jsonlex.Space(b, 1); b[i] != ']'; k++ {
		end, _ := skipValue(b, i) // its syntax is checked
		base := n.at + i
		if err := f(k, tree(b[i:end], func(j int) int { return base + j }, true)); err != nil {
			return err
		}
		if i = jsonlex.Space(b, end); b[i] == ',' {
			i = jsonlex.Space(b, i+1)
		}
	}
	return nil
}

// build is tree, with the lists named lazy left lazy (see lazyTree).
func build(b []byte, pos func(int) int, outer bool, lazy []string) *jnode {
	keys := keyTable{}
	var root *jnode
	var stack []*jnode
	key := ""
	i := jsonlex.Space(b, 0)
	for {
		n := &jnode{kind: b[i], at: pos(i)}
		switch b[i] {
		case '[':
			if len(stack) > 0 && stack[len(stack)-1].kind == '{' && slices.Contains(lazy, key) {
				end, _ := skipValue(b, i)
				n.lit, n.lazy, i = b[i:end], true, end
				break
			}
			i++
		case '{':
			i++
		case '"':
			end, escaped, _ := jsonlex.String(b, i)
			n.text = keys.short(b[i+1:end-1], escaped)
			if outer {
				n.lit = b[i+1 : end-1]
			}
			i = end
		case 't', 'n':
			i += 4
		case 'f':
			i += 5
		default:
			end, _ := jsonlex.Number(b, i)
			n.kind, n.text, i = '0', string(b[i:end]), end
		}
		if len(stack) == 0 {
			root = n
		} else if top := stack[len(stack)-1]; top.kind == '{' {
			top.keys, top.kids = append(top.keys, key), append(top.kids, n)
		} else {
			top.kids = append(top.kids, n)
		}
		if n.kind == '{' || n.kind == '[' && !n.lazy {
			stack = append(stack, n)
		}
		// Past the value: close what ends here, then read the next key.
		for {
			i = jsonlex.Space(b, i)
			if len(stack) == 0 {
				return root
			}
			if b[i] == '}' || b[i] == ']' {
				stack, i = stack[:len(stack)-1], i+1
				continue
			}
			if b[i] == ',' {
				i = jsonlex.Space(b, i+1)
			}
			if stack[len(stack)-1].kind == '{' {
				end, escaped, _ := jsonlex.String(b, i)
				key = keys.of(b[i+1:end-1], escaped)
				i = jsonlex.Space(b, jsonlex.Space(b, end)+1) // past ':'
			}
			break
		}
	}
}

// unquote is a string literal's content raw decoded: one copy, none
// through a buffer when it holds no escape.
func unquote(raw []byte, escaped bool) string {
	if !escaped {
		return string(raw)
	}
	return string(jsonlex.Unescape(nil, raw, true))
}

// keyTable holds one string for each object key of a tree: an OTLP
// export repeats a few keys ("key", "value", "stringValue") for every
// attribute, and a key of its own for each, which were a string each.
type keyTable map[string]string

// of is the key whose literal content is raw.
func (k keyTable) of(raw []byte, escaped bool) string {
	if s, ok := k[string(raw)]; ok && !escaped { // the lookup copies nothing
		return s
	}
	s := unquote(raw, escaped)
	if !escaped && len(k) < 1<<12 {
		k[s] = s
	}
	return s
}

// short is a string value whose literal content is raw: one string for
// each short one (an item's "type", a message's "role", repeated for every
// item), a string of its own for any other.
func (k keyTable) short(raw []byte, escaped bool) string {
	if len(raw) > 32 || escaped {
		return unquote(raw, escaped)
	}
	return k.of(raw, false)
}

// embedded parses the JSON text that s, a string written in the trace,
// holds: its nodes are positioned in the trace, through the string's
// escapes (see escapeMap), and so is a syntax error in it.
func (t *parsedTrace) embedded(s *jnode, what string) (*jnode, error) {
	if s.lit == nil {
		return nil, t.errorf(s.at, "%s: want structured JSON here, got a string", what)
	}
	dec := []byte(s.text)
	m := &escapeMap{raw: s.lit}
	pos := func(d int) int { return s.at + 1 + m.at(d) }
	if at, msg := syntaxOffset(dec); at >= 0 {
		return nil, t.errorf(pos(at), "%s: the JSON in the string: %s", what, msg)
	}
	return tree(dec, pos, false), nil
}

// compactJSON writes n as compact JSON: members in their order, strings
// re-encoded without HTML escapes, numbers as written.
func compactJSON(n *jnode) string {
	var b bytes.Buffer
	writeJSON(&b, n)
	return b.String()
}

func writeJSON(b *bytes.Buffer, n *jnode) {
	if n.lazy {
		n = tree(n.lit, func(i int) int { return n.at + i }, true)
	}
	switch n.kind {
	case '{', '[':
		open, close := byte('['), byte(']')
		if n.kind == '{' {
			open, close = '{', '}'
		}
		b.WriteByte(open)
		for i, kid := range n.kids {
			if i > 0 {
				b.WriteByte(',')
			}
			if n.kind == '{' {
				writeString(b, n.keys[i])
				b.WriteByte(':')
			}
			writeJSON(b, kid)
		}
		b.WriteByte(close)
	case '"':
		writeString(b, n.text)
	case 't':
		b.WriteString("true")
	case 'f':
		b.WriteString("false")
	case 'n':
		b.WriteString("null")
	default:
		b.WriteString(n.text)
	}
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}
