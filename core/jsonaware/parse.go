package jsonaware

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/toolout/toolout/core/jsonlex"
)

// MaxDepth is the deepest nesting of arrays and objects Shorten reads (the
// limit of encoding/json); a deeper input is a [*jsonlex.SyntaxError] at the bracket
// that goes one level too deep.
const MaxDepth = 10_000

// MaxInput is the largest input Shorten reads: offsets are 32-bit, which
// keeps a node at 16 bytes. A larger input is a [*jsonlex.SyntaxError] at
// MaxInput.
const MaxInput = math.MaxInt32

// Node kinds.
const (
	kObj uint8 = iota
	kArr
	kStr
	kKey
	kNum
	kLit
)

// Node flags.
const (
	fErr      uint8 = 1 << iota // the value is error-like, or holds one
	fForced                     // the value holds the first occurrence of a key path
	fOutlier                    // a row that is a statistical outlier of its array
	fMarker                     // a string that is a rows marker
	fNonEmpty                   // a container with at least one member or row
)

// node is one value or key of the input, in document order: a container is
// followed by its members (an object's as key, value, key, value ...).
type node struct {
	off   int32 // offset of the first byte in the input
	end   int32 // scalar or key: offset after it; container: index of the node after its subtree
	aux   int32 // array: index into tree.arrays; key: its path id inside an array, -1 outside
	kind  uint8
	flags uint8
}

// arrInfo counts an array's rows and the error-like ones among them.
type arrInfo struct{ rows, errs int32 }

// tree is the parsed input.
type tree struct {
	src    []byte
	nodes  []node
	arrays []arrInfo
}

// frame is an open container.
type frame struct {
	node     int32 // its node
	path     int32 // its key path
	elem     int32 // array: the key path of its rows (-1 until one is a container)
	keyPath  int32 // object: the key path of the member being read
	keyClass uint8 // object: the class of the member being read (see classify)
}

// bom is the UTF-8 byte order mark, skipped at the start of an input.
var bom = []byte("\uFEFF")

// next returns the index of the node after the subtree of node i.
func (t *tree) next(i int32) int32 {
	if k := t.nodes[i].kind; k == kObj || k == kArr {
		return t.nodes[i].end
	}
	return i + 1
}

// push appends n to the nodes, doubling their capacity when full (append
// grows a large slice by a quarter: five times the final size allocated).
func (p *parser) push(n node) {
	if len(p.t.nodes) == cap(p.t.nodes) {
		p.t.nodes = slices.Grow(p.t.nodes, len(p.t.nodes))
	}
	p.t.nodes = append(p.t.nodes, n)
}

// parser reads a JSON text into a tree without recursion.
type parser struct {
	t       tree
	pos     int
	stack   []frame
	inArray int // open arrays: a string outside every array is never a row
	errPat  matcher
	paths   map[uint64]pathEntry // hash of (parent path, key as written) -> the path, inside arrays
	clashes map[clash]int32      // the paths whose hash another path had first
	nPaths  int32                // paths interned
	fresh   int32                // the last path id given to a key outside every array (negative)

	maxOutliers int // outlier rows flagged per array at most
	// scratch of findOutliers
	samples, scores, grouped []sample
	groups                   [][]sample
	counts                   []int
	seriesIdx                map[int32]int
	devs                     []float64
}

// matcher reports whether text looks like an error.
type matcher interface{ Match([]byte) bool }

func (p *parser) fail(off int, format string, args ...any) error {
	line, col := jsonlex.LineCol(p.t.src, off)
	return fmt.Errorf("jsonaware: %w", &jsonlex.SyntaxError{Offset: off, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// describe names the byte at off for an error message.
func (p *parser) describe(off int) string {
	if off >= len(p.t.src) {
		return "end of input"
	}
	return fmt.Sprintf("%q", p.t.src[off])
}

// parse reads src, a UTF-8 byte order mark aside, as one JSON value with
// white space around it.
func parse(src []byte, errPat matcher, maxOutliers int) (*tree, error) {
	p := &parser{t: tree{src: src}, errPat: errPat, paths: map[uint64]pathEntry{}, maxOutliers: maxOutliers, seriesIdx: map[int32]int{}}
	if len(src) > MaxInput {
		return nil, p.fail(MaxInput, "input larger than %d bytes", MaxInput)
	}
	p.t.nodes = make([]node, 0, min(len(src)/8+16, 1<<16))
	if bytes.HasPrefix(src, bom) {
		p.pos = len(bom)
	}
	p.pos = jsonlex.Space(src, p.pos)
	if p.pos == len(src) {
		return nil, p.fail(p.pos, "empty input")
	}
	for {
		opened, err := p.value()
		if err != nil {
			return nil, err
		}
		if opened {
			continue
		}
		if err := p.afterValues(); err != nil {
			return nil, err
		}
		if len(p.stack) == 0 {
			if p.pos = jsonlex.Space(src, p.pos); p.pos < len(src) {
				return nil, p.fail(p.pos, "data after the top-level value: %s", p.describe(p.pos))
			}
			return &p.t, nil
		}
	}
}

// value reads the value at pos: a scalar is complete (and its container
// told), a container is opened (and closed at once when empty); opened
// reports a container left open.
func (p *parser) value() (opened bool, err error) {
	src := p.t.src
	p.pos = jsonlex.Space(src, p.pos)
	start := p.pos
	if start >= len(src) {
		return false, p.fail(start, "unexpected end of input, looking for a value")
	}
	var kind uint8
	switch c := src[start]; {
	case c == '{' || c == '[':
		return p.open(c)
	case c == '"':
		end, err := p.str(start)
		if err != nil {
			return false, err
		}
		p.pos, kind = end, kStr
	case c == 't' || c == 'f' || c == 'n':
		end := max(jsonlex.Literal(src, start, "true"), jsonlex.Literal(src, start, "false"), jsonlex.Literal(src, start, "null"))
		if end < 0 {
			return false, p.fail(start, "invalid literal, looking for true, false or null")
		}
		p.pos, kind = end, kLit
	case c == '-' || c >= '0' && c <= '9':
		end, ok := jsonlex.Number(src, start)
		if !ok {
			return false, p.fail(end, "invalid number: %s", p.describe(end))
		}
		p.pos, kind = end, kNum
	default:
		return false, p.fail(start, "unexpected %s, looking for a value", p.describe(start))
	}
	p.push(node{off: int32(start), end: int32(p.pos), kind: kind})
	idx := int32(len(p.t.nodes) - 1)
	if kind == kStr {
		p.markString(idx)
	}
	p.done(idx)
	return false, nil
}

// str checks the string literal at start and returns the offset after it.
func (p *parser) str(start int) (int, error) {
	src := p.t.src
	end, _, fault := jsonlex.String(src, start)
	switch fault {
	case jsonlex.Unterminated:
		return 0, p.fail(end, "unterminated string")
	case jsonlex.Control:
		return 0, p.fail(end, "control character %s in string", p.describe(end))
	case jsonlex.BadEscape, jsonlex.BadHex:
		return 0, p.fail(end, "invalid escape in string")
	}
	if raw := src[start+1 : end-1]; !utf8.Valid(raw) {
		at := start + 1
		for r := raw; ; {
			c, w := utf8.DecodeRune(r)
			if c == utf8.RuneError && w <= 1 {
				break
			}
			at, r = at+w, r[w:]
		}
		return 0, p.fail(at, "invalid UTF-8 in string")
	}
	return end, nil
}

// open opens the container whose bracket c is at pos; opened is false
// when it closes at once (empty).
func (p *parser) open(c byte) (opened bool, err error) {
	if len(p.stack) >= MaxDepth {
		return false, p.fail(p.pos, "nesting deeper than %d levels", MaxDepth)
	}
	n := node{off: int32(p.pos), kind: kObj}
	if c == '[' {
		n.kind, n.aux = kArr, int32(len(p.t.arrays))
		p.t.arrays = append(p.t.arrays, arrInfo{})
		p.inArray++
	}
	path := int32(0)
	if len(p.stack) > 0 {
		path = p.childPath(&p.stack[len(p.stack)-1])
	}
	p.push(n)
	p.stack = append(p.stack, frame{node: int32(len(p.t.nodes) - 1), path: path, elem: -1})
	p.pos = jsonlex.Space(p.t.src, p.pos+1)
	closer := byte(']')
	if c == '{' {
		closer = '}'
	}
	if p.pos < len(p.t.src) && p.t.src[p.pos] == closer {
		p.pos++
		p.closeTop()
		return false, nil
	}
	if c == '{' {
		return true, p.key()
	}
	return true, nil
}

// childPath is the key path of the next value of container f.
func (p *parser) childPath(f *frame) int32 {
	if p.t.nodes[f.node].kind == kObj {
		return f.keyPath
	}
	if f.elem < 0 {
		f.elem = p.intern(f.path, -1, -1)
	}
	return f.elem
}

// pathEntry is an interned path: its id, its parent's, and its key as
// written (a span of the input; off -1 for a row).
type pathEntry struct{ id, parent, off, end int32 }

// clash is a path whose hash collided with another's: looked up by its text.
type clash struct {
	parent int32
	key    string
	row    bool
}

// pathSeed hashes paths; ids are given in order of first occurrence, so the
// output does not depend on it.
var pathSeed = maphash.MakeSeed()

// intern returns the id of the path parent + the key written at
// src[off:end] (off < 0: a row of the array at parent), and marks the open
// containers as holding a first occurrence when it is new. One map of
// 64-bit hashes, each entry checked against the text it stands for (a
// clash goes to a second map): a map keyed by the text would cost a second
// lookup, or a string per key.
func (p *parser) intern(parent, off, end int32) int32 {
	sum := p.pathHash(parent, off, end)
	e, ok := p.paths[sum]
	switch {
	case !ok:
		p.nPaths++
		p.paths[sum] = pathEntry{id: p.nPaths, parent: parent, off: off, end: end}
	case e.parent == parent && (off < 0) == (e.off < 0) && (off < 0 || string(p.t.src[off:end]) == string(p.t.src[e.off:e.end])):
		return e.id
	default:
		c := clash{parent: parent, row: off < 0}
		if off >= 0 {
			c.key = string(p.t.src[off:end])
		}
		if id, ok := p.clashes[c]; ok {
			return id
		}
		if p.clashes == nil {
			p.clashes = map[clash]int32{}
		}
		p.nPaths++
		p.clashes[c] = p.nPaths
	}
	if off >= 0 {
		for i := len(p.stack) - 1; i >= 0; i-- {
			n := &p.t.nodes[p.stack[i].node]
			if n.flags&fForced != 0 {
				break
			}
			n.flags |= fForced
		}
	}
	return p.nPaths
}

// pathHash hashes the path parent + src[off:end] (off < 0: a row).
func (p *parser) pathHash(parent, off, end int32) uint64 {
	var h maphash.Hash
	h.SetSeed(pathSeed)
	var buf [5]byte
	binary.LittleEndian.PutUint32(buf[:4], uint32(parent))
	if off < 0 {
		buf[4] = 1
	} else {
		h.Write(p.t.src[off:end])
	}
	h.Write(buf[:])
	return h.Sum64()
}

// key reads an object member's key and its colon.
func (p *parser) key() error {
	src := p.t.src
	p.pos = jsonlex.Space(src, p.pos)
	start := p.pos
	if start >= len(src) || src[start] != '"' {
		return p.fail(start, "unexpected %s, looking for an object key", p.describe(start))
	}
	end, err := p.str(start)
	if err != nil {
		return err
	}
	raw := src[start+1 : end-1]
	f := &p.stack[len(p.stack)-1]
	id := int32(-1)
	if p.inArray == 0 {
		// Outside every array no object is ever cut: the key needs a
		// path of its own (its children may be arrays), not a lookup.
		p.fresh--
		f.keyPath = p.fresh
	} else {
		f.keyPath = p.intern(f.path, int32(start+1), int32(end-1))
		id = f.keyPath
	}
	p.push(node{off: int32(start), end: int32(end), aux: id, kind: kKey})
	f.keyClass = classify(raw)
	p.pos = jsonlex.Space(src, end)
	if p.pos >= len(src) || src[p.pos] != ':' {
		return p.fail(p.pos, "unexpected %s after object key, looking for ':'", p.describe(p.pos))
	}
	p.pos++
	return nil
}

// afterValues reads what follows a complete value: a comma (and the next
// key), or closing brackets, as long as they close containers.
func (p *parser) afterValues() error {
	src := p.t.src
	for len(p.stack) > 0 {
		top := &p.stack[len(p.stack)-1]
		isObj := p.t.nodes[top.node].kind == kObj
		p.pos = jsonlex.Space(src, p.pos)
		switch {
		case p.pos < len(src) && src[p.pos] == ',':
			p.pos++
			if isObj {
				return p.key()
			}
			return nil
		case p.pos < len(src) && (isObj && src[p.pos] == '}' || !isObj && src[p.pos] == ']'):
			p.pos++
			p.closeTop()
		case isObj:
			return p.fail(p.pos, "unexpected %s after object member, looking for ',' or '}'", p.describe(p.pos))
		default:
			return p.fail(p.pos, "unexpected %s after array element, looking for ',' or ']'", p.describe(p.pos))
		}
	}
	return nil
}

// closeTop closes the innermost container and tells its parent.
func (p *parser) closeTop() {
	top := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	n := &p.t.nodes[top.node]
	n.end = int32(len(p.t.nodes))
	if n.end > top.node+1 {
		n.flags |= fNonEmpty
	}
	if n.kind == kArr {
		p.inArray--
		p.findOutliers(top.node)
	}
	p.done(top.node)
}

// done tells the innermost open container that value idx is complete:
// the member rules of error-likeness (see classify), the propagation of
// error-likeness to the container, and an array's counts.
func (p *parser) done(idx int32) {
	if len(p.stack) == 0 {
		return
	}
	top := &p.stack[len(p.stack)-1]
	parent := &p.t.nodes[top.node]
	n := &p.t.nodes[idx]
	if parent.kind == kObj {
		if memberErrorLike(top.keyClass, p.t.src, n) {
			n.flags |= fErr
		}
	}
	if n.flags&fErr != 0 {
		parent.flags |= fErr
	}
	if parent.kind == kArr {
		a := &p.t.arrays[parent.aux]
		a.rows++
		if n.flags&(fErr|fMarker) == fErr {
			a.errs++
		}
	}
}

// markString flags the string node idx as a rows marker (a row whose text
// is one) or as error-like (ErrorPattern matches it, inside an array).
func (p *parser) markString(idx int32) {
	n := &p.t.nodes[idx]
	raw := p.t.src[n.off+1 : n.end-1]
	if len(p.stack) > 0 && p.t.nodes[p.stack[len(p.stack)-1].node].kind == kArr {
		if _, ok := parseRowsMarker(raw); ok {
			n.flags |= fMarker
			return
		}
	}
	if p.inArray > 0 && p.errPat != nil && p.errPat.Match(raw) {
		n.flags |= fErr
	}
}
