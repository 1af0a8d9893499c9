package importer

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/harness"
)

// Bounds of the flattened attributes (OpenLLMetry's gen_ai.prompt.N.*,
// OpenInference's llm.input_messages.N.*): an index names a place in a
// list, never a size, so a huge one costs nothing; but no conversation
// holds 100 000 messages (nor a message as many tool calls or parts), and
// a key is refused past a dozen segments under its prefix, so that the
// tree built from them stays shallow.
const (
	maxFlatIndex    = 99_999
	maxFlatSegments = 12
)

// flatConvention is one convention of flattened, indexed span attributes:
// its name, the prefixes of its input and output lists, and how it reads
// one message of them, named what; def is its role when it has none ("":
// it must have one).
type flatConvention struct {
	name    string
	in, out string
	message func(t *parsedTrace, item *jsonspan.Node, what, def string) (traceMessage, error)
}

// flatConventions are tried in this order on a chat span without the
// attributes of the conventions from 1.37: the first whose input or output
// prefix some attribute starts with reads the span.
var flatConventions = []*flatConvention{
	{"OpenLLMetry", "gen_ai.prompt", "gen_ai.completion", (*parsedTrace).openLLMetryMessage},
	{"OpenLLMetry", "llm.prompts", "llm.completions", (*parsedTrace).openLLMetryMessage},
	{"OpenInference", "llm.input_messages", "llm.output_messages", (*parsedTrace).openInferenceMessage},
}

// Markers of an LLM call span that is not told by gen_ai.operation.name:
// OpenInference's span kind and OpenLLMetry's request type.
const (
	attrOpenInferenceKind = "openinference.span.kind"
	attrLLMRequestType    = "llm.request.type"
)

// isChatSpan tells whether a span is one LLM call: its
// gen_ai.operation.name is a chat operation; or, without one, its
// openinference.span.kind is LLM, its llm.request.type is chat, or it
// holds the flattened messages of a convention of flatConventions.
func (t *parsedTrace) isChatSpan(s *otelSpan) (bool, error) {
	if op := s.attrs[attrOperation]; op != nil {
		v, err := t.anyValue(op, attrOperation)
		if err != nil {
			return false, err
		}
		return v.Kind == '"' && slices.Contains(chatOperations, v.Str), nil
	}
	for _, kv := range [][2]string{{attrOpenInferenceKind, "LLM"}, {attrLLMRequestType, "chat"}} {
		key, want := kv[0], kv[1]
		if v := s.attrs[key]; v != nil {
			conv, err := t.anyValue(v, key)
			if err != nil {
				return false, err
			}
			if conv.Text() == want {
				return true, nil
			}
		}
	}
	return flatConventionOf(s) != nil, nil
}

// flatConventionOf returns the first convention of flatConventions whose
// input or output list a span's attributes hold, or nil.
func flatConventionOf(s *otelSpan) *flatConvention {
	for _, conv := range flatConventions {
		for key := range s.attrs {
			if under(key, conv.in) || under(key, conv.out) {
				return conv
			}
		}
	}
	return nil
}

// under tells whether key is a flattened attribute of prefix: prefix, a
// dot, and more.
func under(key, prefix string) bool {
	return len(key) > len(prefix)+1 && key[len(prefix)] == '.' && strings.HasPrefix(key, prefix)
}

// flatCall reads a chat span whose messages are flattened attributes of
// conv: its input and output lists rebuilt as trees (see flatTree).
func (t *parsedTrace) flatCall(s *otelSpan, c *chatCall, conv *flatConvention) error {
	in, err := t.flatTree(s, conv.in)
	if err != nil {
		return err
	}
	out, err := t.flatTree(s, conv.out)
	if err != nil {
		return err
	}
	if len(out.Vals) == 0 {
		return t.errorf(s.n.Start, "%s: no %s.N attributes: a chat span records its input and its output (turn on the capture of message content)", c.label, conv.out)
	}
	if len(in.Vals) == 0 {
		return t.errorf(s.n.Start, "%s: no %s.N attributes: a chat span records its input and its output", c.label, conv.in)
	}
	c.list = in.Start
	msgs, names, err := t.flatKids(in, conv.in)
	if err != nil {
		return err
	}
	for i, m := range msgs {
		msg, err := conv.message(t, m, names[i], "")
		if err != nil {
			return err
		}
		c.req = append(c.req, msg)
	}
	outs, onames, err := t.flatKids(out, conv.out)
	if err != nil {
		return err
	}
	// The first output message (the lowest index) is the reply, its role
	// assistant when it has none.
	reply, err := conv.message(t, outs[0], onames[0], "assistant")
	if err != nil {
		return err
	}
	return t.setReply(c, []traceMessage{reply}, outs[0].Start, onames[0])
}

// flatNode is a node of the tree that flattened keys make: a leaf (an
// attribute's AnyValue), or a list (numeric segments) or an object (other
// segments) of nodes.
type flatNode struct {
	leaf *jsonspan.Node
	kids map[string]*flatNode
	list bool
	at   int    // offset of the first attribute under it, in the file
	key  string // the attribute that made it, for errors
}

// flatTree rebuilds the list that a span's attributes under prefix
// flatten ("prefix.3.role" is member role of item 3): a list node whose
// items are in the order of their indexes (a gap is no item: lists are
// sparse when an instrumentation skips a value), its keys the indexes as
// written, each item an object (or list) of the AnyValue nodes its keys
// end in. Keys are taken in file order, so that an error is the same on
// every run. An index is digits without a leading zero, at most
// maxFlatIndex; a key has at most maxFlatSegments segments under prefix; a
// value that is also the parent of other keys, or a node whose segments
// are both indexes and names, is refused at the attribute.
func (t *parsedTrace) flatTree(s *otelSpan, prefix string) (*jsonspan.Node, error) {
	type attr struct {
		key string
		v   *jsonspan.Node
	}
	var attrs []attr
	for key, v := range s.attrs {
		if under(key, prefix) {
			attrs = append(attrs, attr{key, v})
		}
	}
	slices.SortFunc(attrs, func(a, b attr) int { return cmp.Compare(a.v.Start, b.v.Start) })
	root := &flatNode{list: true, at: s.n.Start, key: prefix}
	for i, a := range attrs {
		if i == 0 {
			root.at = a.v.Start
		}
		if err := t.flatInsert(root, a.key, a.key[len(prefix)+1:], a.v); err != nil {
			return nil, err
		}
	}
	return flatJSON(root), nil
}

// flatInsert puts the attribute key, whose segments under the root are
// rest, with its value v, into the tree at root.
func (t *parsedTrace) flatInsert(root *flatNode, key, rest string, v *jsonspan.Node) error {
	name := harness.Clip(key)                                   // in errors
	if n := strings.Count(rest, ".") + 1; n > maxFlatSegments { // counted before a split allocates them
		return t.errorf(v.Start, "%s: %d segments under %s, over the %d a message attribute has", name, n, root.key, maxFlatSegments)
	}
	segs := strings.Split(rest, ".")
	n := root
	for i, seg := range segs {
		numeric := seg != "" && strings.Trim(seg, "0123456789") == ""
		if numeric {
			if x, err := strconv.ParseUint(seg, 10, 64); err != nil || x > maxFlatIndex || len(seg) > 1 && seg[0] == '0' {
				return t.errorf(v.Start, "%s: index %s: want an index from 0 to %d without leading zeros (a list holds at most %d items)",
					name, harness.Clip(seg), maxFlatIndex, maxFlatIndex+1)
			}
		}
		if n.leaf != nil {
			return t.errorf(v.Start, "%s: %s is a value, not a list or an object", name, harness.Clip(n.key))
		}
		if n.kids == nil {
			n.kids, n.list = map[string]*flatNode{}, numeric
		}
		if n.list != numeric {
			return t.errorf(v.Start, "%s: segment %q among %s under %s", name, harness.Clip(seg), map[bool]string{true: "names", false: "indexes"}[n.list == false], harness.Clip(n.key))
		}
		kid := n.kids[seg]
		if kid == nil {
			kid = &flatNode{at: v.Start, key: key[:len(key)-len(rest)] + strings.Join(segs[:i+1], ".")}
			n.kids[seg] = kid
		}
		n = kid
	}
	if n.kids != nil {
		return t.errorf(v.Start, "%s: a value where other attributes hold a list or an object", name)
	}
	n.leaf = v
	return nil
}

// flatJSON turns a tree of flatNodes into jsonspan.Nodes: a list's items by index
// (its keys the indexes, for names in errors), an object's members by
// name, a leaf a node of kind 'v' whose one kid is the attribute's
// AnyValue, as it is (converted only when read: see flatField).
func flatJSON(n *flatNode) *jsonspan.Node {
	if n.leaf != nil {
		return &jsonspan.Node{Kind: 'v', Start: n.leaf.Start, Vals: []*jsonspan.Node{n.leaf}}
	}
	out := &jsonspan.Node{Kind: '{', Start: n.at}
	if n.list {
		out.Kind = '['
	}
	keys := make([]string, 0, len(n.kids))
	for k := range n.kids {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if n.list {
			return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b)) // digits without leading zeros
		}
		return cmp.Compare(a, b)
	})
	for _, k := range keys {
		out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, flatJSON(n.kids[k]))
	}
	return out
}

// flatField returns the value of obj's member path (dot-separated: the
// nodes of a flattened key), converted from its AnyValue, or nil when it
// is absent, {} or null.
func (t *parsedTrace) flatField(obj *jsonspan.Node, path, what string) (*jsonspan.Node, error) {
	n := flatAt(obj, path)
	if n == nil {
		return nil, nil
	}
	if n.Kind != 'v' {
		return nil, t.errorf(n.Start, "%s.%s: want a value, got attributes under it (%s.%s.…)", what, path, what, path)
	}
	v, err := t.anyValue(n.Vals[0], what+"."+path)
	if err != nil || v.Kind == '0' {
		return nil, err
	}
	return v, nil
}

// flatAt returns the node at obj's member path (dot-separated), or nil.
func flatAt(obj *jsonspan.Node, path string) *jsonspan.Node {
	n := obj
	for _, seg := range strings.Split(path, ".") {
		if n = n.Get(seg); n == nil {
			return nil
		}
	}
	return n
}

// flatText returns obj's member path as a string ("" when absent) and
// where it is (obj's offset when absent), or an error at it.
func (t *parsedTrace) flatText(obj *jsonspan.Node, path, what string) (string, int, error) {
	v, err := t.flatField(obj, path, what)
	if err != nil || v == nil {
		return "", obj.Start, err
	}
	if v.Kind != '"' {
		return "", v.Start, t.errorf(v.Start, "%s.%s: want a string, got %s", what, path, kindName(v.Kind))
	}
	return v.Str, v.Start, nil
}

// flatItems returns the items of obj's member path, a list of flattened
// objects (none when absent), and their names in errors.
func (t *parsedTrace) flatItems(obj *jsonspan.Node, path, what string) ([]*jsonspan.Node, []string, error) {
	n := flatAt(obj, path)
	if n == nil {
		return nil, nil, nil
	}
	return t.flatKids(n, what+"."+path)
}

// flatKids returns the items of n, a list of flattened objects named
// what, and their names in errors (what.INDEX).
func (t *parsedTrace) flatKids(n *jsonspan.Node, what string) ([]*jsonspan.Node, []string, error) {
	if n.Kind != '[' {
		return nil, nil, t.errorf(n.Start, "%s: want indexed attributes (%s.0.…)", what, what)
	}
	names := make([]string, len(n.Vals))
	for i, k := range n.Keys {
		names[i] = what + "." + k
		if n.Vals[i].Kind != '{' {
			return nil, nil, t.errorf(n.Vals[i].Start, "%s: want attributes under it (%s.…)", names[i], names[i])
		}
	}
	return n.Vals, names, nil
}

// flatContent sets msg's text from its content attribute (a string, or
// JSON of content parts: contentParts), if it has one (content not nil).
func (t *parsedTrace) flatContent(msg *traceMessage, content *jsonspan.Node, what string) error {
	if content == nil {
		return nil
	}
	var err error
	if msg.text, msg.omitted, err = t.contentParts(content, what+".content"); err != nil {
		return err
	}
	msg.fields["content"] = content.Start
	return nil
}
