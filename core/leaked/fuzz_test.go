package leaked_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/leaked"
)

// fuzzSeeds are the inputs of the wrapper-scan defects and the adversarial
// shapes of bench/leaked_test.go, small.
func fuzzSeeds() []string {
	seeds := []string{
		// The defects.
		"Use the <tools> syntax to call tools.",
		`<tools>{"name": "", "arguments": {}}</tools>`,
		`<tools>{"name": "a", "description": "d", "parameters": {"type": "object", "properties": {}}}</tools>`,
		"<tool_calls>\n<tool_call>{\"name\":\"a\"}</tool_call>\n<tool_call>{\"name\":\"b\"}</tool_call>\n</tool_calls>",
		`<tool_call><tool_call>{"name":"a"}</tool_call></tool_call>`,
		`<tool_call>{"name": "x", "arguments": {`,
		"<tool_call> hello </tool_call>",
		strings.Repeat("`a", 64),
		// XML-parameter forms, whole and broken.
		"<tool_call>\n<function=a>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>",
		"<function=a>\n<parameter=x>\n{\"k\": [1]}\n</parameter>\n</function>\n</tool_call>",
		"<function=a><parameter=x>1<parameter=y>2</parameter></function>",
		"<tool_call>\n<function=run>\n<parameter=cmd>\necho \"</parameter>\"\n</parameter>\n</function>\n</tool_call>",
		`<minimax:tool_call><invoke name="a"><parameter name="x">1</parameter></invoke><invoke name="b"></invoke></minimax:tool_call>`,
		`<invoke name="a"><parameter name="x">1</invoke></minimax:tool_call>`,
		// Closed wrappers without a call, names with template tokens, cut JSON.
		`Go <tool_call>[{"name": "ls"}, {"path": "/tmp"}]</tool_call> now`,
		`<tool_call>{"name": " <|a|> <|b|> ", "arguments": {}}</tool_call> <tool_call>{"name": "x<|call|>"}`,
		"Say <tool_call> hello </tool_call> <tools>{\"x\": 1}</tools> <tool_calls>\n<tool_call>oops</tool_call>\n</tool_calls> <tool_call>get_time</tool_call>",
		`Use <tools>{"name": ...} to call tools, e.g. foo <tool_call>{"name": "a"}</tool_call> <function_call>{"name": "s", "arguments": {"q": "go`,
		"A <tool_call></tool_call> B <tools>\n</tools> <tool_call>{\"name\": \"a\"}</tool_call> <tool_call> </tool_call>",
		"<tool_call>{\"name\": \"a\"}</tool_calls> Done. <tools>{\"name\": \"b\"}\n</function_call> <function_call>{\"name\": \"c\"} </tool_c",
	}
	units := []string{
		"`a", "`a` b ", "x ```` ``` `` ", "```\n", "~~~\n", "`````````\n", "`` <tool_call>{\"name\":\"a\"}\n",
		"<tool_cal <tool_callx <too <tool_call_result> <functio <function_ <minimax:tool ", "<", "<think ",
		"<tool_call ", "<tool_call>", "<tool_call>{", `<tool_call>{"s":"`, `<tool_call>{"s":"\"`,
		`<tool_call>{"name":"a"} x `, "<tools> and some </tools> ", "<function=a>", "<function=a>\n<parameter=x>\n",
		"<function=a>\n<parameter=x>\nv\n</parameter>\n", `<minimax:tool_call><invoke name="a"><parameter name="x">`,
		"[", `{"a":`, `\"\\\u00e9`, "{}", `{"name":"a"}`, "<tool_calls>", "<tool_calls><tool_call>",
		"<tool_calls>\n<tool_call>{\"name\":\"a\"}</tool_call>\n</tool_calls>\n",
	}
	for _, u := range units {
		seeds = append(seeds, strings.Repeat(u, 40))
	}
	seeds = append(seeds, "<think>"+strings.Repeat(`<tool_call>{"name":"a"} `, 10),
		"<tool_call>"+strings.Repeat("[", 100), `<tool_call>{"name":"a","arguments":`+strings.Repeat(`{"a":`, 50),
		"<tools>"+strings.Repeat(`{"name":"a"}`, 20)+"</tools>",
		strings.Repeat("<tool_calls>", 20)+`{"name":"a"}`+strings.Repeat("</tool_calls>", 20),
		"<function=a>"+strings.Repeat("<parameter=x>1</parameter>", 20)+"</function>"+strings.Repeat("<parameterx ", 20))
	var b strings.Builder
	for k := 1; k < 30; k++ {
		b.WriteString(strings.Repeat("`", k) + "a")
	}
	return append(seeds, b.String())
}

// FuzzExtract checks the contract on any input: the content is the input
// with the removed spans cut out and trimmed (byte-identical when nothing was
// removed), the spans are ordered and disjoint, every call has a name and
// object arguments and a unique id, every dropped entry points at a removed
// block, and the result is deterministic. It runs with fence scanning off and
// on. The scenario inputs, the defect inputs and small adversarial inputs
// seed it.
func FuzzExtract(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, in string) {
		for _, fences := range []bool{false, true} {
			checkExtract(t, in, fmt.Sprintf("scan_fences=%v", fences), func() leaked.Options {
				return leaked.Options{Sources: seqIDs(), ScanFences: fences}
			})
		}
	})
}

// addSeeds adds every scenario input, the defect inputs and the families'
// seeds to f.
func addSeeds(f *testing.F) {
	for _, v := range vectors() {
		f.Add(v.Input)
	}
	for _, s := range append(fuzzSeeds(), familySeeds()...) {
		f.Add(s)
	}
}

// checkExtract runs Extract on in twice, with fresh options each time, and
// fails t when the result breaks the contract (Check) or the two differ.
func checkExtract(t *testing.T, in, label string, opts func() leaked.Options) {
	t.Helper()
	r := leaked.Extract(in, opts())
	if err := leaked.Check(in, r); err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if again := leaked.Extract(in, opts()); !reflect.DeepEqual(r, again) {
		t.Fatalf("%s: not deterministic", label)
	}
}
