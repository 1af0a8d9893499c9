package schema

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// InspectOptions bound an inspection.
type InspectOptions struct {
	// MaxDepth is how many levels below the node flattened_fields shows;
	// zero means DefaultInspectMaxDepth (4).
	MaxDepth int
	// MaxFields bounds children and flattened_fields; zero means
	// DefaultInspectMaxFields (120).
	MaxFields int
	// MaxNodes is the node cap; zero means DefaultMaxNodes.
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
	// Truncated is true exactly when MaxFields, MaxDepth or the node cap
	// left something out of children or flattened_fields.
	Truncated bool `json:"truncated"`
	// Note explains a node whose fields the schema does not declare.
	Note string `json:"note,omitempty"`
}

// Errors an inspection that cannot be answered wraps, for callers that
// branch on the cause.
var (
	// ErrField: the field path is malformed or does not resolve.
	ErrField = errors.New("bad field path")
	// ErrNoOutputSchema: the tool declares no output schema.
	ErrNoOutputSchema = errors.New("no output schema")
	// ErrEmptySchema: the output schema declares neither a type nor fields.
	ErrEmptySchema = errors.New("empty output schema")
)

// InspectError is an inspection that cannot be answered. Msg is written for
// the planner and names what failed (for a field path, the segment).
type InspectError struct {
	Err error // ErrField, ErrNoOutputSchema, ErrEmptySchema, or the JSON error
	Msg string
}

func (e *InspectError) Error() string { return "schema: inspect: " + e.Msg }
func (e *InspectError) Unwrap() error { return e.Err }

// segment is one step of a field path: a property name (empty for the root)
// and how many array levels follow it.
type segment struct {
	text   string // as written, for messages
	name   string
	arrays int
	end    int // offset in the path of the end of the name
}

// parsePath splits "a.b[]", "a[].b", "[][]" into segments.
func parsePath(p string) ([]segment, error) {
	if p == "" {
		return nil, nil
	}
	var segs []segment
	start := 0
	for i, part := range strings.Split(p, ".") {
		name := part
		arrays := 0
		for strings.HasSuffix(name, "[]") {
			name = strings.TrimSuffix(name, "[]")
			arrays++
		}
		switch {
		case strings.ContainsAny(name, "[]"):
			return nil, fieldErr(p, part, "brackets must be a trailing [] (e.g. items[])")
		case name == "" && (i > 0 || arrays == 0):
			return nil, fieldErr(p, part, "empty segment")
		}
		segs = append(segs, segment{part, name, arrays, start + len(name)})
		start += len(part) + 1
	}
	return segs, nil
}

func fieldErr(path, seg, format string, args ...any) *InspectError {
	return &InspectError{Err: ErrField, Msg: fmt.Sprintf("field_path %q: segment %q: ", clip(path), clip(seg)) + fmt.Sprintf(format, args...)}
}

// Inspect returns the schema slice at fieldPath (the spec's syntax: "a.b",
// "a[]", "a[].b", "[][]"; empty for the root) of the output schema. Its
// errors are *InspectError.
//
// It answers with the node's type ("array" for "orders", "object"
// for "orders[]", "union", or a leaf label); its children: the immediate
// fields of the node, or for an array of its items (through every array
// level), an array field typed "array of T"; a breadth-first flattened
// preview with paths relative to the node, containers expanded down to
// MaxDepth (4) levels and shown as fold markers (absolute field_path)
// below; the number of immediate children; and truncated, which is true
// exactly when MaxFields (120) cut children or the preview, MaxDepth folded
// a container in the preview, or a cap cut the walk. Folds of recursion and
// unknown keys are shown as markers but are not truncation. A node whose
// keys are unknown, or that is "any", has no children and a note.
//
// An inspection that cannot be answered is an [*InspectError]: a tool
// without an output schema (no bytes, or JSON null) wraps
// [ErrNoOutputSchema]; an empty schema (a root that is "any" or "never",
// such as {}) [ErrEmptySchema]; a field path that is malformed or does not
// resolve [ErrField], with a message that names the failing segment and
// what was found instead.
func Inspect(schemaJSON []byte, toolID, fieldPath string, opts InspectOptions) (Inspection, error) {
	opts.MaxDepth = positive(opts.MaxDepth, DefaultInspectMaxDepth)
	opts.MaxFields = positive(opts.MaxFields, DefaultInspectMaxFields)
	opts.MaxNodes = positive(opts.MaxNodes, DefaultMaxNodes)
	if t := bytes.TrimSpace(schemaJSON); len(t) == 0 || string(t) == "null" {
		return Inspection{}, &InspectError{Err: ErrNoOutputSchema, Msg: "the tool has no output schema"}
	}
	raw, err := decode(schemaJSON)
	if err != nil {
		return Inspection{}, &InspectError{Err: err, Msg: "output schema: " + err.Error()}
	}
	segs, err := parsePath(fieldPath)
	if err != nil {
		return Inspection{}, err
	}
	b := newBuilder(raw, opts.MaxNodes)
	cur := b.rootOf(b.build(raw))
	if cur.kind == leafKind && (cur.label == labelAny || cur.label == labelNever) {
		return Inspection{}, &InspectError{Err: ErrEmptySchema,
			Msg: fmt.Sprintf("the output schema is empty (%s): it declares no type and no fields", cur.label)}
	}
	cur, at, err := walkPath(b, cur, fieldPath, segs)
	if err != nil {
		return Inspection{}, err
	}
	out := Inspection{ToolID: toolID, FieldPath: fieldPath, NodeType: cur.label, Children: []Child{}, FlattenedFields: []string{}}
	w := newWalker(b, opts.MaxNodes)
	target := w.rootEntry(at, cur)
	n := target.n
	switch {
	case n.container() && len(n.props) == 0 && n.unknown:
		out.Note = "additionalProperties: the keys of this object are not declared in the schema"
	case n.kind == leafKind && n.label == labelAny:
		out.Note = "the schema does not describe this value: it may be any JSON value"
	case !target.expandable():
	default:
		out.TotalChildFields = len(n.props)
		out.Children = children(w, n, opts.MaxFields)
		out.Truncated = len(out.Children) < len(n.props)
		preview(w, target, opts, &out)
	}
	out.Truncated = out.Truncated || b.capped || w.capped
	return out, nil
}

// walkPath resolves the segments from the root; errors name the segment.
// The path walked so far is always a prefix of fieldPath, so it is sliced
// from it, never built: a long path costs its length.
func walkPath(b *builder, cur *node, fieldPath string, segs []segment) (*node, string, error) {
	at := "" // the path walked so far
	for _, s := range segs {
		if s.name != "" {
			switch {
			case !cur.container():
				return nil, "", fieldErr(fieldPath, s.text, "%s is %s, which has no fields%s", describe(at), cur.label, arrayHint(cur, at, s))
			case len(cur.props) == 0:
				return nil, "", fieldErr(fieldPath, s.text, "%s declares no fields (%s)", describe(at), unknownOr(cur))
			}
			next := b.lookup(cur, s.name)
			if next == nil {
				return nil, "", fieldErr(fieldPath, s.text, "no field %q in %s (fields: %s)", clip(s.name), describe(at), fieldNames(cur))
			}
			cur, at = b.norm(next), fieldPath[:s.end]
		}
		for i := range s.arrays {
			if cur.kind != arrayKind {
				return nil, "", fieldErr(fieldPath, s.text, "%s is %s, not an array", describe(at), cur.label)
			}
			cur, at = b.norm(cur.items), fieldPath[:s.end+2*(i+1)]
		}
	}
	return cur, at, nil
}

func arrayHint(cur *node, at string, s segment) string {
	if cur.kind == arrayKind {
		return fmt.Sprintf(" (its items' fields are under %q)", clip(at+"[]."+s.name))
	}
	return ""
}

func unknownOr(n *node) string {
	if n.unknown {
		return "unknown keys"
	}
	return "an empty object"
}

// children lists the node's immediate fields, at most max of them, an
// array field typed "array of T" ("array of array of T" for two levels).
func children(w *walker, n *node, max int) []Child {
	out := make([]Child, 0, min(max, len(n.props)))
	for i, p := range n.props {
		if i == max {
			break
		}
		k := w.child(&entry{n: n}, i)
		t := strings.Repeat("array of ", int(k.arrays)) + k.n.label
		out = append(out, Child{Name: p.name, Type: t})
	}
	return out
}

// preview fills flattened_fields: breadth-first below the node, paths
// relative to it, containers expanded down to MaxDepth and shown as fold
// markers there. A container folded because of recursion or unknown keys
// is shown the same way but does not make the answer truncated.
func preview(w *walker, target *entry, o InspectOptions, out *Inspection) {
	queue := []*entry{target}
	for head := 0; head < len(queue); head++ {
		kids, ok := w.children(queue[head])
		if !ok {
			out.Truncated = true
			return
		}
		for _, k := range kids {
			if k.expandable() && int(k.depth) < o.MaxDepth {
				queue = append(queue, k)
				continue
			}
			line := k.line(k.path(true))
			if len(out.FlattenedFields) == o.MaxFields || !w.spend(line) {
				out.Truncated = true
				return
			}
			out.FlattenedFields = append(out.FlattenedFields, line)
			out.Truncated = out.Truncated || k.expandable() // cut by MaxDepth
		}
	}
}

func describe(at string) string {
	if at == "" {
		return "the root"
	}
	return fmt.Sprintf("%q", clip(at))
}

// fieldNames lists a container's field names for a message, at most 20.
func fieldNames(n *node) string {
	names := make([]string, 0, min(len(n.props), 21))
	for _, p := range n.props {
		if len(names) == 20 {
			names = append(names, fmt.Sprintf("… %d more", len(n.props)-20))
			break
		}
		names = append(names, plainName(p.name))
	}
	return strings.Join(names, ", ")
}

// plainName shows a name as it is when it is plain, quoted otherwise, so a
// message stays on one line.
func plainName(s string) string {
	if s == "" || len(s) > 64 || strings.ContainsFunc(s, func(r rune) bool {
		return r < 0x21 || r == ',' || r == '"' || r == '\\' || r == 0x7f || r == 0xfffd
	}) {
		return fmt.Sprintf("%q", clip(s))
	}
	return s
}

// clip shortens text echoed in a message to about 200 bytes.
func clip(s string) string {
	if len(s) <= 200 {
		return s
	}
	i := 200
	for i > 190 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
