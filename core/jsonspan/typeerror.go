package jsonspan

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// TypeError rewrites an *json.UnmarshalTypeError that decoding body
// returned into one line naming where the value is and what JSON type was
// wanted, as the hand-written readers of the Anthropic and Responses wires
// say it: "LINE:COL (byte N): PATH: want a string, got a number", PATH
// with array indices (messages[0].role), "" for the whole body. encoding/json
// names the Go type instead, an anonymous struct spelled out with its tags
// (`[]struct { Role string "json:\"role\""; ... }`), which means nothing to
// a client. Any other error (a syntax error, nil) is returned as it is.
func TypeError(body []byte, err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil {
		return err
	}
	want := jsonType(te.Type)
	root, perr := Parse(body)
	if perr != nil { // deeper than Parse goes: the field path alone
		return errors.New(strings.TrimPrefix(te.Field+": ", ": ") + "want " + want + ", got " + article(te.Value))
	}
	n, path := locateType(root, te)
	line, col := LineCol(body, n.Start)
	msg := strconv.Itoa(line) + ":" + strconv.Itoa(col) + " (byte " + strconv.Itoa(n.Start) + "): "
	if path != "" {
		msg += path + ": "
	}
	got := KindName(n)
	if v, ok := strings.CutPrefix(te.Value, "number "); ok && n.Kind == 'n' { // 1.5 or 1e99 for an integer
		got = "the number " + clip(v)
	}
	return errors.New(msg + "want " + want + ", got " + got)
}

// locateType finds the value te is about: it follows te.Field's keys
// (encoding/json gives them without indices or map keys) and, in arrays
// and maps, the element or member te.Offset falls in; then it goes on into the element or member holding
// the offset, for a mismatch below the field path (an element of a slice).
// encoding/json puts the offset just past the opening bracket of a
// container and just past the end of a scalar, so a value at Start only
// (the opening of a nested container) is not entered.
func locateType(n *Node, te *json.UnmarshalTypeError) (*Node, string) {
	var segs []string
	if te.Field != "" {
		segs = strings.Split(te.Field, ".")
	}
	off := int(te.Offset)
	var path strings.Builder
	for {
		if n.Kind == '{' && len(segs) > 0 {
			if i := memberAt(n, segs[0], off); i >= 0 {
				addKey(&path, segs[0])
				n, segs = n.Vals[i], segs[1:]
				continue
			} // else a map's key, which Field leaves out: by the offset
		}
		i := childAt(n, off)
		if i < 0 {
			return n, path.String()
		}
		if n.Kind == '[' {
			path.WriteString("[" + strconv.Itoa(i) + "]")
		} else {
			addKey(&path, n.Keys[i])
		}
		n = n.Vals[i]
	}
}

// addKey appends a key to a path: ".key", or `["a b"]` for a key that is
// not a plain name, with no dot at the start.
func addKey(path *strings.Builder, key string) {
	s := seg(key)
	if path.Len() > 0 && s[0] != '[' {
		path.WriteByte('.')
	}
	path.WriteString(s)
}

// memberAt is the index of the member key of n that holds off, else of
// its last (the one encoding/json keeps), or -1.
func memberAt(n *Node, key string, off int) int {
	last := -1
	for i, k := range n.Keys {
		if k != key {
			continue
		}
		last = i
		if v := n.Vals[i]; v.Start < off && off <= v.End {
			return i
		}
	}
	return last
}

// childAt is the index of the value of n that holds off past its first
// byte, or -1.
func childAt(n *Node, off int) int {
	for i, v := range n.Vals {
		if v.Start < off && off <= v.End {
			return i
		}
	}
	return -1
}

// jsonType names the JSON type that decodes into t.
func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		return "an array"
	case reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a JSON value"
}

// KindName names a parsed value's JSON type as the wire readers' errors
// do ("an object", "a string", ...; "nothing" for nil).
func KindName(n *Node) string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case '0':
		return "null"
	}
	return "a number"
}

// article renders encoding/json's Value ("number", "object", "number
// 1.5") with an article, for the fallback message.
func article(v string) string {
	switch {
	case v == "object" || v == "array":
		return "an " + v
	case v == "bool":
		return "a boolean"
	}
	return "a " + v
}

// clip cuts a number's text after 24 bytes.
func clip(s string) string {
	if len(s) > 24 {
		return s[:24] + "..."
	}
	return s
}

// seg renders a key as a path segment: as it is when it is a plain name,
// else quoted in brackets, so that the path stays unambiguous and on one
// line.
func seg(key string) string {
	if key == "" || len(key) > 64 {
		return "[" + strconv.Quote(key[:min(len(key), 64)]) + "]"
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '$') {
			return "[" + strconv.Quote(key) + "]"
		}
	}
	return key
}

// LineCol returns the 1-based line and byte column of off in src, as the
// wire readers' errors give it; a line ends at "\n", "\r\n" or "\r".
func LineCol(src []byte, off int) (line, col int) {
	line, start := 1, 0
	for i := 0; i < off && i < len(src); i++ {
		switch src[i] {
		case '\n':
			line, start = line+1, i+1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			line, start = line+1, i+1
		}
	}
	return line, off - start + 1
}
