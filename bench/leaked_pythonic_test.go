package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/leaked"
)

// pythonicAdversarial are the inputs built to make the pythonic form's
// parser super-linear: openers with no body, unclosed strings of every
// quote (whose '[' a later start reads again), nesting at the bound,
// long lists that never close, many lists, long literals. BenchmarkLeaked
// runs them with the default options (where '[' starts nothing but a
// message of JSON), BenchmarkLeakedPythonic with Options.Pythonic.
var pythonicAdversarial = []adversarial{
	{"py-open-brackets", func(n int) string { return repeatTo("[", n) }},
	{"py-open-calls", func(n int) string { return repeatTo("[a(", n) }},
	{"py-open-kwargs", func(n int) string { return repeatTo("[a(b=", n) }},
	{"py-open-kwarg-lists", func(n int) string { return repeatTo("[a(b=[", n) }},
	{"py-nested-lists", func(n int) string { return "[a(b=" + repeatTo("[", n) }},
	{"py-nested-tuples", func(n int) string { return "x [a(b=" + repeatTo("(", n) }},
	{"py-unclosed-strings", func(n int) string { return repeatTo(`[a(b="`, n) }},
	{"py-unclosed-triples", func(n int) string { return repeatTo(`[a(b='''`, n) }},
	{"py-alternating-quotes", func(n int) string { return repeatTo(`[a(b="[a(b='`, n) }},
	{"py-quotes-in-quotes", func(n int) string { return repeatTo(`[a(b='''[a(b="""[a(b='[a(b="x`, n) }},
	{"py-triple-never-closed", func(n int) string { return "x [a(b='''" + repeatTo(`[a(b="x", c=1) `, n) }},
	{"py-string-to-the-end", func(n int) string { return "[a(b=\"" + repeatTo("x [a(b=1) ", n) }},
	{"py-calls-never-closed", func(n int) string { return "x [" + repeatTo("a(b=1), ", n) }},
	{"py-calls-then-junk", func(n int) string { return "[" + repeatTo("a(b=1, c='x'), ", n) + "junk]" }},
	{"py-one-long-list", func(n int) string { return "[" + repeatTo("a(b=1), ", n) + "]" }},
	{"py-many-lists", func(n int) string { return repeatTo("[a(b=1)] ", n) }},
	{"py-links", func(n int) string { return repeatTo("[text](https://example.com) [a(b=1)](x) ", n) }},
	{"py-dotted-names", func(n int) string { return repeatTo("[a.b.c.d.e.f.g.h.i.j.k ", n) }},
	{"py-escapes", func(n int) string { return `[a(b="` + repeatTo(`\x41\u00e9\ud83d\ude00\n\q`, n) + `")]` }},
	{"py-numbers", func(n int) string { return "[a(b=[" + repeatTo("1_000.5e-3, 0x1F, -7, 007.5, ", n) + "])]" }},
	{"py-big-tuple-nested", func(n int) string {
		return "[a(b=" + strings.Repeat("(", 98) + "(" + repeatTo("1, ", n) + ")" + strings.Repeat(",)", 98) + ")]"
	}},
	{"py-many-keywords", pythonicKeywords},
	{"py-too-many-keywords", func(n int) string {
		var b strings.Builder
		b.WriteString("[a(")
		for k := 0; b.Len() < n; k++ {
			fmt.Fprintf(&b, "k%d=%d, ", k, k)
		}
		return b.String() + ")]"
	}},
	{"py-repeated-keyword", func(n int) string { return repeatTo("[a(k=1, k=1)] ", n) }},
	{"py-wrapped-then-text", func(n int) string { return repeatTo("<tool_call>[a(b=1)] x ", n) }},
	{"py-wrapped-unclosed", func(n int) string { return repeatTo("<tool_calls><tool_call>[a(b=", n) }},
	{"py-python-start", func(n int) string { return repeatTo("<|python_start|>", n) }},
	{"py-python-start-bare", func(n int) string { return repeatTo("<|python_start|>a(b=1) ", n) }},
}

// pythonicKeywords is lists of one call with 500 distinct keyword
// arguments k0, k1, ... (each checked against the others in a map).
func pythonicKeywords(size int) string {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString("[a(")
		for k := range 500 {
			fmt.Fprintf(&b, "k%d=%d, ", k, k)
		}
		b.WriteString(")]\n")
	}
	return b.String()
}

// pythonicInputs are BenchmarkLeakedPythonic's cases: prose and LLM-like
// text with the option on (their cost beside BenchmarkLeaked's), and each
// adversarial input at 1 MiB and 10 MiB.
func pythonicInputs() []leakedCase {
	out := []leakedCase{
		{"input=prose/size=1MiB", func() string { return generate("prose", 1<<20) }},
		{"input=llm-text/size=1MiB", func() string { return llmText(1 << 20) }},
	}
	return append(out, sized(pythonicAdversarial)...)
}

// BenchmarkLeakedPythonic measures the scanner with Options.Pythonic on.
func BenchmarkLeakedPythonic(b *testing.B) {
	opts := leaked.Options{Pythonic: true}
	pythonicRuns(b, "calls", func(text string) int { return len(leaked.Extract(text, opts).Calls) })
}

// BenchmarkLeakedPythonicBaseline is the floor of each input of
// BenchmarkLeakedPythonic: visiting every '[' and '<'.
func BenchmarkLeakedPythonicBaseline(b *testing.B) {
	pythonicRuns(b, "brackets", func(text string) int {
		return strings.Count(text, "[") + countTags(text)
	})
}

func pythonicRuns(b *testing.B, unit string, scan func(text string) int) {
	runCases(b, pythonicInputs(), unit, scan)
}
