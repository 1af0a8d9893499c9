package harness

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/internal/yamlstrict"
)

// decoder turns YAML nodes into Go values strictly: unknown fields, duplicate
// keys and values of the wrong kind are errors at their position, and every
// problem is collected rather than stopping at the first.
//
// Struct fields are named by their `yaml` tag ("-" skips a field). A value whose
// pointer implements nodeDecoder decodes itself; a struct or pointer value that
// implements Validate() error is validated after decoding, and the error is
// reported at the node's position.
type decoder struct {
	file string // displayed file name
	dir  string // directory of the scenario file, for file: references
	errs ErrorList
}

// nodeDecoder is implemented by harness types with a YAML shape of their own.
type nodeDecoder interface {
	decodeNode(d *decoder, n *yaml.Node)
}

// NodeDecoder is implemented by a component's config, input or expect type
// (or a field of one) that decodes its node itself, with the strict decoder
// d: a section whose defaults depend on whether a key is there, say.
type NodeDecoder interface {
	DecodeYAML(d Decoder, n *yaml.Node)
}

// Decoder is the strict decoder a NodeDecoder gets: what it decodes is
// checked like any other part of the scenario, and its errors carry their
// position.
type Decoder struct{ d *decoder }

// Decode decodes n into the value v points to; what names it in errors
// ("config.extract").
func (d Decoder) Decode(n *yaml.Node, v any, what string) {
	d.d.decode(n, reflect.ValueOf(v).Elem(), what)
}

// Has reports whether the mapping n has the key.
func (d Decoder) Has(n *yaml.Node, key string) bool {
	k, _ := lookup(yamlstrict.Resolve(n), key)
	return k != nil
}

type validator interface{ Validate() error }

var (
	nodeType      = reflect.TypeFor[yaml.Node]()
	nodeDecType   = reflect.TypeFor[nodeDecoder]()
	nodeDecExType = reflect.TypeFor[NodeDecoder]()
	validatorType = reflect.TypeFor[validator]()
)

func (d *decoder) pos(n *yaml.Node) Pos { return Pos{File: d.file, Line: n.Line, Col: n.Column} }

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) {
	d.errs.Add(d.pos(n), format, args...)
}

func kindName(n *yaml.Node) string {
	if k := yamlstrict.Container(n); k != "" {
		return k
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return fmt.Sprintf("%q", Clip(n.Value))
	}
	return "a YAML node"
}

// Clip shortens a value quoted in a message to its first 60 characters.
func Clip(s string) string {
	const most = 60
	if utf8.RuneCountInString(s) <= most {
		return s
	}
	return string([]rune(s)[:most]) + "…"
}

// yamlMessage is a yaml error on one line, without the "yaml: " prefix: a
// TypeError lists its problems separated by "; ".
func yamlMessage(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return strings.Join(te.Errors, "; ")
	}
	return strings.Join(strings.Fields(strings.TrimPrefix(err.Error(), "yaml: ")), " ")
}

// maxAliasNodes bounds how many nodes the aliases of a scenario file add when
// they are expanded (a YAML "billion laughs" document is a few hundred bytes
// that expand to billions of nodes). Anchors and aliases within the bound
// work as YAML says.
const maxAliasNodes = 1 << 20

// checkAliases reports an alias that would take the expanded document past
// maxAliasNodes, and an alias to a node that contains it, before anything
// is decoded. It reports false when decoding must not go on.
//
// An alias adds the expanded size of its anchor's node. Anchors precede
// their aliases in the text, so one walk that computes sizes children first
// has every size it needs; an anchor still being walked is an enclosing one.
func (d *decoder) checkAliases(doc *yaml.Node) bool {
	const unknown = -1
	sizes := map[*yaml.Node]int{} // of anchored nodes, capped at maxAliasNodes+1
	added := 0
	var walk func(n *yaml.Node) (int, bool)
	walk = func(n *yaml.Node) (int, bool) {
		if n.Kind == yaml.AliasNode {
			size, done := sizes[n.Alias]
			if !done || size == unknown {
				d.errorf(n, "alias *%s: it refers to a node that contains it", Clip(n.Value))
				return 0, false
			}
			if added += size; added > maxAliasNodes {
				d.errorf(n, "alias *%s: aliases expand this file to more than %d values", Clip(n.Value), maxAliasNodes)
				return 0, false
			}
			return size, true
		}
		if n.Anchor != "" {
			sizes[n] = unknown
		}
		size := 1
		for _, c := range n.Content {
			s, ok := walk(c)
			if !ok {
				return 0, false
			}
			size = min(size+s, maxAliasNodes+1)
		}
		if n.Anchor != "" {
			sizes[n] = size
		}
		return size, true
	}
	_, ok := walk(doc)
	return ok
}

// decode decodes n into v, which must be settable. what names the value in
// messages (e.g. "expect.found").
func (d *decoder) decode(n *yaml.Node, v reflect.Value, what string) {
	n = yamlstrict.Resolve(n)
	if n == nil {
		return
	}
	if v.Type() == nodeType {
		v.Set(reflect.ValueOf(*n))
		return
	}
	if v.CanAddr() && v.Addr().Type().Implements(nodeDecType) {
		v.Addr().Interface().(nodeDecoder).decodeNode(d, n)
		return
	}
	if v.CanAddr() && v.Addr().Type().Implements(nodeDecExType) {
		v.Addr().Interface().(NodeDecoder).DecodeYAML(Decoder{d}, n)
		return
	}
	if v.Type() == yamlstrict.DurationType {
		if err := yamlstrict.SetDuration(n, v); err != nil {
			d.errorf(n, "%s: %v", what, err)
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if yamlstrict.IsNull(n) {
			return
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.decode(n, v.Elem(), what)
		return
	case reflect.Interface:
		var x any
		if err := n.Decode(&x); err != nil {
			d.errorf(n, "%s: %s", what, yamlMessage(err))
			return
		}
		if x != nil {
			v.Set(reflect.ValueOf(x))
		}
		return
	case reflect.Struct:
		d.decodeStruct(n, v, what)
	case reflect.Map:
		d.decodeMap(n, v, what)
	case reflect.Slice:
		d.decodeSlice(n, v, what)
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Bool:
		if !d.scalar(n, v, what) {
			return
		}
	default:
		panic(fmt.Sprintf("harness: cannot decode into %s", v.Type()))
	}
	// Validate even after decoding errors inside the value, so that every
	// problem is reported at once.
	d.validate(n, v, what)
}

// scalar decodes a string, number or boolean by yamlstrict.Scalar's
// policy; false when n is not one (the error is recorded).
func (d *decoder) scalar(n *yaml.Node, v reflect.Value, what string) bool {
	if want := yamlstrict.Scalar(n, v); want != "" {
		d.errorf(n, "%s: want %s, got %s", what, want, kindName(n))
		return false
	}
	return true
}

func (d *decoder) validate(n *yaml.Node, v reflect.Value, what string) {
	var err error
	switch {
	case v.Type().Implements(validatorType):
		err = v.Interface().(validator).Validate()
	case v.CanAddr() && v.Addr().Type().Implements(validatorType):
		err = v.Addr().Interface().(validator).Validate()
	}
	d.report(n, err, what)
}

// keyPather is a validation error that says where under the validated node
// it lies, as mapping keys and list indexes, and whose message starts with
// that path (core/session.FieldError).
type keyPather interface{ KeyPath() []string }

// report records err at n. The parts of a joined error are reported one by
// one; a part that names its key path is reported at the node it names (the
// deepest one there is); its message, which starts with that path, follows
// what after a dot.
func (d *decoder) report(n *yaml.Node, err error, what string) {
	if err == nil {
		return
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			d.report(n, e, what)
		}
		return
	}
	if kp, ok := err.(keyPather); ok {
		at, _ := descend(n, kp.KeyPath())
		d.errorf(at, "%s", join(what, err.Error())) // its message starts with the path
		return
	}
	d.errorf(n, "%s: %v", what, err)
}

// descend follows keys (mapping keys, list indexes) down from n and returns
// the deepest node reached, and whether it reached the end.
func descend(n *yaml.Node, keys []string) (*yaml.Node, bool) {
	for _, k := range keys {
		r := yamlstrict.Resolve(n)
		var next *yaml.Node
		switch {
		case r == nil:
		case r.Kind == yaml.MappingNode:
			_, next = lookup(r, k)
		case r.Kind == yaml.SequenceNode:
			if i, err := strconv.Atoi(k); err == nil && i >= 0 && i < len(r.Content) {
				next = r.Content[i]
			}
		}
		if next == nil {
			return n, false
		}
		n = next
	}
	return n, true
}

// mappingPairs checks that n is a mapping with unique scalar keys and calls fn
// for each pair.
func (d *decoder) mappingPairs(n *yaml.Node, what string, fn func(k, v *yaml.Node)) bool {
	if n.Kind != yaml.MappingNode {
		if !yamlstrict.IsNull(n) {
			d.errorf(n, "%s: want a mapping, got %s", what, kindName(n))
		}
		return false
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := yamlstrict.Resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.errorf(k, "%s: keys must be strings", what)
			continue
		}
		if seen[k.Value] {
			d.errorf(k, "%s: duplicate field %q", what, Clip(k.Value))
			continue
		}
		seen[k.Value] = true
		fn(k, val)
	}
	return true
}

func join(what, name string) string {
	if what == "" {
		return name
	}
	return what + "." + name
}

func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, what string) {
	names, index := yamlstrict.Fields(v.Type())
	d.mappingPairs(n, what, func(k, val *yaml.Node) {
		i, ok := index[k.Value]
		if !ok {
			d.unknownField(k, what, k.Value, names)
			return
		}
		d.decode(val, v.FieldByIndex(i), join(what, k.Value))
	})
}

func (d *decoder) unknownField(k *yaml.Node, what, name string, known []string) {
	prefix := ""
	if what != "" {
		prefix = what + ": "
	}
	if s := yamlstrict.Nearest(name, known); s != "" {
		d.errorf(k, "%sunknown field %q (did you mean %q?)", prefix, Clip(name), s)
		return
	}
	sorted := slices.Sorted(slices.Values(known))
	d.errorf(k, "%sunknown field %q (known: %s)", prefix, Clip(name), strings.Join(sorted, ", "))
}

func (d *decoder) decodeMap(n *yaml.Node, v reflect.Value, what string) {
	if v.Type().Key().Kind() != reflect.String {
		panic("harness: map keys must be strings")
	}
	if v.IsNil() {
		v.Set(reflect.MakeMap(v.Type()))
	}
	d.mappingPairs(n, what, func(k, val *yaml.Node) {
		elem := reflect.New(v.Type().Elem()).Elem()
		d.decode(val, elem, join(what, k.Value))
		v.SetMapIndex(reflect.ValueOf(k.Value).Convert(v.Type().Key()), elem)
	})
}

func (d *decoder) decodeSlice(n *yaml.Node, v reflect.Value, what string) {
	if n.Kind != yaml.SequenceNode {
		// A lone scalar stands for a one-element list of scalars.
		if n.Kind == yaml.ScalarNode && !yamlstrict.IsNull(n) && v.Type().Elem().Kind() == reflect.String {
			v.Set(reflect.Append(v, reflect.ValueOf(n.Value).Convert(v.Type().Elem())))
			return
		}
		if !yamlstrict.IsNull(n) {
			d.errorf(n, "%s: want a list, got %s", what, kindName(n))
		}
		return
	}
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, c := range n.Content {
		d.decode(c, s.Index(i), fmt.Sprintf("%s[%d]", what, i))
	}
	v.Set(s)
}

// lookup returns the value node of key in mapping n, or nil.
func lookup(n *yaml.Node, key string) (k, v *yaml.Node) {
	n = yamlstrict.Resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], n.Content[i+1]
		}
	}
	return nil, nil
}
