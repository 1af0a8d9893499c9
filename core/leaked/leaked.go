package leaked

import (
	"bytes"
	"encoding/json"

	"github.com/toolout/toolout/core"
)

// Options configure Extract.
type Options struct {
	// Sources supplies the call IDs (Sources.NewID; a random UUIDv4 by default).
	Sources core.Sources
	// ScanFences also looks for wrappers inside fenced code blocks, which are
	// skipped by default (a model showing an example is not calling a tool).
	ScanFences bool
	// Tools types the parameter values of XML-parameter calls by the tools'
	// declared schemas (ParseTools); the zero value is no list.
	Tools Tools
	// Pythonic also recognizes Llama 4's pythonic calls,
	// [get_weather(city="NYC"), ...], which plain prose can look like, so
	// they are off by default.
	Pythonic bool
}

// Call is one recovered tool call. Arguments is always a JSON object.
type Call struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Dropped is a block (or one value inside a removed block) that yielded no
// call although it was removed from the content.
type Dropped struct {
	// Pattern is the block's outermost tag, e.g. "<tools>" or "<function=>".
	Pattern string `json:"pattern"`
	// Offset is the byte offset of the block's opening tag in the input.
	Offset int `json:"offset"`
	// Raw is the text that was dropped: the whole block, or the one value.
	Raw string `json:"raw"`
	// Reason says why, e.g. "invalid JSON: unexpected 'h' outside a string".
	Reason string `json:"reason"`
}

// Repair is a lossless fix applied to the JSON of a wrapper.
type Repair struct {
	Pattern string `json:"pattern"`
	Offset  int    `json:"offset"`
	// Kind is code_fence, trailing_comma or control_chars.
	Kind string `json:"kind"`
}

// Span is a byte range of the input: Offset and Length in bytes.
type Span struct {
	Offset int `json:"offset"`
	Length int `json:"length"`
}

// Result is what Extract found. Its JSON form is the output of
// `toolout leaked`: {"content", "tool_calls", "patterns", "dropped", "repairs"},
// with empty lists as [] and no content as null.
type Result struct {
	// Content is the input with every removed span cut out and the rest
	// trimmed; nil when nothing is left. When nothing was removed it is the
	// input itself, byte for byte.
	Content *string `json:"content"`
	// Calls are the recovered calls in document order.
	Calls []Call `json:"tool_calls"`
	// Patterns are the tags of the removed blocks and containers, in order of
	// first appearance, e.g. ["<tool_calls>", "<tool_call>", "<function=>"].
	// It is empty exactly when nothing was removed.
	Patterns []string `json:"patterns"`
	// Dropped lists every removed block or value that yielded no call, with
	// the reason.
	Dropped []Dropped `json:"dropped"`
	// Repairs lists every repair applied.
	Repairs []Repair `json:"repairs"`
	// Removed are the spans cut out of the input, in order and disjoint:
	// Content is the text between them, trimmed. Not part of the JSON form.
	Removed []Span `json:"-"`
}

// MarshalJSON renders empty lists as [] rather than null, without HTML escaping.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	p := plain(r)
	p.Calls = orEmpty(p.Calls)
	p.Patterns = orEmpty(p.Patterns)
	p.Dropped = orEmpty(p.Dropped)
	p.Repairs = orEmpty(p.Repairs)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // tags stay readable: "<tools>", not "\u003ctools\u003e"
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Extract recovers the tool calls that a model wrote as text: JSON inside
// <tool_calls>, <tool_call>, <tools>, <function_call>, <function> or
// <minimax:tool_call> wrappers, and the XML-parameter forms
// <function=NAME><parameter=KEY>…</parameter></function> and
// <invoke name="NAME"><parameter name="KEY">…</parameter></invoke>.
// See the package documentation for the full contract. It runs in time
// linear in the length of text.
func Extract(text string, opts Options) Result {
	sc := getScanner(text, opts)
	sc.run()
	res := sc.result()
	sc.release()
	k := 0
	for id := range opts.Sources.IDs(len(res.Calls)) {
		res.Calls[k].ID = id
		k++
	}
	return res
}

// mergeSpans returns the spans of a and b, both in order and disjoint from
// each other, in one ordered list.
func mergeSpans(a, b []Span) []Span {
	out := make([]Span, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].Offset < b[0].Offset {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// result returns what the scan of sc.s found, in lists of their exact
// length, with the content.
func (sc *scanner) result() Result {
	text := sc.s
	res := Result{Calls: exact(sc.calls), Patterns: exact(sc.patterns), Dropped: exact(sc.dropped),
		Repairs: exact(sc.repairs), Removed: exact(sc.spans)}
	if len(res.Removed) > 0 && len(sc.empties) > 0 {
		res.Removed = mergeSpans(sc.spans, sc.empties)
	}
	if len(res.Removed) == 0 {
		res.Content = &text
		return res
	}
	if rest := content(text, res.Removed); rest != "" {
		res.Content = &rest
	}
	return res
}
