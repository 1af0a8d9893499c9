package bench

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/leaked"
	"github.com/toolout/toolout/internal/hostile"
)

// leakedCase is one benchmark input of the leaked-call scanner, generated
// when its benchmark runs (the adversarial inputs add up to hundreds of MiB).
type leakedCase struct {
	name string
	gen  func() string
}

// repeatTo repeats unit until the text is at least size bytes long.
func repeatTo(unit string, size int) string {
	return strings.Repeat(unit, (size+len(unit)-1)/len(unit))
}

// leakedAdversarial are the inputs built to make a scanner super-linear, each
// as a function of the size. Every one runs at 1 MiB and 10 MiB, so the pair
// shows whether 10x the input costs about 10x the time.
var leakedAdversarial = append([]adversarial{
	// Code spans: single backticks with letters (one line), runs of growing
	// length (each length searched on the same line), fence-like runs.
	{"backtick-pairs", func(n int) string { return repeatTo("`a", n) }},
	{"backtick-pairs-spaced", func(n int) string { return repeatTo("`a` b ", n) }},
	{"backtick-ladder", backtickLadder},
	{"backtick-runs-inline", func(n int) string { return repeatTo("x ```` ``` `` ", n) }},
	{"fence-lines", func(n int) string { return repeatTo("```\n", n) }},
	{"fence-tilde-lines", func(n int) string { return repeatTo("~~~\n", n) }},
	{"fence-unclosed-long", func(n int) string { return "```\n" + repeatTo("`` <tool_call>{\"name\":\"a\"}\n", n) }},
	{"backtick-lines", func(n int) string { return repeatTo("`````````\n", n) }},
	// Tags that almost open a wrapper.
	{"near-miss-tags", func(n int) string {
		return repeatTo("<tool_cal <tool_callx <too <tool_call_result> <functio <function_ <minimax:tool ", n)
	}},
	{"lt-run", func(n int) string { return repeatTo("<", n) }},
	{"think-unclosed", func(n int) string { return "<think>" + repeatTo("<tool_call>{\"name\":\"a\"} ", n) }},
	{"think-open-many", func(n int) string { return repeatTo("<think ", n) }},
	// Wrappers that never close.
	{"unclosed-tags", func(n int) string { return repeatTo("<tool_call ", n) }},
	{"unclosed-wrappers", func(n int) string { return repeatTo("<tool_call>", n) }},
	{"unclosed-brace", func(n int) string { return repeatTo("<tool_call>{", n) }},
	{"unclosed-strings", func(n int) string { return repeatTo(`<tool_call>{"s":"`, n) }},
	{"unclosed-string-escapes", func(n int) string { return repeatTo(`<tool_call>{"s":"\"`, n) }},
	{"complete-then-text", func(n int) string { return repeatTo(`<tool_call>{"name":"a"} x `, n) + "</tool_call>" }},
	{"prose-in-wrappers", func(n int) string { return repeatTo("<tools> and some </tools> ", n) }},
	// XML-parameter forms that never close.
	{"function-eq-unclosed", func(n int) string { return repeatTo("<function=a>", n) }},
	{"function-eq-param-unclosed", func(n int) string { return repeatTo("<function=a>\n<parameter=x>\n", n) }},
	{"function-eq-no-close", func(n int) string { return repeatTo("<function=a>\n<parameter=x>\nv\n</parameter>\n", n) }},
	{"invoke-unclosed", func(n int) string { return repeatTo(`<minimax:tool_call><invoke name="a"><parameter name="x">`, n) }},
	{"param-values-with-close-tags", func(n int) string {
		return repeatTo("<function=a><parameter=x>"+strings.Repeat("</parameter>x", 50)+"</parameter></function>", n)
	}},
	{"params-then-near-misses", func(n int) string {
		return "<function=a>" + repeatTo("<parameter=x>1</parameter>", n/2) + "</function>" + repeatTo("<parameterx ", n/2)
	}},
	// Deep nesting inside a wrapper, long strings, many tiny values.
	{"nested-brackets", func(n int) string { return "<tool_call>" + repeatTo("[", n) }},
	{"nested-objects", func(n int) string { return `<tool_call>{"name":"a","arguments":` + repeatTo(`{"a":`, n) }},
	{"escaped-string", func(n int) string {
		return `<tool_call>{"name":"a","arguments":{"s":"` + repeatTo(`\"\\\u00e9`, n) + `"}}</tool_call>`
	}},
	{"repairs", func(n int) string {
		return repeatTo("<tool_call>{\"name\":\"a\",\"arguments\":{\"s\":\"\t\",},}</tool_call>", n)
	}},
	{"jsonl-empty-objects", func(n int) string { return "<tools>" + repeatTo("{}", n) + "</tools>" }},
	{"jsonl-tiny-calls", func(n int) string { return "<tools>" + repeatTo(`{"name":"a"}`, n) + "</tools>" }},
	// Containers of containers.
	{"nested-containers", func(n int) string {
		k := n / 25
		return strings.Repeat("<tool_calls>", k/2) + `{"name":"a"}` + strings.Repeat("</tool_calls>", k/2)
	}},
	{"container-chain", func(n int) string {
		return repeatTo("<tool_calls>\n<tool_call>{\"name\":\"a\"}</tool_call>\n</tool_calls>\n", n)
	}},
	{"container-opens", func(n int) string { return repeatTo("<tool_calls><tool_call>", n) }},
}, familyAdversarial()...)

// adversarial is an input built to make a scanner super-linear, as a
// function of its size.
type adversarial struct {
	name string
	gen  func(size int) string
}

// backtickLadder is runs of 1, 2, 3, ... backticks separated by a letter, on
// one line: every run length is searched for its closing run.
func backtickLadder(size int) string {
	var b strings.Builder
	for k := 1; b.Len() < size; k++ {
		b.WriteString(strings.Repeat("`", k))
		b.WriteByte('a')
	}
	return b.String()
}

// denseCalls is a text of JSON calls in wrappers, each after a line of
// text, size bytes or a little more.
func denseCalls(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "Step %d.\n<tool_call>{\"name\": \"logs__query\", \"arguments\": {\"host\": \"web-%d\", \"since\": \"1h\", \"q\": \"level=ERROR </tool_call>\"}}</tool_call>\n", i, i%8)
	}
	return b.String()
}

// leakedInputs are the throughput cases of the leaked-call scanner.
func leakedInputs() []leakedCase {
	xml := func(size int) string {
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "Step %d.\n<tool_call>\n<function=logs__query>\n<parameter=host>\nweb-%d\n</parameter>\n<parameter=limit>\n%d\n</parameter>\n</function>\n</tool_call>\n", i, i%8, i%100)
		}
		return b.String()
	}
	bigArg := func(size int) string {
		return `<tools>{"name": "files__write", "arguments": {"path": "out.txt", "body": "` +
			strings.Repeat("lorem ipsum dolor sit amet, ", size/28) + `"}}</tools>`
	}
	out := []leakedCase{
		{"input=prose/size=1MiB", func() string { return generate("prose", 1<<20) }},
		{"input=dense-calls/size=1MiB", func() string { return denseCalls(1 << 20) }},
		{"input=xml-calls/size=1MiB", func() string { return xml(1 << 20) }},
		{"input=one-big-call/size=100KiB", func() string { return bigArg(100 << 10) }},
		{"input=llm-text/size=1MiB", func() string { return llmText(1 << 20) }},
	}
	return append(out, sized(leakedAdversarial)...)
}

// sized makes a case of each input at 1 MiB and at 10 MiB, named
// input=NAME/size=SIZE, so that bench-linear compares the pair.
func sized(list []adversarial) []leakedCase {
	var out []leakedCase
	for _, a := range list {
		for _, size := range []int{1 << 20, 10 << 20} {
			out = append(out, leakedCase{fmt.Sprintf("input=%s/size=%s", a.name, hostile.SizeName(size)), func() string { return a.gen(size) }})
		}
	}
	return out
}

// BenchmarkLeaked measures the scanner's throughput. Compare input=prose with
// BenchmarkIndexByte (the floor: finding every '<'), and each adversarial
// input's two sizes with each other (linear: 10 MiB costs about 10x 1 MiB).
func BenchmarkLeaked(b *testing.B) {
	leakedRuns(b, "calls", func(text string) int { return len(leaked.Extract(text, leaked.Options{}).Calls) })
}

// BenchmarkLeakedBaseline is the floor of each input of BenchmarkLeaked,
// measured in the same run: visiting every '<' of the same text, the least a
// scanner for tags must do. A 1 MiB text fits in the CPU cache and its 10 MiB
// pair does not, so an input the scanner reads at memory speed (gigabytes a
// second, as fence-unclosed-long) costs more per byte at 10 MiB for any
// reader; bench/linear.awk compares each pair's ratio with this one's.
func BenchmarkLeakedBaseline(b *testing.B) {
	leakedRuns(b, "tags", countTags)
}

// leakedRuns runs scan on each of leakedInputs, and reports the number the
// last round returned as unit.
func leakedRuns(b *testing.B, unit string, scan func(text string) int) {
	runCases(b, leakedInputs(), unit, scan)
}

// runCases runs scan on each case, as a sub-benchmark named by the case,
// and reports the number the last round returned as unit.
func runCases(b *testing.B, cases []leakedCase, unit string, scan func(text string) int) {
	for _, in := range cases {
		b.Run(in.name, func(b *testing.B) {
			text := in.gen()
			b.SetBytes(int64(len(text)))
			n := 0
			for b.Loop() {
				n = scan(text)
			}
			b.ReportMetric(float64(n), unit)
		})
	}
}

// countTags visits every '<' of text.
func countTags(text string) int {
	n := 0
	for i := 0; ; i++ {
		j := strings.IndexByte(text[i:], '<')
		if j < 0 {
			return n
		}
		i += j
		n++
	}
}

// BenchmarkIndexByte is the baseline for tag-free text: visiting every '<'.
func BenchmarkIndexByte(b *testing.B) {
	text := []byte(generate("prose", 1<<20))
	b.Run("input=prose/size=1MiB", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			for i := 0; ; i++ {
				j := bytes.IndexByte(text[i:], '<')
				if j < 0 {
					break
				}
				i += j
			}
		}
	})
}
