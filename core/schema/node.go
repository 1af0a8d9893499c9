package schema

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// kind is the shape of a normalized node.
type kind uint8

const (
	leafKind   kind = iota // a value without fields; label says which
	objectKind             // an object or a union with (merged) properties
	arrayKind              // an array; items is its element
)

// Labels the normalizer gives besides JSON Schema's own type names.
const (
	labelAny    = "any"    // the schema says nothing (or is not a schema)
	labelNever  = "never"  // no value is valid: false, an empty enum
	labelObject = "object" // an object, or an intersection (allOf) of objects
	labelUnion  = "union"  // anyOf/oneOf branches of which at least one is an object
	labelArray  = "array"
	labelNull   = "null"
)

// node is a JSON Schema node normalized for summarizing: a container
// (objectKind) with ordered properties, an array with its items, or a leaf
// with a type label ("string", "string|null", "any"). Nodes are built and
// normalized lazily, on first use, so a recursive schema is a cyclic graph
// of nodes rather than an infinite tree, and untouched parts cost nothing.
type node struct {
	raw   *obj // nil for nodes the normalizer makes itself
	props []prop
	items *node
	// alias is the node this one normalized to when that is another node
	// (a composition with one object branch, a nullable reference): the
	// two are one node for walks, so recursion through either is seen.
	alias *node
	label string
	kind  kind
	state uint8 // fresh, pending, done
	// unknown is set for a container whose keys are not declared: no
	// properties, but additionalProperties or patternProperties instead.
	unknown bool

	// Per-walk mark of the recursion search (walk.go), valid while gen is
	// the walk's generation.
	mark uint8
	gen  uint32
	// unwrap memoizes walker.unwrap for an array node, per walk.
	unwrap unwrapping
}

type prop struct {
	name string
	n    *node
}

const (
	fresh uint8 = iota
	pending
	done
)

func leafNode(label string) *node { return &node{kind: leafKind, label: label, state: done} }

var (
	anyNode   = leafNode(labelAny)
	neverNode = leafNode(labelNever)
	// cycleNode marks an object whose $ref chain is being followed.
	cycleNode = leafNode(labelAny)
)

func (n *node) container() bool { return n.kind == objectKind }

// lookup returns the property of n called name, or nil. Long lists get an
// index on first use, so a long field path costs its length.
func (b *builder) lookup(n *node, name string) *node {
	if len(n.props) <= indexFrom {
		for _, p := range n.props {
			if p.name == name {
				return p.n
			}
		}
		return nil
	}
	idx, ok := b.pidx[n]
	if !ok {
		idx = make(map[string]int, len(n.props))
		for i := len(n.props) - 1; i >= 0; i-- {
			idx[n.props[i].name] = i
		}
		b.pidx[n] = idx
	}
	if i, ok := idx[name]; ok {
		return n.props[i].n
	}
	return nil
}

// builder turns raw schema values into lazy nodes, resolving local $refs.
// Nodes are memoized per raw object (obj.n); a $ref yields its target's node.
type builder struct {
	root   any
	leaves map[string]*node // leaf nodes by label, shared (never written to)
	pidx   map[*node]map[string]int
	// merge is what is left of the budget of properties that allOf,
	// anyOf and oneOf merges may copy; capped is set once it ran out.
	merge  int
	capped bool
	gen    uint32 // walk generations handed out
	// slab is where new nodes come from, a few hundred per allocation:
	// a summary makes a node per schema object.
	slab []node
}

// newNode returns a zero node from the builder's slab.
func (b *builder) newNode() *node {
	if len(b.slab) == cap(b.slab) {
		b.slab = make([]node, 0, 256)
	}
	b.slab = b.slab[:len(b.slab)+1]
	return &b.slab[len(b.slab)-1]
}

func newBuilder(root any, maxNodes int) *builder {
	return &builder{root: root, merge: maxNodes, leaves: map[string]*node{}, pidx: map[*node]map[string]int{}}
}

// leaf returns the shared leaf node with a label.
func (b *builder) leaf(label string) *node {
	n, ok := b.leaves[label]
	if !ok {
		n = leafNode(label)
		b.leaves[label] = n
	}
	return n
}

// build returns the node of a raw schema value: true (and anything that is
// not a schema) is "any", false is "never".
func (b *builder) build(v any) *node {
	switch v := v.(type) {
	case *obj:
		if v.n != nil {
			if v.n == cycleNode {
				return anyNode
			}
			return v.n
		}
		return b.follow(v)
	case bool:
		if !v {
			return neverNode
		}
	}
	return anyNode
}

// follow builds the node of an object, following a chain of $refs
// iteratively; a chain that comes back to itself is "any". Every object on
// the chain is memoized to the chain's end, so each is followed once.
func (b *builder) follow(o *obj) *node {
	var chain []*obj
	var res *node
	var cur any = o
	for res == nil {
		co, ok := cur.(*obj)
		switch {
		case !ok:
			res = b.build(cur)
		case co.n != nil:
			res = co.n
		default:
			ref, isRef := co.kwv(kwRef).(string)
			if !isRef {
				res = b.leafOf(co)
				if res == nil {
					res = b.newNode()
					res.raw = co
				}
				co.n = res
				break
			}
			co.n = cycleNode
			chain = append(chain, co)
			target, err := b.resolve(ref)
			if err != nil {
				res = anyNode
			}
			cur = target
		}
	}
	if res == cycleNode {
		res = anyNode
	}
	for _, c := range chain {
		c.n = res
	}
	return res
}

// leafOf returns the normalized node of a schema object that reads as a
// leaf (a type name, a type list without object and array, an enum of
// scalars) and has no composition: the shared leaf itself, which is what
// normalizing a node of its own would alias; nil for any other object. A
// schema is mostly such leaves, and a node each was a third of a summary's
// memory.
func (b *builder) leafOf(o *obj) *node {
	if o.kws&compositionBits != 0 {
		return nil
	}
	var buf [4]string
	types, null := typesOf(o, buf[:])
	for _, t := range types {
		if t == labelObject || t == labelArray {
			return nil
		}
	}
	return b.plainTypes(o, types, null)
}

// resolve follows a local JSON pointer ("#/definitions/Order", "#/allOf/0").
// Remote refs are left unresolved (the node becomes "any").
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
	if frag[0] != '/' {
		return nil, fmt.Errorf("$ref %q: not a JSON pointer", ref)
	}
	for tok := range strings.SplitSeq(frag[1:], "/") {
		if strings.Contains(tok, "~") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		}
		switch c := cur.(type) {
		case *obj:
			v, ok := c.lookup(tok)
			if !ok {
				return nil, fmt.Errorf("$ref %q: no %q", ref, tok)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("$ref %q: no item %q", ref, tok)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("$ref %q: %q is inside a value that is neither object nor array", ref, tok)
		}
	}
	return cur, nil
}

// norm returns n normalized. Compositions (allOf, anyOf, oneOf) need their
// branches normalized first; that is done with an explicit stack, in post
// order, so that no chain of compositions can exhaust the goroutine stack.
// A branch met again while it is still pending (a composition that contains
// itself) reads as "any".
func (b *builder) norm(n *node) *node {
	if n.state == done {
		if n.alias != nil {
			return n.alias
		}
		return n
	}
	for stack := []*node{n}; len(stack) > 0; {
		top := stack[len(stack)-1]
		switch top.state {
		case done:
			stack = stack[:len(stack)-1]
		case fresh:
			top.state = pending
			for _, key := range compositions {
				for _, br := range branches(top.raw, key) {
					if bn := b.build(br); bn.state == fresh {
						stack = append(stack, bn)
					}
				}
			}
		case pending:
			stack = stack[:len(stack)-1]
			b.normalize(top)
			top.state = done
		}
	}
	return b.norm(n)
}

var compositions = []keyword{kwAllOf, kwAnyOf, kwOneOf}

const compositionBits = 1<<kwAllOf | 1<<kwAnyOf | 1<<kwOneOf

// branches returns the branches of a composition keyword; a value that is
// not a non-empty array is ignored.
func branches(o *obj, key keyword) []any {
	if o == nil {
		return nil
	}
	br, _ := o.kwv(key).([]any)
	return br
}

// branch returns the normalized node of a composition branch; one still
// pending (the composition contains itself) is "any".
func (b *builder) branch(v any) *node {
	n := b.build(v)
	if n.state == pending {
		return anyNode
	}
	return b.norm(n)
}

// normalize fills n from its raw schema object: the intersection of its own
// keywords, its allOf branches, and the unions of its anyOf and oneOf.
func (b *builder) normalize(n *node) {
	o := n.raw
	var buf [4]*node
	parts := buf[:0]
	own := b.plain(o)
	if own.label != labelAny {
		parts = append(parts, own)
	}
	for _, br := range branches(o, kwAllOf) {
		parts = append(parts, b.branch(br))
	}
	for _, key := range compositions[1:] {
		if br := branches(o, key); len(br) > 0 {
			parts = append(parts, b.union(br))
		}
	}
	res := b.intersect(parts)
	if res == own && own.kind != leafKind {
		// The schema's own reading, made for it alone: n takes it over.
		n.kind, n.label, n.props, n.items, n.unknown = own.kind, own.label, own.props, own.items, own.unknown
		return
	}
	n.alias = res
}
