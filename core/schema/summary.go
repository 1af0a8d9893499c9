package schema

import (
	"fmt"
	"regexp"
)

// The spec's locked values (section 0 and step 0).
const (
	MaxSummaryFields        = 30
	DefaultSummaryMaxDepth  = 3
	DefaultInspectMaxFields = 120
	DefaultInspectMaxDepth  = 4
	// DefaultMaxNodes bounds the schema nodes one summary or inspection
	// visits, so that a huge or recursive schema stays cheap.
	DefaultMaxNodes = 100_000
)

// Tier1RegexSpec is TIER_1_REGEX exactly as the spec prints it, inside a
// Python raw string in Markdown with its backslashes doubled.
const Tier1RegexSpec = `(?:^|\\.|\\[\\]\\.)(id|.*_id|name|title|status|type|url|email|price|amount|created|updated|timestamp)$`

// Tier1Regex is the pattern the spec means: a field whose last segment is an
// identifier or a common pivot. Read literally, "\\." would match a
// backslash, which no field path holds, so the doubled backslashes are the
// document's escaping; the spec test checks that this is Tier1RegexSpec with
// each "\\" made "\".
const Tier1Regex = `(?:^|\.|\[\]\.)(id|.*_id|name|title|status|type|url|email|price|amount|created|updated|timestamp)$`

var tier1 = regexp.MustCompile(Tier1Regex)

// IsTier1 reports whether a field path (e.g. "orders[].customer_id") is a
// Tier-1 field.
func IsTier1(path string) bool { return tier1.MatchString(path) }

// Options bound a summary.
type Options struct {
	// MaxFields is the most lines of output_fields; zero means
	// MaxSummaryFields (30).
	MaxFields int
	// MaxDepth is the deepest field a summary lists or expands (a root
	// field has depth 1); zero means DefaultSummaryMaxDepth (3).
	MaxDepth int
	// MaxNodes bounds the nodes visited; zero means DefaultMaxNodes.
	MaxNodes int
}

func (o Options) withDefaults() Options {
	if o.MaxFields <= 0 {
		o.MaxFields = MaxSummaryFields
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultSummaryMaxDepth
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	return o
}

// Summary is the folded view of an output schema for a compact descriptor.
type Summary struct {
	OutputFields    []string `json:"output_fields"`
	HasHiddenFields bool     `json:"has_hidden_fields"`
}

// entry is one field of the schema: its display path (with "[]" for each
// array level) and its node with the arrays unwrapped.
type entry struct {
	path     string
	n        *node
	depth    int
	parent   *entry
	expanded bool
}

// unwrap follows array items, adding "[]" to the path for each level.
func unwrap(path string, n *node) (string, *node) {
	n = n.norm()
	for i := 0; n.kind == kindArray && i < 32; i++ {
		path += "[]"
		n = n.items.norm()
	}
	return path, n
}

func join(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// expandable reports a container with declared children.
func (e *entry) expandable() bool { return e.n.container() && len(e.n.props) > 0 }

// folded reports a container whose keys a summary cannot list.
func (e *entry) unknownKeys() bool { return e.n.container() && len(e.n.props) == 0 && e.n.unknown }

// cyclic reports whether e's node is also one of its ancestors' nodes (or
// shares its fields, as a nullable reference to an ancestor does).
func (e *entry) cyclic() bool {
	for p := e.parent; p != nil; p = p.parent {
		if p.n == e.n || len(p.n.props) > 0 && len(e.n.props) > 0 && &p.n.props[0] == &e.n.props[0] {
			return true
		}
	}
	return false
}

func (e *entry) children() []*entry {
	out := make([]*entry, 0, len(e.n.props))
	for _, p := range e.n.props {
		path, n := unwrap(join(e.path, p.name), p.n)
		out = append(out, &entry{path: path, n: n, depth: e.depth + 1, parent: e})
	}
	return out
}

// line renders e as a leaf ("path: type") or a fold marker.
func (e *entry) line() string { return e.lineAs(e.path) }

// lineAs renders e with shown as its name; a fold marker's field_path is
// always the full path.
func (e *entry) lineAs(shown string) string {
	switch {
	case e.expandable():
		return fmt.Sprintf("%s: %s (contains %d sub-fields; inspect_tool_output(..., field_path=%q))", shown, e.n.kind, len(e.n.props), e.path)
	case e.unknownKeys():
		return fmt.Sprintf("%s: %s (unknown keys; inspect_tool_output(..., field_path=%q))", shown, e.n.kind, e.path)
	}
	return shown + ": " + e.n.kind
}

func (e *entry) marker() bool { return e.expandable() || e.unknownKeys() }

// rootOf normalizes the envelope: a "data" property of the top object is the
// root (spec section 6.1).
func rootOf(n *node) *node {
	n = n.norm()
	if n.container() {
		for _, p := range n.props {
			if p.name == "data" {
				return p.n.norm()
			}
		}
	}
	return n
}

// Summarize folds the output schema (JSON) into at most MaxFields lines, as
// the spec's section 4.2 and step 1 describe. See the package documentation
// for the algorithm and its choices.
func Summarize(schemaJSON []byte, opts Options) (Summary, error) {
	raw, err := decode(schemaJSON)
	if err != nil {
		return Summary{}, fmt.Errorf("schema: %w", err)
	}
	return summarize(raw, opts.withDefaults()), nil
}

func summarize(raw any, o Options) Summary {
	b := newBuilder(raw)
	path, n := unwrap("", rootOf(b.build(raw)))
	root := &entry{path: path, n: n}
	if !root.n.container() {
		return Summary{OutputFields: []string{rootLine(root)}, HasHiddenFields: root.marker()}
	}
	if root.unknownKeys() {
		return Summary{OutputFields: []string{rootLine(root)}, HasHiddenFields: true}
	}
	tier2 := root.children()
	if len(tier2) > o.MaxFields {
		// Too many root fields: keep Tier-1 leaves first, then the others in
		// order, and list the kept ones in schema order.
		keep := map[*entry]bool{}
		for _, tier1First := range []bool{true, false} {
			for _, e := range tier2 {
				if len(keep) < o.MaxFields-1 && (!tier1First || (!e.marker() && IsTier1(e.path))) {
					keep[e] = true
				}
			}
		}
		lines := make([]string, 0, o.MaxFields)
		for _, e := range tier2 {
			if keep[e] {
				lines = append(lines, e.line())
			}
		}
		lines = append(lines, fmt.Sprintf("%s (+%d more fields; inspect_tool_output(..., field_path=%q))",
			join(root.path, "*"), len(tier2)-(o.MaxFields-1), root.path))
		return Summary{OutputFields: lines, HasHiddenFields: true}
	}

	// Tier 1: leaves matching the regex anywhere below the root fields, in
	// breadth-first order, as many as the budget holds.
	budget := o.MaxFields - len(tier2)
	var tier1Lines []*entry
	listed := map[string]bool{}
	visited, capped := 0, false
	queue := append([]*entry(nil), tier2...)
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		if visited++; visited > o.MaxNodes {
			capped = true
			break
		}
		if e.expandable() {
			if !e.cyclic() {
				queue = append(queue, e.children()...)
			}
			continue
		}
		if e.depth > 1 && !e.marker() && IsTier1(e.path) && len(tier1Lines) < budget {
			tier1Lines = append(tier1Lines, e)
			listed[e.path] = true
		}
	}
	budget -= len(tier1Lines)

	// Fill: expand containers breadth-first, each wholly, while the lines
	// it adds (its children, less its own marker) fit the budget.
	var fill []*entry
	queue = queue[:0]
	for _, e := range tier2 {
		if e.expandable() {
			queue = append(queue, e)
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c.depth+1 > o.MaxDepth || c.cyclic() {
			continue
		}
		kids := c.children()
		added := 0
		for _, k := range kids {
			if !listed[k.path] {
				added++
			}
		}
		if added-1 > budget {
			continue
		}
		budget -= added - 1
		c.expanded = true
		for _, k := range kids {
			if listed[k.path] {
				continue
			}
			fill = append(fill, k)
			if k.expandable() {
				queue = append(queue, k)
			}
		}
	}

	var s Summary
	s.OutputFields = []string{}
	for _, group := range [][]*entry{tier2, tier1Lines, fill} {
		for _, e := range group {
			if e.expanded {
				continue
			}
			s.OutputFields = append(s.OutputFields, e.line())
			s.HasHiddenFields = s.HasHiddenFields || e.marker()
		}
	}
	s.HasHiddenFields = s.HasHiddenFields || capped
	return s
}

// rootLine renders a root that is not a container with declared fields; an
// empty path shows as ".".
func rootLine(root *entry) string {
	if root.path == "" {
		return root.lineAs(".")
	}
	return root.line()
}
