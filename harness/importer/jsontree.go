package importer

import (
	"bytes"
	"errors"

	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/core/jsonspan"
)

// The OTel reader and the Responses and rollout readers walk a trace's
// JSON as a jsonspan tree, each node positioned in the trace (see tree),
// so that every error can name its line:col. Node kinds are jsonspan's:
// '{', '[', '"', 'n' (a number, its text in Str), 't', 'f', '0' (null).

// tree parses b, one JSON value whose syntax was checked (syntaxOffset),
// into nodes positioned by pos (b's offset i is pos(i) in the trace),
// keys and short strings shared (a trace repeats "role" and "type" for
// every message, and an attribute's key for every span).
func tree(b []byte, pos func(int) int) *jsonspan.Node {
	n, _ := jsonspan.ParseWith(b, jsonspan.Options{Pos: pos, Intern: true, KeepParts: true})
	return n
}

// lazyTree is tree(b) for b at offset base of the trace, except that a
// list that is the member lazy names of an object is left lazy: its items
// are built one at a time, when Each reads them, and dropped after. A
// Responses call of 100,000 small items was a tree of 5 to 6 times its
// bytes while it was read; its items one at a time are what one holds.
func lazyTree(b []byte, base int, lazy ...string) *jsonspan.Node {
	n, _ := jsonspan.ParseWith(b, jsonspan.Options{Pos: at(base), Lazy: lazy, Intern: true, KeepParts: true})
	return n
}

// at positions a text that starts at offset base of the trace.
func at(base int) func(int) int {
	if base == 0 {
		return nil
	}
	return func(i int) int { return base + i }
}

// syntaxOffset returns the byte offset in data of its first JSON syntax
// error (where the parser stopped: the offending character, or the end)
// and what is wrong there, or -1; it builds no tree for valid data.
func syntaxOffset(data []byte) (int, string) {
	var se *jsonlex.SyntaxError
	if err := jsonspan.Check(data); errors.As(err, &se) {
		return se.Offset, se.Msg
	}
	return -1, ""
}

// literal returns the content of the string s as written in the trace
// (between its quotes, escapes as they are), or false when s is not
// written in the trace itself but inside a JSON text that a string holds
// (see embedded): such a string's opening quote is escaped in the trace,
// so the byte at its position is a backslash, not a quote.
func (t *parsedTrace) literal(s *jsonspan.Node) ([]byte, bool) {
	if s.Kind != '"' || s.Start < 0 || s.End > len(t.data) || s.End-s.Start < 2 || t.data[s.Start] != '"' {
		return nil, false
	}
	return t.data[s.Start+1 : s.End-1], true
}

// embedded parses the JSON text that s, a string written in the trace,
// holds: its nodes are positioned in the trace, through the string's
// escapes (see escapeMap), and so is a syntax error in it.
func (t *parsedTrace) embedded(s *jsonspan.Node, what string) (*jsonspan.Node, error) {
	lit, ok := t.literal(s)
	if !ok {
		return nil, t.errorf(s.Start, "%s: want structured JSON here, got a string", what)
	}
	m := &escapeMap{raw: lit}
	n, err := jsonspan.ParseWith([]byte(s.Str), jsonspan.Options{Pos: func(d int) int { return s.Start + 1 + m.at(d) }, Intern: true, KeepParts: true})
	var se *jsonlex.SyntaxError
	if errors.As(err, &se) {
		return nil, t.errorf(se.Offset, "%s: the JSON in the string: %s", what, se.Msg)
	}
	return n, err
}

// compactJSON writes n as compact JSON: members in their order, strings
// re-encoded without HTML escapes, numbers as written.
func compactJSON(n *jsonspan.Node) string {
	var b bytes.Buffer
	writeJSON(&b, n)
	return b.String()
}

func writeJSON(b *bytes.Buffer, n *jsonspan.Node) {
	switch n.Kind {
	case '{', '[':
		open, close := byte('['), byte(']')
		if n.Kind == '{' {
			open, close = '{', '}'
		}
		b.WriteByte(open)
		_ = n.Each(func(i int, kid *jsonspan.Node) error { // a list's items, lazy or not
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, kid)
			return nil
		})
		for i, kid := range n.Vals {
			if n.Kind != '{' {
				break
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(jsonspan.String(n.Keys[i]))
			b.WriteByte(':')
			writeJSON(b, kid)
		}
		b.WriteByte(close)
	case '"':
		b.Write(jsonspan.String(n.Str))
	case 't':
		b.WriteString("true")
	case 'f':
		b.WriteString("false")
	case '0':
		b.WriteString("null")
	default:
		b.WriteString(n.Str)
	}
}
