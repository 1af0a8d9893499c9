package schema

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Kinds of normalized nodes besides primitive labels.
const (
	kindObject = "object"
	kindArray  = "array"
	kindUnion  = "union"
)

// node is a JSON Schema node normalized for summarizing: an object or union
// with ordered properties, an array with its items, or a leaf with a type
// label ("string", "string|null", "any"). Nodes normalize lazily, on first
// use (norm), so that a recursive schema is a cyclic graph of nodes rather
// than an infinite tree.
type node struct {
	b     *builder
	raw   *obj
	state uint8 // 0 new, 1 normalizing, 2 done

	kind  string // object, array, union, or the leaf's label
	props []prop
	// unknown is set for an object (or union) whose keys are not declared:
	// no properties, additionalProperties or patternProperties instead.
	unknown bool
	items   *node
}

type prop struct {
	name string
	n    *node
}

var anyNode = &node{state: 2, kind: "any"}

// norm returns n normalized. A node reached again while it is being
// normalized (a composition that contains itself) reads as "any".
func (n *node) norm() *node {
	switch n.state {
	case 2:
		return n
	case 1:
		return anyNode
	}
	n.state = 1
	n.b.normalize(n, n.raw)
	n.state = 2
	return n
}

func (n *node) container() bool { return n.kind == kindObject || n.kind == kindUnion }

// builder turns raw schema values into lazy nodes, resolving local $refs.
// Nodes are memoized per raw object; a $ref yields its target's node.
type builder struct {
	root any
	memo map[*obj]*node
}

func newBuilder(root any) *builder {
	return &builder{root: root, memo: map[*obj]*node{}}
}

func (b *builder) build(v any) *node {
	for hops := 0; hops < 64; hops++ {
		o, ok := v.(*obj)
		if !ok {
			return anyNode // true, or anything that is not an object
		}
		if n, ok := b.memo[o]; ok {
			return n
		}
		ref, isRef := o.m["$ref"].(string)
		if !isRef {
			n := &node{b: b, raw: o}
			b.memo[o] = n
			return n
		}
		target, err := b.resolve(ref)
		if err != nil {
			return anyNode
		}
		v = target
	}
	return anyNode // a chain of $refs that never ends
}

// resolve follows a local JSON pointer ("#/definitions/Order"). Remote refs
// are left unresolved (the node becomes "any").
func (b *builder) resolve(ref string) (any, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, fmt.Errorf("$ref %q: only local references are resolved", ref)
	}
	if s, err := url.PathUnescape(frag); err == nil {
		frag = s
	}
	cur := b.root
	if frag == "" {
		return cur, nil
	}
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		o, ok := cur.(*obj)
		if !ok {
			return nil, fmt.Errorf("$ref %q: %q is not an object", ref, tok)
		}
		if cur, ok = o.m[tok]; !ok {
			return nil, fmt.Errorf("$ref %q: no %q", ref, tok)
		}
	}
	return cur, nil
}

// normalize fills n from its raw schema object.
func (b *builder) normalize(n *node, o *obj) {
	var res node
	switch {
	case hasBranches(o, "anyOf"):
		res = b.union(o.m["anyOf"].([]any))
	case hasBranches(o, "oneOf"):
		res = b.union(o.m["oneOf"].([]any))
	case hasBranches(o, "allOf"):
		res = b.allOf(o)
	default:
		res = b.plain(o)
	}
	n.kind, n.props, n.unknown, n.items = res.kind, res.props, res.unknown, res.items
}

func hasBranches(o *obj, key string) bool {
	br, ok := o.m[key].([]any)
	return ok && len(br) > 0
}

func (b *builder) allOf(o *obj) node {
	{
		merged := node{kind: kindObject}
		var label string
		for _, br := range o.m["allOf"].([]any) {
			bn := b.build(br).norm()
			switch {
			case bn.container():
				merged.props = mergeProps(merged.props, bn.props)
				merged.unknown = merged.unknown || bn.unknown
			case bn.kind != "any" && label == "":
				label = bn.kind
			}
		}
		if own := b.plain(o); own.container() {
			merged.props = mergeProps(merged.props, own.props)
		}
		if len(merged.props) == 0 && !merged.unknown && label != "" {
			return node{kind: label}
		}
		return merged
	}
}

// plain normalizes a schema object without composition keywords.
func (b *builder) plain(o *obj) node {
	types := typeList(o.m["type"])
	nullable, _ := o.m["nullable"].(bool)
	if len(types) == 0 {
		switch {
		case o.m["properties"] != nil || o.m["additionalProperties"] != nil || o.m["patternProperties"] != nil:
			types = []string{"object"}
		case o.m["items"] != nil || o.m["prefixItems"] != nil:
			types = []string{"array"}
		case o.m["enum"] != nil:
			if vals, ok := o.m["enum"].([]any); ok && len(vals) > 0 {
				types = []string{jsonType(vals[0])}
			}
		case o.m["const"] != nil:
			types = []string{jsonType(o.m["const"])}
		}
	}
	switch {
	case slices.Contains(types, "object"):
		return b.object(o)
	case slices.Contains(types, "array"):
		return node{kind: kindArray, items: b.itemsOf(o)}
	case len(types) == 0:
		return node{kind: "any"}
	}
	if nullable && !slices.Contains(types, "null") {
		types = append(types, "null")
	}
	return node{kind: strings.Join(types, "|")}
}

func (b *builder) object(o *obj) node {
	n := node{kind: kindObject}
	if props, ok := o.m["properties"].(*obj); ok {
		for _, k := range props.keys {
			n.props = append(n.props, prop{k, b.build(props.m[k])})
		}
	}
	if len(n.props) == 0 {
		// No declared keys: unknown, unless additionalProperties is false
		// (an object that is always empty).
		if ap, ok := o.m["additionalProperties"].(bool); !ok || ap {
			n.unknown = true
		}
	}
	return n
}

func (b *builder) itemsOf(o *obj) *node {
	switch it := o.m["items"].(type) {
	case *obj, bool:
		return b.build(it)
	case []any: // draft-4 tuple form
		if len(it) > 0 {
			return b.build(it[0])
		}
	}
	if prefix, ok := o.m["prefixItems"].([]any); ok && len(prefix) > 0 {
		return b.build(prefix[0])
	}
	return &node{kind: "any"}
}

// union normalizes anyOf/oneOf. Null branches make the rest nullable; one
// remaining branch stands for the whole; several primitive branches join
// their labels; branches with objects become a union whose properties are
// those of its object branches, merged.
func (b *builder) union(branches []any) node {
	var rest []*node
	null := false
	for _, br := range branches {
		bn := b.build(br).norm()
		if bn.kind == "null" {
			null = true
			continue
		}
		rest = append(rest, bn)
	}
	switch {
	case len(rest) == 0:
		return node{kind: "null"}
	case len(rest) == 1:
		only := rest[0]
		res := node{kind: only.kind, props: only.props, unknown: only.unknown, items: only.items}
		if null && !only.container() && only.kind != kindArray && only.kind != "any" {
			res.kind += "|null"
		}
		return res
	}
	u := node{kind: kindUnion}
	var labels []string
	objects := 0
	for _, bn := range rest {
		switch {
		case bn.container():
			objects++
			u.props = mergeProps(u.props, bn.props)
			u.unknown = u.unknown || bn.unknown
		default:
			if !slices.Contains(labels, bn.kind) {
				labels = append(labels, bn.kind)
			}
		}
	}
	if objects == 0 {
		if null {
			labels = append(labels, "null")
		}
		return node{kind: strings.Join(labels, "|")}
	}
	if len(u.props) > 0 {
		u.unknown = false
	}
	return u
}

func mergeProps(into, add []prop) []prop {
	for _, p := range add {
		if !slices.ContainsFunc(into, func(q prop) bool { return q.name == p.name }) {
			into = append(into, p)
		}
	}
	return into
}

func typeList(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case []any:
		return "array"
	}
	return "object"
}
