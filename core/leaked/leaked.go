package leaked

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolout/toolout/core"
)

// Options configure Extract.
type Options struct {
	// Sources supplies the call IDs (Sources.NewID; a random UUIDv4 by default).
	Sources core.Sources
	// ScanFences also looks for wrappers inside fenced code blocks, which are
	// skipped by default (a model showing an example is not calling a tool).
	ScanFences bool
}

// Call is one recovered tool call. Arguments is always a JSON object.
type Call struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Dropped is a wrapper (or one call inside it) that yielded no call.
type Dropped struct {
	// Pattern is the wrapper, e.g. "<tools>".
	Pattern string `json:"pattern"`
	// Offset is the byte offset of the wrapper's opening tag in the input.
	Offset int `json:"offset"`
	// Raw is the text that was dropped: the whole block, or the one call.
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

// Result is what Extract found. Its JSON form is the output of
// `toolout leaked`: {"content", "tool_calls", "patterns", "dropped", "repairs"},
// with empty lists as [] and no content as null.
type Result struct {
	// Content is the input with every wrapper removed and the rest trimmed;
	// nil when nothing is left. When nothing was found it is the input itself,
	// byte for byte.
	Content *string `json:"content"`
	// Calls are the recovered calls in document order.
	Calls []Call `json:"tool_calls"`
	// Patterns are the wrappers seen (extracted or dropped), in order of first
	// appearance, e.g. ["<tools>", "<tool_call>"].
	Patterns []string `json:"patterns"`
	// Dropped lists every block or call that yielded nothing, with the reason.
	Dropped []Dropped `json:"dropped"`
	// Repairs lists every repair applied.
	Repairs []Repair `json:"repairs"`
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

// wrappers in matching order: a longer name before its prefix.
var wrappers = []string{"tool_calls", "tool_call", "tools", "function_call", "function"}

// Extract recovers the tool calls that a model wrote as text inside
// <tool_calls>, <tool_call>, <tools>, <function_call> or <function> wrappers.
// See the package documentation for the full contract. It runs in time linear
// in the length of text.
func Extract(text string, opts Options) Result {
	sc := &scanner{s: text, opts: opts, closeAt: map[string]int{}}
	sc.run()
	var res Result
	res.Calls, res.Dropped, res.Repairs = sc.calls, sc.dropped, sc.repairs
	res.Patterns = sc.patterns
	if len(sc.spans) == 0 {
		res.Content = &text
		return res
	}
	var b strings.Builder
	at := 0
	for _, sp := range sc.spans {
		b.WriteString(text[at:sp[0]])
		at = sp[1]
	}
	b.WriteString(text[at:])
	if rest := strings.TrimSpace(b.String()); rest != "" {
		res.Content = &rest
	}
	return res
}

type scanner struct {
	s    string
	opts Options

	spans    [][2]int // removed byte ranges, in order
	calls    []Call
	dropped  []Dropped
	repairs  []Repair
	patterns []string

	gtAt     int            // cached index of the next '>' at or after a search start; -1 unknown
	gtFrom   int            // the search start gtAt answers for
	closeAt  map[string]int // per wrapper: cached index of the next closing tag, or -1
	fromAt   map[string]int // per wrapper: the search start closeAt answers for
	noInline map[int]int    // backtick run length → 1 + end of a line with no closing run
}

func (sc *scanner) run() {
	s := sc.s
	sc.gtAt, sc.gtFrom = -1, -1
	sc.fromAt = map[string]int{}
	// Only '<' and '`' can start something; jump between them with IndexByte,
	// so text without either runs at the speed of IndexByte.
	lt, bt := -1, -1 // cached positions of the next '<' and '`', or len(s) when none
	for i := 0; i < len(s); {
		if lt < i {
			lt = indexFrom(s, i, '<')
		}
		if bt < i {
			bt = indexFrom(s, i, '`')
		}
		i = min(lt, bt)
		if i >= len(s) {
			return
		}
		if s[i] == '`' {
			fence := strings.HasPrefix(s[i:], "```") && atLineStart(s, i)
			switch {
			case fence && !sc.opts.ScanFences:
				i = skipFence(s, i)
			case fence:
				i = lineEnd(s, i) // scanning fences: step over the fence line itself
			default:
				i = sc.skipInlineCode(i)
			}
			continue
		}
		if hasPrefixFold(s[i:], "<think>") {
			end := strings.Index(s[i:], "</think>")
			if end < 0 {
				return // the rest is thinking
			}
			i += end + len("</think>")
			continue
		}
		if next, ok := sc.wrapper(i); ok {
			i = next
			continue
		}
		i++
	}
}

// indexFrom returns the index of the first c at or after i, or len(s).
func indexFrom(s string, i int, c byte) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s)
}

// atLineStart reports whether only up to three spaces stand between s[i] and
// the start of its line, as for a fence.
func atLineStart(s string, i int) bool {
	for k := 1; k <= 4; k++ {
		switch {
		case i-k < 0 || s[i-k] == '\n':
			return true
		case s[i-k] != ' ' || k == 4:
			return false
		}
	}
	return false
}

func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// skipFence returns the index after the fenced block opening at s[i]: past
// the closing fence line, or the end of input when it is not closed.
func skipFence(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	fence := s[i : i+n]
	pos := lineEnd(s, i)
	for pos < len(s) {
		pos++ // past '\n'
		j := pos
		for j < len(s) && j-pos < 3 && s[j] == ' ' {
			j++
		}
		if strings.HasPrefix(s[j:], fence) {
			return lineEnd(s, j)
		}
		pos = lineEnd(s, pos)
	}
	return len(s)
}

// skipInlineCode returns the index after the inline code span opening at
// s[i], or i+len(run) when the backtick run has no closing run on its line.
// A failed search is remembered per run length and line, so a line full of
// unmatched backticks costs linear time.
func (sc *scanner) skipInlineCode(i int) int {
	s := sc.s
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	end := lineEnd(s, i)
	if sc.noInline[n] == end+1 { // stored +1 so that the zero value means unknown
		return i + n
	}
	for j := i + n; j < end; {
		if s[j] != '`' {
			j++
			continue
		}
		m := 0
		for j+m < end && s[j+m] == '`' {
			m++
		}
		if m == n {
			return j + m
		}
		j += m
	}
	if sc.noInline == nil {
		sc.noInline = map[int]int{}
	}
	sc.noInline[n] = end + 1
	return i + n
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
