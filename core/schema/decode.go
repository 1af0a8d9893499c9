package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/toolout/toolout/core/jsonlex"
)

// MaxNesting is the deepest nesting of JSON arrays and objects a schema may
// have, the limit encoding/json applies too. A JSON Schema nests two levels
// per field ("properties", then the field's schema), so this allows some
// 5,000 levels of fields, far beyond any real schema; deeper input is
// refused with a [NestingError] before it can cost stack or memory.
const MaxNesting = 10_000

// NestingError is JSON nested deeper than MaxNesting; Offset is the byte
// offset of the bracket that goes one level too deep.
type NestingError struct {
	Offset int64
	Limit  int
}

func (e *NestingError) Error() string {
	return fmt.Sprintf("nesting deeper than %d levels at byte %d", e.Limit, e.Offset)
}

// decoder parses JSON iteratively (no recursion), so that any nesting up to
// MaxNesting costs heap, not stack. Values are nil, bool, json.Number,
// string, []any and *obj; strings without escapes share the input's memory.
//
// The members of every open object (and the items of every open array) are
// gathered on one scratch stack and copied to a slice of the exact size when
// their container closes: a 300,000-key $defs costs one slice of its size
// plus the scratch, where appending to its own slice (growing by 1.25 at that
// size) would allocate five times its size and copy four.
//
// Closed containers are carved from slabs (objects, members, items), so a
// schema of 10,000 small objects costs a few hundred allocations rather than
// 30,000: allocation and the collector's work were half of a summary's time.
// A container larger than a quarter of a slab gets a slice of its own, so a
// slab never holds more than a quarter of waste.
type decoder struct {
	src  string
	pos  int
	kvs  []kv  // members of the open objects, innermost last
	vals []any // items of the open arrays, innermost last

	objSlab []obj
	kvSlab  []kv
	valSlab []any
}

// slabLen is the number of elements of one slab.
const slabLen = 512

// carve returns a slice of n elements from the slab, with its capacity
// capped at n so that it cannot grow into its neighbour; a large n gets its
// own slice.
func carve[T any](slab *[]T, n int) []T {
	if n > slabLen/4 {
		return make([]T, n)
	}
	if len(*slab)+n > cap(*slab) {
		*slab = make([]T, 0, slabLen)
	}
	s := (*slab)[len(*slab) : len(*slab)+n : len(*slab)+n]
	*slab = (*slab)[:len(*slab)+n]
	return s
}

// newObj returns a zero object from the slab.
func (d *decoder) newObj() *obj {
	if len(d.objSlab) == cap(d.objSlab) {
		d.objSlab = make([]obj, 0, slabLen/4)
	}
	d.objSlab = d.objSlab[:len(d.objSlab)+1]
	return &d.objSlab[len(d.objSlab)-1]
}

// frame is an array or object being filled; its members start at
// kvs[start] (an object) or vals[start] (an array).
type frame struct {
	isObj bool
	start int
	key   string
}

// decode parses one JSON value that must fill the whole input (surrounding
// white space aside).
func decode(data []byte) (any, error) {
	if len(data) > copyFreely {
		if at := tooDeep(data); at >= 0 {
			// Decode only up to the bracket that goes too deep: the
			// decoder stops there with a NestingError (or earlier, at a
			// syntax error), exactly as on the whole input, without
			// copying the rest.
			data = data[:at+1]
		}
	}
	d := &decoder{src: string(data)}
	var stack []frame
	for {
		v, open, err := d.value(len(stack))
		if err != nil {
			return nil, err
		}
		if open != 0 {
			f := frame{isObj: open == '{', start: len(d.vals)}
			if f.isObj {
				f.start = len(d.kvs)
			}
			stack = append(stack, f)
			if f.isObj && d.peek() == '}' || !f.isObj && d.peek() == ']' {
				d.pos++
				v, stack = d.close(stack)
			} else {
				if f.isObj {
					if stack[len(stack)-1].key, err = d.key(); err != nil {
						return nil, err
					}
				}
				continue
			}
		}
		// v is complete: add it to the innermost container, closing every
		// container that ends here.
		for {
			if len(stack) == 0 {
				if d.skip(); d.pos < len(d.src) {
					return nil, d.errorf("data after the schema")
				}
				return v, nil
			}
			top := &stack[len(stack)-1]
			if top.isObj {
				d.kvs = push(d.kvs, kv{top.key, v})
			} else {
				d.vals = push(d.vals, v)
			}
			more, err := d.next(top.isObj)
			if err != nil {
				return nil, err
			}
			if more {
				if top.isObj {
					if top.key, err = d.key(); err != nil {
						return nil, err
					}
				}
				break
			}
			v, stack = d.close(stack)
		}
	}
}

// push appends x, doubling the capacity when it is full (append grows large
// slices by a quarter, which allocates about five times the final size).
func push[T any](s []T, x T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 16))
	}
	return append(s, x)
}

// close pops the innermost container and returns it as a value: its members
// move from the scratch stack to a slice of their own.
func (d *decoder) close(stack []frame) (any, []frame) {
	top := stack[len(stack)-1]
	stack = stack[:len(stack)-1]
	if top.isObj {
		o := d.newObj()
		if n := len(d.kvs) - top.start; n > 0 {
			o.kvs = carve(&d.kvSlab, n)
			copy(o.kvs, d.kvs[top.start:])
			clear(d.kvs[top.start:])
			d.kvs = d.kvs[:top.start]
		}
		o.finish()
		return o, stack
	}
	a := carve(&d.valSlab, len(d.vals)-top.start)
	copy(a, d.vals[top.start:])
	clear(d.vals[top.start:])
	d.vals = d.vals[:top.start]
	return a, stack
}

// next reads the separator after a container's element: true for a comma,
// false for the closing bracket.
func (d *decoder) next(isObj bool) (bool, error) {
	d.skip()
	closing := byte(']')
	if isObj {
		closing = '}'
	}
	switch d.peek() {
	case ',':
		d.pos++
		return true, nil
	case closing:
		d.pos++
		return false, nil
	}
	return false, d.unexpected(fmt.Sprintf("after a value (want ',' or '%c')", closing))
}

// key reads `"name" :` inside an object.
func (d *decoder) key() (string, error) {
	d.skip()
	if d.peek() != '"' {
		return "", d.unexpected("(want a string key)")
	}
	k, err := d.str()
	if err != nil {
		return "", err
	}
	d.skip()
	if d.peek() != ':' {
		return "", d.unexpected("after a key (want ':')")
	}
	d.pos++
	return k, nil
}

// copyFreely is the input size up to which decode copies the input without
// first checking its nesting: a copy that size costs less than the check
// (a tenth of a summary's time), while refusing 10 MiB of "[" should not
// cost 10 MiB.
const copyFreely = 1 << 20

// tooDeep returns the offset of the first bracket outside strings that opens
// level MaxNesting+1, or -1. It is one pass over the bytes with no
// allocation, so that refusing 10 MiB of "[" costs what refusing 10 KiB does.
func tooDeep(data []byte) int {
	depth, inStr := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '[' || c == '{':
			if depth++; depth > MaxNesting {
				return i
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return -1
}

// value reads a scalar, or the opening bracket of a container (returned in
// open, '{' or '['). depth is the number of open containers.
func (d *decoder) value(depth int) (v any, open byte, err error) {
	d.skip()
	switch c := d.peek(); c {
	case '{', '[':
		if depth >= MaxNesting {
			return nil, 0, &NestingError{Offset: int64(d.pos), Limit: MaxNesting}
		}
		d.pos++
		d.skip()
		return nil, c, nil
	case '"':
		s, err := d.str()
		return boxed(s), 0, err
	case 't':
		return true, 0, d.literal("true")
	case 'f':
		return false, 0, d.literal("false")
	case 'n':
		return nil, 0, d.literal("null")
	}
	n, err := d.number()
	return n, 0, err
}

// The string values that fill most of a schema, boxed once: putting a
// string in an interface allocates, and "type": "string" is a third of the
// values of a typical schema.
var (
	boxedString  any = "string"
	boxedObject  any = "object"
	boxedArray   any = "array"
	boxedInteger any = "integer"
	boxedNumber  any = "number"
	boxedBoolean any = "boolean"
	boxedNull    any = "null"
)

// boxed returns s as a value, sharing the boxes of the common type names.
func boxed(s string) any {
	switch s {
	case "string":
		return boxedString
	case "object":
		return boxedObject
	case "array":
		return boxedArray
	case "integer":
		return boxedInteger
	case "number":
		return boxedNumber
	case "boolean":
		return boxedBoolean
	case "null":
		return boxedNull
	}
	return s
}

func (d *decoder) literal(word string) error {
	end := jsonlex.Literal(d.src, d.pos, word)
	if end < 0 {
		return d.unexpected("(want a value)")
	}
	d.pos = end
	return nil
}

// number reads a JSON number, checking its grammar.
func (d *decoder) number() (json.Number, error) {
	start := d.pos
	end, ok := jsonlex.Number(d.src, start)
	d.pos = end
	switch {
	case ok:
		return json.Number(d.src[start:end]), nil
	case end-start < 2: // no digit: not a number at all
		return "", d.unexpected("(want a value)")
	}
	return "", d.unexpected("in a number (want a digit)")
}

// str reads a string starting at its opening quote.
func (d *decoder) str() (string, error) {
	start := d.pos + 1
	end, escaped, fault := jsonlex.String(d.src, d.pos)
	d.pos = end
	switch fault {
	case jsonlex.OK:
		if !escaped {
			return d.src[start : end-1], nil
		}
		return string(jsonlex.Unescape(make([]byte, 0, end-1-start), d.src[start:end-1], false)), nil
	case jsonlex.Control:
		return "", d.errorf("control character %#02x in a string", d.src[end])
	case jsonlex.BadEscape:
		return "", d.errorf("invalid escape \\%c in a string", d.src[end+1])
	case jsonlex.BadHex:
		return "", d.errorf("invalid \\u escape in a string")
	}
	d.pos = len(d.src)
	return "", d.errorf("unexpected end of input")
}

func (d *decoder) skip() { d.pos = jsonlex.Space(d.src, d.pos) }

// peek returns the byte at the position, or 0 at the end.
func (d *decoder) peek() byte {
	if d.pos < len(d.src) {
		return d.src[d.pos]
	}
	return 0
}

func (d *decoder) unexpected(what string) error {
	if d.pos >= len(d.src) {
		return d.errorf("unexpected end of input")
	}
	r, _ := utf8.DecodeRuneInString(d.src[d.pos:])
	return d.errorf("unexpected %q %s", r, what)
}

func (d *decoder) errorf(format string, args ...any) error {
	return &jsonlex.SyntaxError{Offset: d.pos, Msg: fmt.Sprintf(format, args...)}
}
