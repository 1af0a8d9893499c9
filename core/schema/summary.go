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
	// DefaultMaxNodes is the node cap: the most fields one summary or
	// inspection creates, the most properties its allOf/anyOf/oneOf merges
	// copy, and the most field edges its recursion search explores.
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
// Tier-1 field. For a field that is not an array, the answer depends only
// on its own name (a test checks this), so walks test the name, not the
// path they would have to build.
func IsTier1(path string) bool { return tier1.MatchString(path) }

func (e *entry) tier1() bool { return e.arrays == 0 && e.parent != nil && IsTier1(e.name) }

// Options bound a summary.
type Options struct {
	// MaxFields is the most lines of output_fields; zero means
	// MaxSummaryFields (30).
	MaxFields int
	// MaxDepth is the deepest field the fill lists (a root field has depth
	// 1); zero means DefaultSummaryMaxDepth (3). Tier 1 is not limited.
	MaxDepth int
	// MaxNodes is the node cap; zero means DefaultMaxNodes.
	MaxNodes int
}

func (o Options) withDefaults() Options {
	o.MaxFields = positive(o.MaxFields, MaxSummaryFields)
	o.MaxDepth = positive(o.MaxDepth, DefaultSummaryMaxDepth)
	o.MaxNodes = positive(o.MaxNodes, DefaultMaxNodes)
	return o
}

// positive returns v, or def when v is zero or negative: an option's
// default.
func positive(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// Summary is the folded view of an output schema for a compact descriptor.
type Summary struct {
	OutputFields    []string `json:"output_fields"`
	HasHiddenFields bool     `json:"has_hidden_fields"`
}

// rootOf normalizes the envelope: a "data" property of the top object is the
// root (spec section 6.1).
func (b *builder) rootOf(n *node) *node {
	n = b.norm(n)
	if n.container() {
		if d := b.lookup(n, "data"); d != nil {
			return b.norm(d)
		}
	}
	return n
}

// Summarize folds the output schema (JSON) into at most MaxFields lines, as
// the spec's section 4.2 and step 1 describe; the package documentation
// states how schemas are read and capped. The error is a *jsonlex.SyntaxError or a
// *NestingError, wrapped.
//
// MaxFields is MaxSummaryFields (30) unless Options say otherwise.
//
// Nothing hidden: when every field down to the summary depth (MaxDepth, 3;
// a root field has depth 1) is a leaf or a container whose fields all lie
// within it, no object has unknown keys, no field closes a cycle, the
// leaves fit in MaxFields lines and no cap cut anything, the summary is the
// leaf lines only, breadth-first, and has_hidden_fields is false. No line
// for a container: its leaves' paths show it ("owner.id: string", no
// "owner: object"). A leaf is "key: type", "key[]: type" for an array of
// leaves; an object that can have no keys (additionalProperties false) is
// the leaf "key: object".
//
// Otherwise has_hidden_fields is true and the lines are, deduplicated, in
// the spec's order:
//
//  1. Tier 2: every field of the root, a leaf as "key: type", a container
//     always as its fold marker, even when its fields are listed below it:
//     `key: object (contains N sub-fields; inspect_tool_output(...,
//     field_path="key"))`, `key[]: object (…)` for an array of objects,
//     `key: object (unknown keys; …)`, with N the number of immediate
//     children ("1 sub-fields" as is).
//  2. Tier 1: leaves anywhere below (any depth within the node cap,
//     breadth-first) whose path matches [Tier1Regex], as many as the lines
//     left hold.
//  3. Fill: the fields not listed yet, breadth-first from the root fields
//     down to the summary depth, one line each, until the lines are used. A
//     container within the depth has no line of its own (its fields follow
//     in breadth-first order), so a large container may be listed in part:
//     the fold marker of its root field gives its N. A container the depth
//     limit stops, one with unknown keys and one that closes a cycle are
//     their fold markers (the spec's reference drops a container cut by
//     the depth silently).
//
// So fewer than MaxFields lines means every field down to the summary depth
// is listed (a fuzz property). When Tier 2 and Tier 1 do not fit together,
// every root field is kept and Tier-1 leaves are listed breadth-first until
// the lines run out; which ones is not part of the contract.
//
// Overflow: when the root alone has more than MaxFields fields, MaxFields-1
// of them are listed (those with a Tier-1 name first, then the others in
// order, shown in schema order) and the last line is the overflow marker
// `* (+N more fields; inspect_tool_output(..., field_path=""))` ("[].*" for
// a root array); deeper fields are then left to the inspector.
//
// A root that is not a container with fields is one line: a root with
// unknown keys is `data: object (unknown keys; inspect_tool_output(...,
// field_path=""))`, named after the envelope's field; any other is the path
// "." (or "[]" for a root array): ".: any", "[]: string".
//
// has_hidden_fields is true exactly when the summary is not the
// nothing-hidden list: a line is a fold or overflow marker, a field down to
// the summary depth has no line, or a cap cut the walk. The spec's reference
// returns plain leaves with false when 30 fields fit even if its depth limit
// cut deeper containers; here such containers are marked, so nothing is
// hidden silently.
func Summarize(schemaJSON []byte, opts Options) (Summary, error) {
	raw, err := decode(schemaJSON)
	if err != nil {
		return Summary{}, fmt.Errorf("schema: %w", err)
	}
	return summarize(raw, opts.withDefaults()), nil
}

// summarizer holds one summary in progress.
type summarizer struct {
	o      Options
	w      *walker
	root   *entry
	budget int      // lines left
	tier1  []*entry // Tier-1 leaves below the root fields
	fill   []*entry // lines added by expanding containers
}

func summarize(raw any, o Options) Summary {
	b := newBuilder(raw, o.MaxNodes)
	w := newWalker(b, o.MaxNodes)
	s := &summarizer{o: o, w: w, root: w.rootEntry("", b.rootOf(b.build(raw)))}
	r := s.root
	switch {
	case !r.expandable():
		shown := r.path(false)
		switch {
		case shown == "" && r.marker():
			shown = "data" // unknown keys: the envelope's field
		case shown == "":
			shown = "."
		}
		return Summary{OutputFields: []string{r.line(shown)}, HasHiddenFields: r.marker()}
	case len(r.n.props) > o.MaxFields:
		return s.overflow()
	}
	kids, _ := w.children(r) // at most MaxFields of them: always fit
	if lines, ok := s.allLeaves(kids); ok && !b.capped && !w.capped {
		return Summary{OutputFields: lines}
	}
	s.budget = o.MaxFields - len(kids)
	s.scanTier1(kids)
	s.expand(kids)
	return s.render(kids)
}

// allLeaves returns the leaf lines, breadth-first, when nothing is hidden:
// every field down to MaxDepth is a leaf or a container whose fields all lie
// within it, none has unknown keys or closes a cycle, the leaves fit in
// MaxFields lines and no cap cuts anything. A container has no line: its
// leaves' paths show it. Otherwise it returns false.
func (s *summarizer) allLeaves(roots []*entry) ([]string, bool) {
	queue := append([]*entry(nil), roots...)
	var lines []string
	out := s.w.out
	for head := 0; head < len(queue); head++ {
		k := queue[head]
		switch {
		case k.marker() && (!k.expandable() || int(k.depth) >= s.o.MaxDepth):
			return nil, false // unknown keys, recursion, or cut by the depth
		case k.expandable():
			kids, ok := s.w.children(k)
			if !ok {
				return nil, false
			}
			queue = append(queue, kids...)
		default:
			l := k.line(k.path(false))
			if len(lines) == s.o.MaxFields || len(l) > out {
				return nil, false
			}
			out -= len(l)
			lines = append(lines, l)
		}
	}
	return lines, true
}

// overflow lists MaxFields-1 root fields, those with a Tier-1 name first,
// then the others in order, shown in schema order, and an overflow marker
// for the rest. Deeper fields are left to the inspector.
func (s *summarizer) overflow() Summary {
	r, w := s.root, s.w
	n := len(r.n.props)
	keep := make([]bool, n)
	kept := 0
	for _, tier1First := range []bool{true, false} {
		for i, p := range r.n.props {
			if kept == s.o.MaxFields-1 {
				break
			}
			if keep[i] || tier1First && !IsTier1(p.name) {
				continue
			}
			keep[i] = true
			kept++
		}
	}
	lines := make([]string, 0, min(s.o.MaxFields, n+1))
	for i := range r.n.props {
		if keep[i] {
			k := w.child(r, i)
			lines = append(lines, k.line(k.path(false)))
		}
	}
	lines = append(lines, fmt.Sprintf("%s (+%d more fields; inspect_tool_output(..., field_path=%q))",
		(&entry{parent: r, name: "*"}).path(false), n-kept, r.path(false)))
	return Summary{OutputFields: lines, HasHiddenFields: true}
}

// scanTier1 lists, breadth-first below the root fields and at any depth
// (within the node cap), the leaves whose name matches the Tier-1 regex,
// while lines are left.
func (s *summarizer) scanTier1(roots []*entry) {
	queue := make([]*entry, 0, len(roots))
	for _, k := range roots {
		if k.expandable() {
			queue = append(queue, k)
		}
	}
	for head := 0; head < len(queue) && s.budget > 0; head++ {
		kids, ok := s.w.children(queue[head])
		if !ok {
			return
		}
		for _, k := range kids {
			switch {
			case k.expandable():
				queue = append(queue, k)
			case s.budget > 0 && !k.marker() && k.tier1() && s.w.spend(k.line(k.path(false))):
				k.listed = true
				s.tier1 = append(s.tier1, k)
				s.budget--
			}
		}
	}
}

// expand is the fill: the fields not listed yet, breadth-first from the
// root fields down to MaxDepth, one line each, until the lines run out. A
// leaf is "path: type"; a container the depth limit stops, one with unknown
// keys or one that closes a cycle is its fold marker; a container within
// the depth has no line of its own, its fields follow in breadth-first
// order. So a large container may be listed in part; the fold marker of its
// root field gives its N.
func (s *summarizer) expand(roots []*entry) {
	var queue []*entry
	for _, k := range roots {
		if k.expandable() && int(k.depth) < s.o.MaxDepth {
			queue = append(queue, k)
		}
	}
	for head := 0; head < len(queue) && s.budget > 0; head++ {
		kids, ok := s.w.children(queue[head])
		if !ok {
			continue // cut by the node cap; smaller containers may follow
		}
		for _, k := range kids {
			switch {
			case k.expandable() && int(k.depth) < s.o.MaxDepth:
				queue = append(queue, k)
			case k.listed:
			case s.budget == 0 || !s.w.spend(k.line(k.path(false))):
				return
			default:
				k.listed = true
				s.fill = append(s.fill, k)
				s.budget--
			}
		}
	}
}

// render writes the lines: every root field (a container as its fold
// marker, with N, even when its fields are listed below), the Tier-1
// leaves, then the fill. It is reached only when something is hidden.
func (s *summarizer) render(roots []*entry) Summary {
	out := Summary{OutputFields: make([]string, 0, min(s.o.MaxFields, 64)), HasHiddenFields: true}
	for _, list := range [][]*entry{roots, s.tier1, s.fill} {
		for _, k := range list {
			out.OutputFields = append(out.OutputFields, k.line(k.path(false)))
		}
	}
	return out
}
