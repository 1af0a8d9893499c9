package schema

import (
	"encoding/json"
	"slices"
	"strings"
)

// plain normalizes a schema object's own keywords (type, properties, items,
// enum, const, nullable), compositions aside. It is "any" when they say
// nothing.
func (b *builder) plain(o *obj) *node {
	var buf [4]string
	types, null := typesOf(o, buf[:])
	return b.plainTypes(o, types, null)
}

// plainTypes is plain once the object's types are known.
func (b *builder) plainTypes(o *obj, types []string, null bool) *node {
	if len(types) == 0 {
		if null {
			return b.leaf(labelNull)
		}
		return anyNode
	}
	// A union of one reading of the schema per type (one type: that
	// reading, made nullable).
	var buf [4]*node
	rest := buf[:0]
	for _, t := range types {
		rest = append(rest, b.single(o, t))
	}
	return b.combine(rest, null)
}

// single reads a schema object as one type.
func (b *builder) single(o *obj, t string) *node {
	switch t {
	case labelObject:
		return b.object(o)
	case labelArray:
		n := b.newNode()
		n.kind, n.label, n.items, n.state = arrayKind, labelArray, b.itemsOf(o), done
		return n
	}
	return b.leaf(t)
}

func (b *builder) object(o *obj) *node {
	n := b.newNode()
	n.kind, n.label, n.state = objectKind, labelObject, done
	if props, ok := o.kwv(kwProperties).(*obj); ok {
		n.props = make([]prop, len(props.kvs))
		for i, e := range props.kvs {
			n.props[i] = prop{e.key, b.build(e.val)}
		}
	}
	if len(n.props) == 0 {
		// No declared keys: unknown, unless additionalProperties is false
		// and no patternProperties allow any (an object always empty).
		closed := o.kwv(kwAdditionalProperties) == false
		_, patterns := o.kwv(kwPatternProperties).(*obj)
		n.unknown = !closed || patterns
	}
	return n
}

// itemsOf returns the element schema of an array: the first of a tuple
// (prefixItems, or draft-4 items as a list), else items; "any" when absent.
func (b *builder) itemsOf(o *obj) *node {
	if prefix, ok := o.kwv(kwPrefixItems).([]any); ok && len(prefix) > 0 {
		return b.build(prefix[0])
	}
	switch it := o.kwv(kwItems).(type) {
	case []any:
		if len(it) > 0 {
			return b.build(it[0])
		}
	case *obj, bool:
		return b.build(it)
	}
	return anyNode
}

// typesOf returns the type names a schema object allows, null aside, and
// whether it allows null, appended to buf (a caller's stack array, so the
// common case allocates nothing). Without "type", the keywords imply it:
// properties (or additionalProperties, patternProperties) an object, items
// an array, enum and const the types of their values.
func typesOf(o *obj, buf []string) (types []string, null bool) {
	types = buf[:0]
	switch t := o.kwv(kwType).(type) {
	case string:
		types, null = addType(types, null, t)
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				types, null = addType(types, null, s)
			}
		}
	case nil:
		if o.hasKW(kwProperties) || o.hasKW(kwAdditionalProperties) || o.hasKW(kwPatternProperties) {
			types, null = addType(types, null, labelObject)
		}
		if o.hasKW(kwItems) || o.hasKW(kwPrefixItems) {
			types, null = addType(types, null, labelArray)
		}
		if vals, ok := o.kwv(kwEnum).([]any); ok {
			if len(vals) == 0 {
				return append(types[:0], labelNever), false // nothing is valid
			}
			for _, v := range vals {
				types, null = addType(types, null, jsonType(v))
			}
		} else if c, ok := o.kw(kwConst); ok {
			types, null = addType(types, null, jsonType(c))
		}
	}
	if nullable, _ := o.kwv(kwNullable).(bool); nullable {
		null = true
	}
	if slices.Contains(types, "integer") && slices.Contains(types, "number") {
		types = slices.DeleteFunc(types, func(t string) bool { return t == "integer" })
	}
	return types, null
}

// addType adds type name t to a typesOf result: null sets the flag; a name
// that cannot be shown, or that the normalizer uses for itself, is
// dropped; a name already there is not added twice.
func addType(types []string, null bool, t string) ([]string, bool) {
	switch {
	case t == labelNull:
		null = true
	case !validLabel(t) || t == labelAny || t == labelNever || t == labelUnion:
	case !slices.Contains(types, t):
		types = append(types, t)
	}
	return types, null
}

// validLabel accepts type names that can be shown as they are written:
// 1 to 32 letters, digits, '_' or '-'.
func validLabel(t string) bool {
	if len(t) == 0 || len(t) > 32 {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func jsonType(v any) string {
	switch v := v.(type) {
	case string:
		return "string"
	case json.Number:
		if strings.ContainsAny(string(v), ".eE") {
			return "number"
		}
		return "integer"
	case bool:
		return "boolean"
	case nil:
		return labelNull
	case []any:
		return labelArray
	}
	return labelObject
}

// addNull makes a leaf label nullable: "string" becomes "string|null".
func addNull(label string) string {
	if label == labelAny || label == labelNever || slices.Contains(strings.Split(label, "|"), labelNull) {
		return label
	}
	return label + "|" + labelNull
}

// union normalizes the branches of anyOf or oneOf.
func (b *builder) union(brs []any) *node {
	var rest []*node
	seen := make(map[*node]bool, len(brs))
	null := false
	for _, br := range brs {
		bn := b.branch(br)
		switch {
		case bn.kind == leafKind && bn.label == labelNull:
			null = true
		case bn.kind == leafKind && bn.label == labelNever:
		case !seen[bn]:
			seen[bn] = true
			rest = append(rest, bn)
		}
	}
	return b.combine(rest, null)
}

// combine joins the readings of a union. Null branches make the rest
// nullable; one remaining branch stands for the whole; branches of which
// one is an object make a "union" container holding the properties of its
// object branches, merged; otherwise the labels join ("integer|string",
// an array branch as "array").
func (b *builder) combine(rest []*node, null bool) *node {
	switch len(rest) {
	case 0:
		if null {
			return b.leaf(labelNull)
		}
		return neverNode
	case 1:
		if null && rest[0].kind == leafKind {
			return b.leaf(addNull(rest[0].label))
		}
		return rest[0]
	}
	var containers []*node
	var labels []string
	for _, n := range rest {
		switch n.kind {
		case objectKind:
			containers = append(containers, n)
		case arrayKind:
			labels = appendLabels(labels, labelArray)
		default:
			labels = appendLabels(labels, n.label)
		}
	}
	if len(containers) > 0 {
		u := b.merged(containers)
		u.label = labelUnion
		return u
	}
	if slices.Contains(labels, labelAny) {
		return anyNode
	}
	if null {
		labels = appendLabels(labels, labelNull)
	}
	return b.leaf(strings.Join(labels, "|"))
}

func appendLabels(labels []string, label string) []string {
	for _, l := range strings.Split(label, "|") {
		if !slices.Contains(labels, l) {
			labels = append(labels, l)
		}
	}
	return labels
}

// intersect normalizes allOf together with the schema's own keywords:
// "any" parts say nothing; objects merge their properties; without an
// object, the first array or else the first leaf label stands.
func (b *builder) intersect(parts []*node) *node {
	parts = slices.DeleteFunc(parts, func(n *node) bool { return n.kind == leafKind && n.label == labelAny })
	var containers []*node
	for _, n := range parts {
		if n.kind == leafKind && n.label == labelNever {
			return neverNode
		}
		if n.container() {
			containers = append(containers, n)
		}
	}
	switch {
	case len(parts) == 0:
		return anyNode
	case len(containers) == 1:
		return containers[0]
	case len(containers) > 1:
		m := b.merged(containers)
		m.label = labelObject
		return m
	}
	for _, n := range parts {
		if n.kind == arrayKind {
			return n
		}
	}
	return parts[0]
}

// merged returns a container holding the properties of several, the first
// of each name kept, in order. Copies count against the builder's merge
// budget; a merge cut by it keeps what it has (and the builder is capped).
// It is linear: a set of names, not a search of the list, rules out
// duplicates.
func (b *builder) merged(cs []*node) *node {
	total := 0
	unknown := true
	for _, c := range cs {
		total += len(c.props)
		unknown = unknown && c.unknown
	}
	m := b.newNode()
	m.kind, m.label, m.state = objectKind, labelObject, done
	if total > b.merge {
		total, b.capped = b.merge, true
	}
	b.merge -= total
	m.props = make([]prop, 0, total)
	var seen map[string]bool
	if total > indexFrom {
		seen = make(map[string]bool, total)
	}
	for _, c := range cs {
		for _, p := range c.props {
			if len(m.props) == total {
				break
			}
			if seen != nil {
				if seen[p.name] {
					continue
				}
				seen[p.name] = true
			} else if slices.ContainsFunc(m.props, func(q prop) bool { return q.name == p.name }) {
				continue
			}
			m.props = append(m.props, p)
		}
	}
	m.unknown = len(m.props) == 0 && unknown
	return m
}
