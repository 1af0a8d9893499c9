package yamlstrict

import (
	"fmt"
	"reflect"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Decoder decodes yaml.v3 nodes into Go values strictly, the one decoder
// of both readers (the scenario loader, the gateway config loader): a
// struct by its yaml keys (Fields), a map with string keys, a list, a
// scalar by Scalar's policy, a time.Duration by Duration's; every problem
// goes to Report at its own node, and decoding goes on, so that a reader
// can name all of them at once. A null (`~`, or nothing after the key)
// leaves a value as it was: its default.
//
// What the readers do differently is theirs to set: how a problem reads
// (Report), ${VAR} expansion in a scalar before it is typed (Expand: the
// gateway config's), types that decode themselves (Hook: the harness's),
// a check after each value (Validate: the harness's Validate methods), a
// lone scalar read as a one-element list of strings (LoneScalarList: the
// harness's "labels: smoke").
type Decoder struct {
	Report         func(Problem)
	Expand         func(string) string
	Hook           func(n *yaml.Node, v reflect.Value, what string) bool
	Validate       func(n *yaml.Node, v reflect.Value, what string)
	LoneScalarList bool
}

// Problem is one thing the Decoder refused, at node N, in the value What
// names ("pipes.tool_output", "expect.found"; "" for the top level).
type Problem struct {
	N    *yaml.Node
	What string
	Kind ProblemKind
	// Want says what a WrongKind value should be ("a mapping", "an
	// integer", "a list of strings").
	Want string
	// Key is an unknown, duplicate, merge or non-string key's text.
	Key string
	// Nearest is the known key an UnknownKey is likely a misspelling of,
	// or ""; Known lists the keys in field order.
	Nearest string
	Known   []string
	// First is the earlier occurrence of a DuplicateKey.
	First *yaml.Node
	// Err is the value's own error, for a BadValue: a duration that does
	// not parse, or a node that does not decode into an any (a tag such
	// as !!int on a value that is not one).
	Err error
}

// ProblemKind tells problems apart.
type ProblemKind int

// Problem kinds.
const (
	WrongKind ProblemKind = iota
	UnknownKey
	DuplicateKey
	KeyNotString
	MergeKey
	BadValue
)

// Decode decodes n into v, which must be settable; what names it.
func (d *Decoder) Decode(n *yaml.Node, v reflect.Value, what string) {
	n = Resolve(n)
	if n == nil || d.Hook != nil && d.Hook(n, v, what) {
		return
	}
	if v.Type() == DurationType {
		if !IsNull(n) {
			if err := SetDuration(d.expanded(n), v); err != nil {
				d.Report(Problem{N: n, What: what, Kind: BadValue, Err: err})
			}
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if IsNull(n) {
			return
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.Decode(n, v.Elem(), what)
		return
	case reflect.Interface:
		var x any
		if err := n.Decode(&x); err != nil {
			d.Report(Problem{N: n, What: what, Kind: BadValue, Err: err})
		} else if x != nil {
			v.Set(reflect.ValueOf(x))
		}
		return
	case reflect.Struct, reflect.Map:
		d.mapping(n, v, what)
	case reflect.Slice:
		d.list(n, v, what)
	default:
		d.scalar(n, v, what)
	}
	if d.Validate != nil {
		d.Validate(n, v, what)
	}
}

// scalar decodes a scalar by Scalar's policy, after Expand.
func (d *Decoder) scalar(n *yaml.Node, v reflect.Value, what string) {
	if IsNull(n) {
		return
	}
	if want := Scalar(d.expanded(n), v); want != "" {
		if want == "a value" {
			want = WantKind(v.Type())
		}
		d.Report(Problem{N: n, What: what, Kind: WrongKind, Want: want})
	}
}

// expanded is n with Expand applied to its text, typed again from the
// result when it is plain (min_bytes: ${MIN} is an integer); n itself
// when nothing changes.
func (d *Decoder) expanded(n *yaml.Node) *yaml.Node {
	if d.Expand == nil || n.Kind != yaml.ScalarNode {
		return n
	}
	v := d.Expand(n.Value)
	if v == n.Value {
		return n
	}
	e := *n // a copy: an alias may share the node
	e.Value = v
	if n.Style == 0 {
		e.Tag = "" // typed again from the expanded text
	}
	return &e
}

// mapping decodes a mapping into a struct (its yaml keys) or a map with
// string keys.
func (d *Decoder) mapping(n *yaml.Node, v reflect.Value, what string) {
	if IsNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		d.Report(Problem{N: n, What: what, Kind: WrongKind, Want: "a mapping"})
		return
	}
	var names []string
	var fields map[string][]int
	if v.Kind() == reflect.Struct {
		names, fields = Fields(v.Type())
	} else if v.IsNil() {
		v.Set(reflect.MakeMap(v.Type()))
	}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := Resolve(n.Content[i]), n.Content[i+1]
		first, dup := seen[k.Value]
		switch {
		case k.Kind != yaml.ScalarNode:
			d.Report(Problem{N: k, What: what, Kind: KeyNotString, Key: k.Value})
		case k.ShortTag() == "!!merge":
			d.Report(Problem{N: k, What: what, Kind: MergeKey, Key: k.Value})
		case dup:
			d.Report(Problem{N: k, What: what, Kind: DuplicateKey, Key: k.Value, First: first})
		case v.Kind() == reflect.Map:
			seen[k.Value] = k
			elem := reflect.New(v.Type().Elem()).Elem()
			d.Decode(val, elem, Join(what, k.Value))
			v.SetMapIndex(reflect.ValueOf(k.Value).Convert(v.Type().Key()), elem)
		default:
			seen[k.Value] = k
			f, ok := fields[k.Value]
			if !ok {
				d.Report(Problem{N: k, What: what, Kind: UnknownKey, Key: k.Value, Nearest: Nearest(k.Value, names), Known: names})
				continue
			}
			d.Decode(val, v.FieldByIndex(f), Join(what, k.Value))
		}
	}
}

// list decodes a sequence into a slice.
func (d *Decoder) list(n *yaml.Node, v reflect.Value, what string) {
	if n.Kind != yaml.SequenceNode {
		switch {
		case IsNull(n):
		case d.LoneScalarList && n.Kind == yaml.ScalarNode && v.Type().Elem().Kind() == reflect.String:
			v.Set(reflect.Append(v, reflect.ValueOf(n.Value).Convert(v.Type().Elem())))
		default:
			d.Report(Problem{N: n, What: what, Kind: WrongKind, Want: WantKind(v.Type())})
		}
		return
	}
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, c := range n.Content {
		d.Decode(c, s.Index(i), fmt.Sprintf("%s[%d]", what, i))
	}
	v.Set(s)
}

// Join names the value under key of the value what names: "a.b", or
// "b" at the top level.
func Join(what, key string) string {
	if what == "" {
		return key
	}
	return what + "." + key
}

// WantKind names what a value of type t is written as in YAML ("an
// integer", "a list of strings"), never a Go type.
func WantKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if e := WantKind(t.Elem()); e != "a value" {
			return "a list of " + trimArticle(e) + "s"
		}
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping"
	}
	if t == DurationType {
		return "a duration"
	}
	return scalarWant(t.Kind())
}

func trimArticle(s string) string {
	for _, a := range []string{"an ", "a "} {
		if len(s) > len(a) && s[:len(a)] == a {
			return s[len(a):]
		}
	}
	return s
}

// Quote is a scalar's text quoted for a message, clipped to 60
// characters.
func Quote(s string) string {
	if r := []rune(s); len(r) > 60 {
		return strconv.Quote(string(r[:60]) + "…")
	}
	return strconv.Quote(s)
}
