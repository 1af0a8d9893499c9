package responses

import (
	"strconv"

	"github.com/toolout/toolout/core/jsonspan"
)

// value is a parsed JSON value with its path, for errors; n is nil for a
// member that is not there, and then at is where its object starts.
type value struct {
	b    []byte // the input
	n    *jsonspan.Node
	path string
	at   int
}

func (v value) fail(msg string) error {
	at := v.at
	if v.n != nil {
		at = v.n.Start
	}
	return &Error{Offset: at, Path: v.path, Msg: msg}
}

func (v value) want(what string) error { return v.fail("want " + what + ", got " + kind(v.n)) }

// missing reports whether the member is absent or null.
func (v value) missing() bool { return v.n == nil || v.n.Kind == '0' }

// key returns the member k of an object (the last one, as jsonspan and
// encoding/json read duplicates; [value.object] refuses duplicates of the
// keys a reader knows).
func (v value) key(k string) value {
	p := k
	if v.path != "" {
		p = v.path + "." + k
	}
	return value{b: v.b, n: v.n.Get(k), path: p, at: v.at0()}
}

func (v value) at0() int {
	if v.n != nil {
		return v.n.Start
	}
	return v.at
}

// items returns the elements of an array.
func (v value) items() []value {
	out := make([]value, len(v.n.Items()))
	for i, n := range v.n.Items() {
		out[i] = value{b: v.b, n: n, path: v.path + "[" + strconv.Itoa(i) + "]"}
	}
	return out
}

// object checks that v is an object in which none of keys appears twice.
func (v value) object(keys ...string) error {
	if v.n == nil || v.n.Kind != '{' {
		return v.want("an object")
	}
	for i, k := range v.n.Keys {
		for _, known := range keys {
			if k != known {
				continue
			}
			for j := i + 1; j < len(v.n.Keys); j++ {
				if v.n.Keys[j] == k {
					return &Error{Offset: v.n.KeyStarts[j], Path: v.path, Msg: "duplicate key " + strconv.Quote(k)}
				}
			}
		}
	}
	return nil
}

// str reads a string that must be there.
func (v value) str() (string, error) {
	if v.n == nil {
		return "", v.fail("missing")
	}
	if v.n.Kind != '"' {
		return "", v.want("a string")
	}
	return v.n.Str, nil
}

// optStr reads a string, absent or null ("").
func (v value) optStr() (string, error) {
	if v.missing() {
		return "", nil
	}
	return v.str()
}

// optBool reads a boolean, absent or null (false).
func (v value) optBool() (bool, error) {
	switch {
	case v.missing():
		return false, nil
	case v.n.Kind == 't':
		return true, nil
	case v.n.Kind == 'f':
		return false, nil
	}
	return false, v.want("a boolean")
}

// optInt reads a non-negative integer that fits an int, absent or null
// (0).
func (v value) optInt() (int, error) {
	if v.missing() {
		return 0, nil
	}
	if v.n.Kind != 'n' {
		return 0, v.want("an integer")
	}
	text := string(v.raw())
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 {
		return 0, v.fail("want a non-negative integer, got " + text)
	}
	return n, nil
}

// raw returns the bytes of the value (a view of the input).
func (v value) raw() []byte { return v.b[v.n.Start:v.n.End] }

func quote(s string) string { return strconv.Quote(s) }
