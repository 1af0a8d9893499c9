// Package yamlstrict is the strict YAML decoding of toolout's two readers:
// the scenario loader (package harness) and the gateway config loader
// (cmd/toolout). Both decode yaml.v3 nodes with its one Decoder, so that
// every problem is reported at its own line:col, all of them at once, and
// both agree on what a value may be; each words the problems its own way
// (a scenario error names "expect.found: ...", a config error "... in
// pipes.tool_output"). What they share:
//
//   - Decoder: structs by their yaml keys, maps, lists, scalars; unknown,
//     duplicate, merge and non-string keys refused; null a value's default;
//     ${VAR} expansion, self-decoding types and validation as options;
//   - Walk: the characters of a file with their line and column as the
//     YAML parser counts them (UTF-8, or UTF-16 after a byte-order mark;
//     lines broken at "\n", "\r\n", "\r", U+0085, U+2028, U+2029), to
//     place the problems the parser reports without a position;
//   - Printable: the characters YAML 1.2 allows in a file (c-printable);
//   - Fields: a struct's keys by their yaml tags, with ",inline" embedded
//     structs adding theirs at the same level, as yaml.v3 reads them;
//   - Nearest: the "did you mean" of an unknown key;
//   - Duration: a time.Duration written as a Go duration ("30s", "1h30m");
//   - Scalar: a string, boolean, integer, unsigned integer or number, by
//     one policy (the YAML type decides: a quoted "42" is not an integer,
//     .nan and .inf are not numbers, "yes" is not a boolean).
//
// Choices where YAML is silent: a duration must be 0 or more (every
// duration toolout reads is a time to wait or keep, where 0 means the
// default), and a bare number is not a duration (is 30 seconds or
// nanoseconds?). Nearest compares case-insensitively and suggests only a
// name within an edit distance under min(3, len/2+1).
package yamlstrict

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Char is one character of a file: R is -1 for a sequence that does not
// decode (the walk ends there). Off is its byte offset in the file, Line
// and Col are 1-based, Col counted in characters.
type Char struct {
	R              rune
	Off, Line, Col int
}

// Walk calls fn with each character of src until fn returns false or a
// sequence does not decode.
func Walk(src []byte, fn func(c Char) bool) {
	next := func(b []byte) (rune, int) {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			return -1, 1
		}
		return r, size
	}
	start := 0
	switch {
	case bytes.HasPrefix(src, []byte{0xff, 0xfe}):
		start, next = 2, utf16Char(binary.LittleEndian)
	case bytes.HasPrefix(src, []byte{0xfe, 0xff}):
		start, next = 2, utf16Char(binary.BigEndian)
	}
	line, col, afterCR := 1, 1, false
	for i := start; i < len(src); {
		r, size := next(src[i:])
		if !fn(Char{R: r, Off: i, Line: line, Col: col}) || r < 0 {
			return
		}
		switch {
		case r == '\n' && afterCR: // the line broke at the CR
		case r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029:
			line, col = line+1, 1
		default:
			col++
		}
		afterCR = r == '\r'
		i += size
	}
}

// utf16Char decodes one UTF-16 character, or -1 for a broken one.
func utf16Char(order binary.ByteOrder) func([]byte) (rune, int) {
	return func(b []byte) (rune, int) {
		if len(b) < 2 {
			return -1, len(b)
		}
		u := rune(order.Uint16(b))
		switch {
		case u >= 0xDC00 && u <= 0xDFFF:
			return -1, 2
		case u < 0xD800 || u > 0xDBFF:
			return u, 2
		case len(b) < 4:
			return -1, len(b)
		}
		v := rune(order.Uint16(b[2:]))
		if v < 0xDC00 || v > 0xDFFF {
			return -1, 2
		}
		return 0x10000 + (u-0xD800)<<10 + (v - 0xDC00), 4
	}
}

// Printable reports whether YAML allows r in a file (YAML 1.2,
// c-printable).
func Printable(r rune) bool {
	switch {
	case r == 0x09, r == 0x0A, r == 0x0D, r >= 0x20 && r <= 0x7E, r == 0x85:
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
	default:
		return false
	}
	return true
}

// Fields maps the yaml keys of struct type t to field index paths (for
// reflect.Value.FieldByIndex), names in field order. A field tagged "-"
// or unexported is not a key; an untagged one is its lower-cased name.
func Fields(t reflect.Type) (names []string, index map[string][]int) {
	index = map[string][]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if f.Anonymous && opts == "inline" && f.Type.Kind() == reflect.Struct {
			inner, innerIndex := Fields(f.Type)
			for _, n := range inner {
				names = append(names, n)
				index[n] = append([]int{i}, innerIndex[n]...)
			}
			continue
		}
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		names = append(names, name)
		index[name] = []int{i}
	}
	return names, index
}

// Nearest returns the name closest to s when it is close enough to be a
// misspelling, or "".
func Nearest(s string, names []string) string {
	best, bestD := "", min(3, len(s)/2+1)
	for _, name := range names {
		if d := editDistance(strings.ToLower(s), strings.ToLower(name)); d < bestD {
			best, bestD = name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// DurationType is the type Duration decodes; a reader checks it before the
// value's kind (a time.Duration is an int64).
var DurationType = reflect.TypeFor[time.Duration]()

// SetDuration decodes n with Duration into v, a settable time.Duration.
func SetDuration(n *yaml.Node, v reflect.Value) error {
	d, err := Duration(n)
	if err == nil {
		v.SetInt(int64(d))
	}
	return err
}

// Duration decodes a scalar node holding a Go duration of 0 or more. Its
// error names the value, not the position (the caller places it).
func Duration(n *yaml.Node) (time.Duration, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, errors.New("want a duration such as 30s or 5m")
	}
	d, err := time.ParseDuration(n.Value)
	switch {
	case err != nil:
		return 0, fmt.Errorf("duration %q: want e.g. 30s or 5m", n.Value)
	case d < 0:
		return 0, fmt.Errorf("duration %q: want 0 (the default) or more", n.Value)
	}
	return d, nil
}

// Resolve follows aliases and unwraps documents; nil stays nil.
func Resolve(n *yaml.Node) *yaml.Node {
	for n != nil {
		switch {
		case n.Kind == yaml.AliasNode:
			n = n.Alias
		case n.Kind == yaml.DocumentNode && len(n.Content) > 0:
			n = n.Content[0]
		default:
			return n
		}
	}
	return nil
}

// IsNull reports a missing node or a null scalar (`~`, `null`, or nothing
// after the key), through aliases.
func IsNull(n *yaml.Node) bool {
	n = Resolve(n)
	return n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// Container names a mapping or a list as an error message says it ("a
// mapping", "a list"), and returns "" for any other node.
func Container(n *yaml.Node) string {
	if n = Resolve(n); n != nil && n.Kind == yaml.MappingNode {
		return "a mapping"
	} else if n != nil && n.Kind == yaml.SequenceNode {
		return "a list"
	}
	return ""
}
