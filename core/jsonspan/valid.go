package jsonspan

import (
	"strings"

	"github.com/toolout/toolout/core/jsonlex"
)

// Valid reports whether [Parse] accepts body, without building the tree:
// the same grammar, the same 512 levels of nesting, no allocation. The
// gateway asks it of an upstream's answer it need not read.
func Valid(body []byte) bool {
	v := validator{b: body, i: jsonlex.Space(body, 0)}
	return v.value(0) && jsonlex.Space(body, v.i) == len(body)
}

// validator walks a body as the parser does, keeping only its place.
type validator struct {
	b []byte
	i int
}

func (v *validator) value(depth int) bool {
	if depth > 512 || v.i >= len(v.b) {
		return false
	}
	switch v.b[v.i] {
	case '{':
		return v.container('}', depth)
	case '[':
		return v.container(']', depth)
	case '"':
		end, _, f := jsonlex.String(v.b, v.i)
		v.i = end
		return f == jsonlex.OK
	}
	return v.literal()
}

// container walks an object or an array; v.i is at its opening bracket.
func (v *validator) container(closer byte, depth int) bool {
	v.i = jsonlex.Space(v.b, v.i+1)
	if v.i < len(v.b) && v.b[v.i] == closer {
		v.i++
		return true
	}
	for {
		v.i = jsonlex.Space(v.b, v.i)
		if closer == '}' && !v.key(depth) {
			return false
		}
		if !v.value(depth + 1) {
			return false
		}
		v.i = jsonlex.Space(v.b, v.i)
		switch {
		case v.i < len(v.b) && v.b[v.i] == ',':
			v.i++
		case v.i < len(v.b) && v.b[v.i] == closer:
			v.i++
			return true
		default:
			return false
		}
	}
}

// key walks an object member's key and colon, up to its value.
func (v *validator) key(depth int) bool {
	if v.i >= len(v.b) || v.b[v.i] != '"' || !v.value(depth+1) {
		return false
	}
	v.i = jsonlex.Space(v.b, v.i)
	if v.i >= len(v.b) || v.b[v.i] != ':' {
		return false
	}
	v.i = jsonlex.Space(v.b, v.i+1)
	return true
}

// literal walks true, false, null or a number.
func (v *validator) literal() bool {
	start := v.i
	for v.i < len(v.b) && !strings.ContainsRune(",]} \t\r\n", rune(v.b[v.i])) {
		v.i++
	}
	switch lit := v.b[start:v.i]; string(lit) {
	case "":
		return false
	case "true", "false", "null":
		return true
	default:
		return number(lit)
	}
}
