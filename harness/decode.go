package harness

import (
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
	yd   *yamlstrict.Decoder // made on first use: its hooks are d's methods
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

// decode decodes n into v, which must be settable, with the strict
// decoder both readers share (yamlstrict.Decoder): its problems are worded
// here (problem), a value of a type that decodes itself does (hook), and
// every value is validated after it is decoded, even after errors inside
// it, so that every problem is reported at once. what names the value in
// messages (e.g. "expect.found").
func (d *decoder) decode(n *yaml.Node, v reflect.Value, what string) {
	if d.yd == nil {
		d.yd = &yamlstrict.Decoder{Report: d.problem, Hook: d.hook, Validate: d.validate, LoneScalarList: true}
	}
	d.yd.Decode(n, v, what)
}

// decodeStruct is decode of a mapping into a struct.
func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, what string) { d.decode(n, v, what) }

// hook decodes the values that decode themselves: a yaml.Node as it is, and
// the harness's and the components' NodeDecoder types.
func (d *decoder) hook(n *yaml.Node, v reflect.Value, _ string) bool {
	switch {
	case v.Type() == nodeType:
		v.Set(reflect.ValueOf(*n))
	case v.CanAddr() && v.Addr().Type().Implements(nodeDecType):
		v.Addr().Interface().(nodeDecoder).decodeNode(d, n)
	case v.CanAddr() && v.Addr().Type().Implements(nodeDecExType):
		v.Addr().Interface().(NodeDecoder).DecodeYAML(Decoder{d}, n)
	default:
		return false
	}
	return true
}

// problem words one problem of the decoder as scenario errors read.
func (d *decoder) problem(p yamlstrict.Problem) {
	prefix := ""
	if p.What != "" {
		prefix = p.What + ": "
	}
	switch p.Kind {
	case yamlstrict.WrongKind:
		want := p.Want
		if strings.HasPrefix(want, "a list") {
			want = "a list"
		}
		d.errorf(p.N, "%swant %s, got %s", prefix, want, kindName(p.N))
	case yamlstrict.KeyNotString:
		d.errorf(p.N, "%skeys must be strings", prefix)
	case yamlstrict.MergeKey:
		d.errorf(p.N, `%smerge keys ("<<") are not supported; write the keys out`, prefix)
	case yamlstrict.DuplicateKey:
		d.errorf(p.N, "%sduplicate field %q", prefix, Clip(p.Key))
	case yamlstrict.UnknownKey:
		if p.Nearest != "" {
			d.errorf(p.N, "%sunknown field %q (did you mean %q?)", prefix, Clip(p.Key), p.Nearest)
			return
		}
		sorted := slices.Sorted(slices.Values(p.Known))
		d.errorf(p.N, "%sunknown field %q (known: %s)", prefix, Clip(p.Key), strings.Join(sorted, ", "))
	case yamlstrict.BadValue:
		d.errorf(p.N, "%s%s", prefix, yamlstrict.Message(p.Err))
	}
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
		d.errorf(at, "%s", yamlstrict.Join(what, err.Error())) // its message starts with the path
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
