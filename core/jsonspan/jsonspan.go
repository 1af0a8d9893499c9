package jsonspan

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/jsonlex"
)

// Node is a parsed JSON value with the byte range it occupies in the body,
// so that a request can be edited by splicing: every byte outside the
// edited values stays as the client sent it.
type Node struct {
	Kind       byte // '{', '[', '"', 'n' (number), 't', 'f', '0' (null)
	Start, End int
	Keys       []string // object keys, in order
	KeyStarts  []int    // where each key's string starts
	Vals       []*Node  // object values or array elements (nil for a lazy list: see Each)
	Str        string   // decoded string value; a number's text as written
	// Held is the bytes of the allocation Str has to itself, when the
	// parse made one for a string of heldMin bytes or more (0 otherwise: a
	// short string, or a Known one, which others share): a store may keep
	// Str without a copy and count that much.
	Held int
	// lazy is a list left unbuilt ([Options].Lazy), read by Each.
	lazy *lazyList
}

// heldMin is the shortest string content whose Node says what it holds.
const heldMin = 4096

func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != '{' {
		return nil
	}
	// The last of duplicate keys wins, as in encoding/json and Python's
	// json, which most upstreams use: the gateway reads (and edits) the
	// value the upstream will read.
	for i := len(n.Keys) - 1; i >= 0; i-- {
		if n.Keys[i] == key {
			return n.Vals[i]
		}
	}
	return nil
}

func (n *Node) Items() []*Node {
	if n == nil || n.Kind != '[' {
		return nil
	}
	return n.Vals
}

func (n *Node) Text() string {
	if n == nil || n.Kind != '"' {
		return ""
	}
	return n.Str
}

// Parse parses body into a Node tree. Errors name the byte offset.
func Parse(body []byte) (*Node, error) { return ParseBounded(body, 0, 0) }

// ParseBounded is Parse that stops with a *BoundError at the first
// structural token ({ [ , : outside strings) past maxTokens, or the first
// bracket opened past maxNesting levels; a bound of zero or less bounds
// nothing. It counts as a scan of the body would, in the order of the
// text, so on a body that parses, the bound it crosses, and where, are
// those of such a scan; on one that does not, a token past the syntax
// error is not counted.
func ParseBounded(body []byte, maxTokens, maxNesting int) (*Node, error) {
	return ParseWith(body, Options{MaxTokens: maxTokens, MaxNesting: maxNesting})
}

// Options are the bounds of [ParseWith] ([ParseBounded]'s), the [Known]
// strings it may take as read, and what a reader of large texts asks of
// the tree (the trace importer: see lazy.go).
type Options struct {
	MaxTokens, MaxNesting int
	Known                 Known
	// Pos, when set, is the offset to report for offset i of the body:
	// every Start, End and KeyStarts of the tree and the Offset of an
	// error is Pos(i), not i. A body cut from a larger text adds its
	// start; the decoded content of a string literal maps through the
	// literal's escapes. It is asked in increasing order of i (a lazy
	// list's Each starts over). A tree with Pos does not index its body:
	// Splice and the edits need one without.
	Pos func(i int) int
	// Lazy names object members whose value, when a list, is checked but
	// not built: its Vals stay nil and [Node.Each] builds its items one at
	// a time, each its own tree (without Lazy). A list of 100,000 items is
	// then held one item at a time. The bounds do not count what a lazy
	// list holds.
	Lazy []string
	// Intern gives every object key, and every string of internMax bytes
	// or less written without escapes, one string per parse: a trace
	// repeats "role" and "type" for every message, and an attribute's key
	// for every span.
	Intern bool
	// KeepParts allocates each node alone: a reader that keeps some values
	// of a tree after it drops the rest (the importer keeps a message's
	// parts, an event's attributes) keeps those alone. Without it, nodes
	// share allocations of up to 64 (a parse a third faster, for a reader
	// that drops a tree whole, as the gateway drops a request's), and a
	// kept node keeps the others of its allocation. A lazy list's items
	// are always allocated node by node.
	KeepParts bool
}

// ParseWith is [ParseBounded] with o's bounds that asks o.Known, when set,
// for each string before reading it, and tells it each string it decoded
// (see [Known]). The tree is the one Parse gives.
func ParseWith(body []byte, o Options) (*Node, error) {
	p := newParser(body, o)
	defer p.release()
	p.ws()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(body) {
		return nil, &jsonlex.SyntaxError{Offset: p.at(p.i), Msg: "data after the value"}
	}
	return n, nil
}

type parser struct {
	b []byte
	i int

	maxTokens, maxNesting int // bounds; zero or less: none
	tokens, open          int // structural tokens seen, brackets open
	known                 Known
	*work                        // the buffers a parse lends (workPool)
	slab                  []Node // where nodes are allocated (see node)
	slabs                 int    // slabs allocated so far
	single                bool   // allocate each node alone (a lazy list's items)

	o   Options // what the parse was asked (for a lazy list's Each)
	key bool    // the string being read is an object key
}

// newParser is a parser of body with o, with buffers from workPool: call
// release when the parse is done.
func newParser(body []byte, o Options) *parser {
	p := &parser{b: body, maxTokens: o.MaxTokens, maxNesting: o.MaxNesting, known: o.Known, o: o, single: o.KeepParts}
	p.work, _ = workPool.Get().(*work)
	if p.work == nil {
		p.work = &work{}
	}
	if o.Intern && p.strs == nil {
		p.strs = map[string]string{}
	}
	return p
}

// node returns a pointer to a copy of n, allocated from a slab of nodes:
// one allocation for many small values. A parse's slabs grow from 8 to 64
// nodes, so that a small body does not take a large one; a slab lives as
// long as any node of it. With Options.KeepParts, and for a lazy list's
// items, each node is allocated alone.
func (p *parser) node(n Node) *Node {
	if p.single {
		return &n
	}
	if len(p.slab) == 0 {
		p.slab = make([]Node, 8<<min(p.slabs, 3))
		p.slabs++
	}
	m := &p.slab[0]
	*m, p.slab = n, p.slab[1:]
	return m
}

// at is the offset reported for offset i of the body (see Options.Pos).
func (p *parser) at(i int) int {
	if p.o.Pos == nil {
		return i
	}
	return p.o.Pos(i)
}

// BoundError is a body ParseBounded refused at a bound: Nesting says
// which (else the tokens), Offset is the byte of the token past it.
type BoundError struct {
	Nesting bool
	Offset  int
}

func (e *BoundError) Error() string {
	if e.Nesting {
		return fmt.Sprintf("JSON nested too deeply at byte %d", e.Offset)
	}
	return fmt.Sprintf("too many JSON tokens at byte %d", e.Offset)
}

// token counts the structural token at p.i, opening a bracket when open
// is true, and returns the bound it crossed, if any.
func (p *parser) token(open bool) error {
	if open {
		if p.open++; p.maxNesting > 0 && p.open > p.maxNesting {
			return &BoundError{Nesting: true, Offset: p.at(p.i)}
		}
	}
	if p.tokens++; p.maxTokens > 0 && p.tokens > p.maxTokens {
		return &BoundError{Offset: p.at(p.i)}
	}
	return nil
}

func (p *parser) ws() { p.i = jsonlex.Space(p.b, p.i) }

// fail is a syntax error at p.i: what was wanted there, or, at the end of
// the body, that it ended.
func (p *parser) fail(what string) error {
	if p.i >= len(p.b) && strings.HasPrefix(what, "want ") {
		what = "unexpected end of input"
	}
	return &jsonlex.SyntaxError{Offset: p.at(p.i), Msg: what}
}

func (p *parser) value(depth int) (*Node, error) {
	if depth > 512 {
		return nil, p.fail("nested too deeply")
	}
	if p.i >= len(p.b) {
		return nil, p.fail("unexpected end of input")
	}
	switch p.b[p.i] {
	case '{':
		return p.object(depth)
	case '[':
		return p.array(depth)
	case '"':
		return p.str()
	}
	return p.literal()
}

// object parses an object; p.i is at its '{'.
func (p *parser) object(depth int) (*Node, error) {
	return p.container('}', func(n *Node) error {
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return p.fail("want an object key")
		}
		p.key = true
		k, err := p.value(depth + 1)
		p.key = false
		if err != nil {
			return err
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return p.fail("want ':'")
		}
		if err := p.token(false); err != nil {
			return err
		}
		p.i++
		p.ws()
		var v *Node
		if len(p.o.Lazy) > 0 && p.i < len(p.b) && p.b[p.i] == '[' && slices.Contains(p.o.Lazy, k.Str) {
			v, err = p.lazyList(depth + 1)
		} else {
			v, err = p.value(depth + 1)
		}
		if err != nil {
			return err
		}
		p.keys, p.vals = append(p.keys, k.Str), append(p.vals, v)
		p.starts = append(p.starts, k.Start)
		return nil
	})
}

// array parses an array; p.i is at its '['.
func (p *parser) array(depth int) (*Node, error) {
	return p.container(']', func(n *Node) error {
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		p.vals = append(p.vals, v)
		return nil
	})
}

// container parses an object or an array; p.i is at its opening bracket.
// member parses one member into n, starting at its first byte; members
// are separated by ',' and the container ends at closer.
func (p *parser) container(closer byte, member func(n *Node) error) (*Node, error) {
	if err := p.token(true); err != nil {
		return nil, err
	}
	n := p.node(Node{Kind: p.b[p.i], Start: p.at(p.i)})
	p.i++
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == closer {
		p.i++
		p.open--
		n.End = p.at(p.i)
		return n, nil
	}
	base, keyBase := len(p.vals), len(p.keys)
	for {
		p.ws()
		if err := member(n); err != nil {
			return nil, err
		}
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ',' {
			if err := p.token(false); err != nil {
				return nil, err
			}
			p.i++
			continue
		}
		if p.i < len(p.b) && p.b[p.i] == closer {
			p.i++
			p.open--
			n.End = p.at(p.i)
			n.Vals, p.vals = slices.Clone(p.vals[base:]), p.vals[:base]
			if closer == '}' {
				n.Keys, p.keys = slices.Clone(p.keys[keyBase:]), p.keys[:keyBase]
				n.KeyStarts, p.starts = slices.Clone(p.starts[keyBase:]), p.starts[:keyBase]
			}
			return n, nil
		}
		return nil, p.fail("want ',' or '" + string(closer) + "'")
	}
}

// str parses a string; p.i is at its opening quote.
func (p *parser) str() (*Node, error) {
	start := p.i
	if p.known != nil {
		if text, n, ok := p.known.Match(p.b, start+1); ok {
			p.i = start + n + 2
			return p.node(Node{Kind: '"', Start: p.at(start), End: p.at(p.i), Str: text}), nil
		}
	}
	out, end, escaped, fault := jsonlex.AppendString(p.scratch[:0], p.b, start)
	p.scratch = out[:0] // grown for the next string
	p.i = end
	switch fault {
	case jsonlex.OK:
	case jsonlex.Control:
		return nil, p.fail("control character in a string")
	case jsonlex.BadEscape:
		return nil, p.fail(fmt.Sprintf("invalid escape %q in a string", p.b[end:end+2]))
	case jsonlex.BadHex:
		return nil, p.fail(`want four hex digits after \u`)
	default:
		p.i = len(p.b)
		return nil, p.fail("unterminated string")
	}
	n := p.node(Node{Kind: '"', Start: p.at(start), End: p.at(end)})
	text := p.b[start+1 : end-1] // the content, valid UTF-8 without escapes
	if escaped {
		text = out // decoded, invalid UTF-8 replaced
	}
	if p.o.Intern && !escaped && (p.key || len(text) <= internMax) {
		n.Str = p.interned(text)
	} else if end-start-2 >= heldMin {
		// A strings.Builder neither zeroes the memory it takes nor copies
		// it into the string: one allocation of the text's size, which the
		// node says it holds.
		var b strings.Builder
		b.Grow(len(text))
		b.Write(text)
		n.Str, n.Held = b.String(), b.Cap()
	} else {
		n.Str = string(text)
	}
	if p.known != nil {
		p.known.Keep(p.b, start+1, end-1, n.Str)
	}
	return n, nil
}

// literal parses true, false, null or a number.
func (p *parser) literal() (*Node, error) {
	start := p.i
	for p.i < len(p.b) && !strings.ContainsRune(",]} \t\r\n", rune(p.b[p.i])) {
		p.i++
	}
	lit := p.b[start:p.i]
	if len(lit) == 0 {
		return nil, p.fail(fmt.Sprintf("unexpected %q", p.b[p.i]))
	}
	kind, text := byte('n'), ""
	switch string(lit) {
	case "true":
		kind = 't'
	case "false":
		kind = 'f'
	case "null":
		kind = '0'
	default:
		if !number(lit) {
			p.i = start
			return nil, p.fail(fmt.Sprintf("unexpected %q", lit))
		}
		text = p.numberText(lit)
	}
	return p.node(Node{Kind: kind, Start: p.at(start), End: p.at(p.i), Str: text}), nil
}

// number reports whether b is a JSON number.
func number(b []byte) bool {
	end, ok := jsonlex.Number(b, 0)
	return ok && end == len(b)
}

// Edit replaces body[start:end] with text.
type Edit struct {
	Start, End int
	Text       []byte
}

// splice applies non-overlapping edits to body.
func Splice(body []byte, edits []Edit) []byte {
	slices.SortFunc(edits, func(a, b Edit) int { return a.Start - b.Start })
	n := len(body) // the output's length: a compressed value makes it much shorter
	for _, e := range edits {
		n += len(e.Text) - (e.End - e.Start)
	}
	out := make([]byte, 0, max(n, 0)) // overlapping edits (not allowed) could make n negative
	at := 0
	for _, e := range edits {
		out = append(out, body[at:e.Start]...)
		out = append(out, e.Text...)
		at = e.End
	}
	return append(out, body[at:]...)
}

// jsonString encodes s as a JSON string without HTML escaping.
func String(s string) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return []byte(strings.TrimSuffix(b.String(), "\n"))
}

// appendToArray returns the Edit that appends raw elements to array arr.
func AppendToArray(arr *Node, elems ...[]byte) Edit {
	var b []byte
	for i, e := range elems {
		if i > 0 || len(arr.Vals) > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	return Edit{Start: arr.End - 1, End: arr.End - 1, Text: b}
}

// addKey returns the Edit that adds "key": raw to object obj.
func AddKey(obj *Node, key string, raw []byte) Edit {
	b := []byte{}
	if len(obj.Keys) > 0 {
		b = append(b, ',')
	}
	b = append(b, String(key)...)
	b = append(b, ':')
	b = append(b, raw...)
	return Edit{Start: obj.End - 1, End: obj.End - 1, Text: b}
}

// removeKey returns the Edit that removes key (and one neighbouring comma)
// from object obj; ok is false when obj has no such key.
func RemoveKey(obj *Node, key string) (Edit, bool) {
	for i, k := range obj.Keys {
		if k != key {
			continue
		}
		switch {
		case i > 0:
			return Edit{Start: obj.Vals[i-1].End, End: obj.Vals[i].End}, true
		case len(obj.Keys) > 1:
			return Edit{Start: obj.KeyStarts[0], End: obj.KeyStarts[1]}, true
		default:
			return Edit{Start: obj.KeyStarts[0], End: obj.Vals[0].End}, true
		}
	}
	return Edit{}, false
}

// ContentText returns a message content's text: a string value, or the
// text of its text parts ({"type":"text"|"input_text","text":…}) joined by
// newlines, the shape both OpenAI and Anthropic use for content arrays.
func ContentText(n *Node) string {
	if n == nil {
		return ""
	}
	if n.Kind == '"' {
		return n.Str
	}
	var parts []string
	for _, p := range n.Items() {
		if t := p.Get("type").Text(); t == "text" || t == "input_text" {
			parts = append(parts, p.Get("text").Text())
		}
	}
	return strings.Join(parts, "\n")
}
