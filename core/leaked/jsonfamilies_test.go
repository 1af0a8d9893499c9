package leaked_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

// The JSON-bodied families: what the scenarios under scenarios/leaked/llama3,
// mistral, nemotron and phi4 do not state (spans, offsets, large inputs,
// the scan around them).

// extract runs Extract with sequential IDs and checks the contract.
func extract(in string) leaked.Result {
	GinkgoHelper()
	r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
	checkProperties(in, r)
	return r
}

// calls returns "name arguments" for each call.
func callsOf(r leaked.Result) []string {
	var out []string
	for _, c := range r.Calls {
		out = append(out, c.Name+" "+string(c.Arguments))
	}
	return out
}

var _ = Describe("Llama 3 JSON calls", func() {
	It("removes the tag, the calls and the end token, and nothing else", func() {
		in := `ok <|python_tag|>{"name": "a", "parameters": {"x": 1}}; {"name": "b", "parameters": {}} <|eom_id|> after`
		r := extract(in)
		Expect(callsOf(r)).To(Equal([]string{`a {"x":1}`, `b {}`}))
		Expect(r.Removed).To(Equal([]leaked.Span{{Offset: 3, Length: strings.Index(in, " after") - 3}}))
		Expect(*r.Content).To(Equal("ok  after"))
	})

	It("lists a broken block from its tag through its end token", func() {
		in := `x <|python_tag|>{"name": "a", "parameters": {"x": }}<|eot_id|> y`
		r := extract(in)
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Dropped[0].Offset).To(Equal(2))
		Expect(r.Dropped[0].Raw).To(Equal(`<|python_tag|>{"name": "a", "parameters": {"x": }}<|eot_id|>`))
		Expect(*r.Content).To(Equal("x  y"))
	})

	It("resumes after well-formed JSON that is no call, so a tag in its strings is data", func() {
		in := `<|python_tag|>{"q": "<tool_call>{\"name\": \"x\"}</tool_call>"}`
		r := extract(in)
		Expect(r.Calls).To(BeEmpty())
		Expect(*r.Content).To(Equal(in))
	})

	It("removes the calls before a broken value as one block and the broken value as another", func() {
		in := `ok <|python_tag|>{"name": "a", "parameters": {}}; {"name": "b", "parameters": {"x": 1` + "\n"
		r := extract(in)
		Expect(callsOf(r)).To(Equal([]string{`a {}`}))
		at := strings.Index(in, `{"name": "b"`)
		Expect(r.Removed).To(Equal([]leaked.Span{{Offset: 3, Length: at - 3}, {Offset: at, Length: len(in) - at}}))
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Dropped[0].Offset).To(Equal(at))
	})

	It("drops the whole block when no call comes before the broken value", func() {
		in := `<|python_tag|>{"q": 1}; {"name": "b", "parameters": {`
		r := extract(in)
		Expect(r.Calls).To(BeEmpty())
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Dropped[0].Raw).To(Equal(in))
	})

	It("leaves a ';' that no value follows as text", func() {
		r := extract(`<|python_tag|>{"name": "a", "parameters": {}}; and then I stop`)
		Expect(callsOf(r)).To(Equal([]string{`a {}`}))
		Expect(*r.Content).To(Equal("; and then I stop"))
	})
})

var _ = Describe("Llama 3.1's <function=NAME>{...} calls", func() {
	It("removes the tag, the closing tag and the end token", func() {
		in := `a <FUNCTION=get_time>{}</function> <|eom_id|> b`
		r := extract(in)
		Expect(callsOf(r)).To(Equal([]string{`get_time {}`}))
		Expect(*r.Content).To(Equal("a  b"))
	})

	It("leaves Qwen3-Coder's parameters to the XML form", func() {
		r := extract("<function=a>\n<parameter=x>\n1\n</parameter>\n</function>")
		Expect(callsOf(r)).To(Equal([]string{`a {"x":1}`}))
		Expect(r.Patterns).To(Equal([]string{"<function=>"}))
	})

	DescribeTable("leaves the tag as text when no JSON object follows it",
		func(in string) {
			Expect(*extract(in).Content).To(Equal(in))
		},
		Entry("a name longer than 64 bytes", "<function="+strings.Repeat("n", 65)+`>{"x": 1}</function>`),
		Entry("an object that does not start as JSON", `<function=f>{x: 1}</function>`),
		Entry("an array", `<function=f>["x"]</function>`),
		Entry("a name with a space", `<function=get weather>{"x": 1}</function>`),
		Entry("the tag cut off", `<function=f`),
	)
})

var _ = Describe("A message of bare JSON calls", func() {
	It("starts its span at the JSON, after the leading white space", func() {
		in := "\n  " + `{"name": "a", "parameters": {"x": 1}}` + "\n"
		r := extract(in)
		Expect(r.Removed).To(Equal([]leaked.Span{{Offset: 3, Length: len(in) - 4}}))
		Expect(r.Content).To(BeNil())
	})

	It("is not a call when one value is not, and the scan goes on over the text", func() {
		in := `{"name": "a", "parameters": {}}; {"x": 1} <tool_call>{"name": "b"}</tool_call>`
		r := extract(in)
		Expect(callsOf(r)).To(Equal([]string{`b {}`}))
		Expect(*r.Content).To(Equal(`{"name": "a", "parameters": {}}; {"x": 1}`))
	})

	It("is not a call when text follows it; a wrapper after it is still read", func() {
		in := `{"name": "a", "parameters": {}} then <tool_call>{"name": "b"}</tool_call>`
		r := extract(in)
		Expect(callsOf(r)).To(Equal([]string{`b {}`}))
		Expect(*r.Content).To(Equal(`{"name": "a", "parameters": {}} then`))
	})

	It("needs every value to name its arguments", func() {
		in := `{"name": "a", "parameters": {}} {"name": "b"}`
		Expect(*extract(in).Content).To(Equal(in))
	})

	It("keeps a 1 MiB JSON object that is no call byte-identical", func() {
		in := `{"name": "report", "body": "` + strings.Repeat("lorem ipsum ", 1<<20/12) + `"}`
		r := extract(in)
		Expect(r.Calls).To(BeEmpty())
		Expect(*r.Content == in).To(BeTrue())
	})

	It("recovers a long run of calls separated by ';', in order", func() {
		var b strings.Builder
		for k := range 5000 {
			if k > 0 {
				b.WriteString("; ")
			}
			b.WriteString(`{"name": "f` + string(rune('a'+k%26)) + `", "parameters": {"k": 1}}`)
		}
		r := extract(b.String())
		Expect(r.Calls).To(HaveLen(5000))
		Expect(r.Calls[27].Name).To(Equal("fb"))
		Expect(r.Patterns).To(Equal([]string{"{json}"}))
	})

	It("reports repairs at the JSON's offset", func() {
		r := extract(` {"name": "a", "parameters": {"x": 1,}}`)
		Expect(r.Repairs).To(Equal([]leaked.Repair{{Pattern: "{json}", Offset: 1, Kind: leaked.RepairTrailingComma}}))
	})
})

var _ = Describe("Mistral calls", func() {
	It("ends a broken call at the next opener, so the wrapper after it is read", func() {
		in := `[TOOL_CALLS][{"name": "a", "arguments": {` + "\n" + `<tool_call>{"name": "b"}</tool_call>`
		r := extract(in)
		Expect(callsOf(r)).To(Equal([]string{`b {}`}))
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Dropped[0].Raw).To(Equal(`[TOOL_CALLS][{"name": "a", "arguments": {` + "\n"))
	})

	It("lists a broken call of the newer form from its token to the next one", func() {
		in := `x [TOOL_CALLS]a[ARGS]{"k": tru [TOOL_CALLS]b[ARGS]{}`
		r := extract(in)
		Expect(callsOf(r)).To(Equal([]string{`b {}`}))
		Expect(r.Dropped[0].Offset).To(Equal(2))
		Expect(r.Dropped[0].Raw).To(Equal(`[TOOL_CALLS]a[ARGS]{"k": tru `))
		Expect(*r.Content).To(Equal("x"))
	})

	It("reports repairs at the token's offset", func() {
		r := extract(`ok [TOOL_CALLS]a[ARGS]{"x": 1,}</s>`)
		Expect(callsOf(r)).To(Equal([]string{`a {"x":1}`}))
		Expect(r.Repairs).To(Equal([]leaked.Repair{{Pattern: "[TOOL_CALLS]", Offset: 3, Kind: leaked.RepairTrailingComma}}))
		Expect(*r.Content).To(Equal("ok"))
	})

	DescribeTable("leaves the token as text when no call follows it",
		func(in string) {
			Expect(*extract(in).Content).To(Equal(in))
		},
		Entry("a name longer than 64 bytes", "[TOOL_CALLS]"+strings.Repeat("n", 65)+`[ARGS]{"x": 1}`),
		Entry("a call id without [ARGS]", `[TOOL_CALLS]a[CALL_ID]abc123456{"x": 1}`),
		Entry("a name and the end of input", "[TOOL_CALLS]get_weather"),
		Entry("a name and prose", "[TOOL_CALLS]get_weather is the tool"),
		Entry("the token at the end", "call it with [TOOL_CALLS]"),
		Entry("[ARGS] alone", `[TOOL_CALLS][ARGS]{"x": 1}`),
	)

	It("drops only the tokens when [ARGS] is followed by a bracket that is no JSON", func() {
		r := extract(`[TOOL_CALLS]a[ARGS][see the docs] for it`)
		Expect(r.Calls).To(BeEmpty())
		Expect(r.Dropped[0].Raw).To(Equal(`[TOOL_CALLS]a[ARGS]`))
		Expect(*r.Content).To(Equal("[see the docs] for it"))
	})
})

var _ = Describe("Phi-4-mini calls", func() {
	It("lists a broken block through its <|end|>", func() {
		in := `x functools[{"name": "a", "arguments": {<|end|> next`
		r := extract(in)
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Dropped[0].Offset).To(Equal(2))
		Expect(r.Dropped[0].Raw).To(Equal(`functools[{"name": "a", "arguments": {<|end|>`))
		Expect(*r.Content).To(Equal("x  next"))
	})

	It("ends a broken block at the next opener, so the wrapper after it is read", func() {
		r := extract(`functools[{"name": "a", "arguments": <tool_call>{"name": "b"}</tool_call>`)
		Expect(callsOf(r)).To(Equal([]string{`b {}`}))
		Expect(r.Dropped[0].Raw).To(Equal(`functools[{"name": "a", "arguments": `))
	})

	DescribeTable("leaves functools as text when no array of objects follows",
		func(in string) {
			Expect(*extract(in).Content).To(Equal(in))
		},
		Entry("white space before the bracket", `functools [{"name": "a", "arguments": {}}]`),
		Entry("a bracket with no object", `functools["a"]`),
		Entry("the needle at the end", "import functools["),
		Entry("an array of arrays", `functools[[{"name": "a"}]]`),
	)
})

var _ = Describe("Nemotron calls", func() {
	It("removes an unclosed block whose closing tag is cut off at the end of input", func() {
		r := extract(`ok <TOOLCALL>[{"name": "a", "arguments": {}}]</TOOLC`)
		Expect(callsOf(r)).To(Equal([]string{`a {}`}))
		Expect(*r.Content).To(Equal("ok"))
	})

	It("lists a broken block through its closing tag", func() {
		in := `<TOOLCALL>[{"name": "a", "arguments": {]</TOOLCALL> after`
		r := extract(in)
		Expect(r.Dropped[0].Raw).To(Equal(`<TOOLCALL>[{"name": "a", "arguments": {]</TOOLCALL>`))
		Expect(*r.Content).To(Equal("after"))
	})
})

// jsonFamiliesSeeds are small adversarial units of the JSON-bodied families
// for FuzzExtract: unclosed tokens, repeated openers, truncated bodies.
var jsonFamiliesSeeds = func() []string {
	units := []string{
		"<|python_tag|>", "<|python_tag|>{", `<|python_tag|>{"name":"a","parameters":{}};`, `<|python_tag|>{"s":"`,
		`<|python_tag|>{"name":"a"}<|eom_id|>`, "<|python_start|>{", `{"name":"a","parameters":{}};`, `{"name":"a","parameters":{}} `,
		"<|eot_id|><|eom_id|>", "; ;",
		"[TOOL_CALLS]", "[TOOL_CALLS][", "[TOOL_CALLS][{", "[TOOL_CALLS]a[ARGS]", "[TOOL_CALLS]a[ARGS]{", `[TOOL_CALLS]a[ARGS]{"s":"`,
		"[TOOL_CALLS]a[CALL_ID]", "[TOOL_CALLS]a[CALL_ID]b[ARGS]", `[TOOL_CALLS]a{"x":1}</s>`, "[ARGS]", "</s>",
		`<|python_tag|>{"name":"a","parameters":{}};{"name":"b","parameters":{"x":`, "[/TOOL_CALLS]", `[{"name":"a","arguments":{}}][/TOOL_CALLS]`,
		"<function=a>{", `<function=a>{"`, `<function=a>{"x":1}</function>`, "<function=", "</function>",
		"functools[", "functools[{", `functools[{"name":"a","arguments":{}}`, `functools[{"s":"`, "functools", "<|end|>",
		"<TOOLCALL>", "<TOOLCALL>[", "<TOOLCALL>[{", `<TOOLCALL>[{"name":"a","arguments":{}}]`, "</TOOLCALL>",
	}
	out := []string{
		`{"name":"a","parameters":{"x":1}}; {"name":"b","arguments":{}}<|eot_id|>`,
		`[{"name":"a","arguments":{"x":1},"id":"abc123456"}]</s>`,
		`<|python_tag|>{"name":"a","parameters":{"x":1}}; {"q":1}<|eom_id|> text`,
		`<|python_start|>{"name":"a","parameters":{}}<|python_end|><|eom|>`,
		`[TOOL_CALLS]a[ARGS]{"x":1}[TOOL_CALLS]b[CALL_ID]abc123456[ARGS]{}</s>`,
		"[TOOL_CALLS]" + strings.Repeat("n", 70) + "[ARGS]{}",
		`functools[{"name":"a","arguments":{"x":1}},{"name":"b","arguments":{}}]<|end|>`,
		`<TOOLCALL>[{"name":"a","arguments":{"x":1}}]</TOOLCALL><toolcall>[{"name":"b"}]`,
	}
	for _, u := range units {
		out = append(out, strings.Repeat(u, 40))
	}
	return out
}()
