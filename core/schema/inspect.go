package schema

import (
	"errors"
	"fmt"
	"strings"
)

// InspectOptions bound an inspection.
type InspectOptions struct {
	// MaxDepth is how many levels below the node flattened_fields shows;
	// zero means DefaultInspectMaxDepth (4).
	MaxDepth int
	// MaxFields bounds children and flattened_fields; zero means
	// DefaultInspectMaxFields (120).
	MaxFields int
	// MaxNodes bounds the nodes visited; zero means DefaultMaxNodes.
	MaxNodes int
}

// Child is one immediate child of an inspected node.
type Child struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Inspection is the answer of inspect_tool_output (spec section 4.3).
type Inspection struct {
	ToolID    string `json:"tool_id"`
	FieldPath string `json:"field_path"`
	// NodeType is the requested node's type: "array" for "orders",
	// "object" for "orders[]", or a leaf label.
	NodeType string `json:"node_type"`
	// Children are the immediate properties of the node, or of its items
	// for an array.
	Children []Child `json:"children"`
	// FlattenedFields previews the subtree, paths relative to the node,
	// containers at the depth limit as fold markers (with absolute paths).
	FlattenedFields  []string `json:"flattened_fields"`
	TotalChildFields int      `json:"total_child_fields"`
	Truncated        bool     `json:"truncated"`
	// Note explains a node whose keys are not declared.
	Note string `json:"note,omitempty"`
}

// ErrField is wrapped by errors about a field path.
var ErrField = errors.New("bad field path")

// segment is one step of a field path: a property name (empty for the root)
// and how many array levels follow it.
type segment struct {
	name   string
	arrays int
}

// parsePath splits "a.b[]", "a[].b", "[][]" into segments.
func parsePath(p string) ([]segment, error) {
	if p == "" {
		return nil, nil
	}
	var segs []segment
	for i, part := range strings.Split(p, ".") {
		name := part
		arrays := 0
		for strings.HasSuffix(name, "[]") {
			name = strings.TrimSuffix(name, "[]")
			arrays++
		}
		switch {
		case strings.ContainsAny(name, "[]"):
			return nil, fmt.Errorf("field_path %q: segment %q: brackets must be a trailing [] (e.g. items[])", p, part)
		case name == "" && (i > 0 || arrays == 0):
			return nil, fmt.Errorf("field_path %q: empty segment", p)
		}
		segs = append(segs, segment{name, arrays})
	}
	return segs, nil
}

// Inspect returns the schema slice at fieldPath (the spec's syntax: "a.b",
// "a[]", "a[].b", "[][]"; empty for the root) of the output schema.
func Inspect(schemaJSON []byte, toolID, fieldPath string, opts InspectOptions) (Inspection, error) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultInspectMaxDepth
	}
	if opts.MaxFields <= 0 {
		opts.MaxFields = DefaultInspectMaxFields
	}
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = DefaultMaxNodes
	}
	raw, err := decode(schemaJSON)
	if err != nil {
		return Inspection{}, fmt.Errorf("schema: %w", err)
	}
	segs, err := parsePath(fieldPath)
	if err != nil {
		return Inspection{}, fmt.Errorf("schema: inspect: %w: %w", ErrField, err)
	}
	b := newBuilder(raw)
	cur := rootOf(b.build(raw))
	at := "" // the path walked so far, for messages
	for _, s := range segs {
		if s.name != "" {
			if !cur.container() {
				return Inspection{}, fmt.Errorf("schema: inspect: %w: field_path %q: %s is %s, which has no field %q",
					ErrField, fieldPath, describe(at), cur.kind, s.name)
			}
			var next *node
			for _, p := range cur.props {
				if p.name == s.name {
					next = p.n.norm()
				}
			}
			if next == nil {
				return Inspection{}, fmt.Errorf("schema: inspect: %w: field_path %q: no field %q in %s (fields: %s)",
					ErrField, fieldPath, s.name, describe(at), fieldNames(cur))
			}
			cur, at = next, join(at, s.name)
		}
		for range s.arrays {
			if cur.kind != kindArray {
				return Inspection{}, fmt.Errorf("schema: inspect: %w: field_path %q: %s is %s, not an array",
					ErrField, fieldPath, describe(at), cur.kind)
			}
			cur, at = cur.items.norm(), at+"[]"
		}
	}
	out := Inspection{ToolID: toolID, FieldPath: fieldPath, NodeType: cur.kind, Children: []Child{}, FlattenedFields: []string{}}
	path, n := unwrap(at, cur)
	node := &entry{path: path, n: n}
	if node.unknownKeys() {
		out.Note = "additionalProperties: the keys of this object are not declared in the schema"
		out.Truncated = true
		return out, nil
	}
	if !n.container() {
		return out, nil
	}
	out.TotalChildFields = len(n.props)
	for i, p := range n.props {
		if i == opts.MaxFields {
			out.Truncated = true
			break
		}
		_, cn := unwrap("", p.n)
		t := p.n.norm().kind
		if t == kindArray {
			t = "array of " + cn.kind
		}
		out.Children = append(out.Children, Child{Name: p.name, Type: t})
	}
	// Flattened preview: breadth-first below the node, relative paths,
	// containers past MaxDepth folded.
	visited := 0
	queue := []*entry{node}
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		for _, k := range e.children() {
			if visited++; visited > opts.MaxNodes || len(out.FlattenedFields) == opts.MaxFields {
				out.Truncated = true
				return out, nil
			}
			if k.expandable() && k.depth < opts.MaxDepth && !k.cyclic() {
				queue = append(queue, k)
				continue
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(k.path, node.path), ".")
			out.FlattenedFields = append(out.FlattenedFields, k.lineAs(rel))
			out.Truncated = out.Truncated || k.marker()
		}
	}
	return out, nil
}

func describe(at string) string {
	if at == "" {
		return "the root"
	}
	return fmt.Sprintf("%q", at)
}

func fieldNames(n *node) string {
	names := make([]string, 0, len(n.props))
	for _, p := range n.props {
		names = append(names, p.name)
	}
	if len(names) > 20 {
		names = append(names[:20], fmt.Sprintf("… %d more", len(n.props)-20))
	}
	if len(names) == 0 {
		return "none declared"
	}
	return strings.Join(names, ", ")
}
