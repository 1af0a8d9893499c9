package leaked_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

// harmonySeeds are small adversarial units of gpt-oss harmony for
// FuzzExtract: unclosed headers, repeated openers, truncated contents,
// stripped needles without a body.
var harmonySeeds = func() []string {
	units := []string{
		"<|start|>", "<|start|>assistant", "<|channel|>", "<|channel|>analysis<|message|>",
		"<|channel|>commentary to=functions.a<|message|>", "<|channel|>commentary to=functions.a<|message|>{",
		`<|channel|>commentary to=functions.a <|constrain|>json<|message|>{"s":"`,
		`<|channel|>commentary to=functions.a <|constrain|>json<|message|>{"x":1}<|ca`,
		"to=functions.", "to=functions.a ", "to=functions.a json", "to=functions.a json{", `to=functions.a json{"s":"\"`,
		"assistantcommentary to=functions.", "commentary to=functions.ajson", "<|constrain|>json<|message|>",
		`to=functions.a{"x":1}<|call|>`, "<|end|><|call|><|return|>",
	}
	var out []string
	for _, u := range units {
		out = append(out, strings.Repeat(u, 40))
	}
	return append(out,
		"<|channel|>analysis<|message|>"+strings.Repeat(`to=functions.a json{"x":1} `, 10),
		"<|channel|>commentary to=functions."+strings.Repeat("a", 200)+`<|message|>{}`,
		`<|channel|>commentary to=functions.a<|message|>`+strings.Repeat("[", 100),
		strings.Repeat(`<|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json<|message|>{"x":1}<|call|>`, 10),
	)
}()

// harmonyWeather is the call message of get_weather for Paris, as gpt-oss
// writes it.
const harmonyWeather = `<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>`

// harmonyExtract runs Extract with sequential IDs and checks the contract.
func harmonyExtract(in string, opts leaked.Options) leaked.Result {
	GinkgoHelper()
	opts.Sources = seqIDs()
	r := leaked.Extract(in, opts)
	Expect(leaked.Check(in, r)).To(Succeed())
	return r
}

// harmonyNames returns the names of the calls of r.
func harmonyNames(r leaked.Result) []string {
	var names []string
	for _, c := range r.Calls {
		names = append(names, c.Name)
	}
	return names
}

var _ = Describe("gpt-oss harmony", func() {
	It("removes the call message alone, from its <|start|> to its <|call|>", func() {
		analysis := "<|channel|>analysis<|message|>Need the weather.<|end|>"
		r := harmonyExtract(analysis+harmonyWeather+"\n", leaked.Options{})
		Expect(r.Removed).To(Equal([]leaked.Span{{Offset: len(analysis), Length: len(harmonyWeather)}}))
		Expect(*r.Content).To(Equal(analysis))
		Expect(string(r.Calls[0].Arguments)).To(Equal(`{"city":"Paris"}`))
	})

	It("lists a broken call whole: offset, raw text through its <|call|>, reason", func() {
		broken := `<|channel|>commentary to=functions.a <|constrain|>json<|message|>{"x": }<|call|>`
		in := "ok " + broken + " rest"
		r := harmonyExtract(in, leaked.Options{})
		Expect(r.Dropped).To(HaveLen(1))
		d := r.Dropped[0]
		Expect([]any{d.Pattern, d.Offset, d.Raw}).To(Equal([]any{"<|channel|>", 3, broken}))
		Expect(d.Reason).To(HavePrefix("invalid JSON: "))
		Expect(*r.Content).To(Equal("ok  rest"))
	})

	DescribeTable("a broken call never swallows the block after it",
		func(next, name string) {
			in := `<|channel|>commentary to=functions.a <|constrain|>json<|message|>{"x": ` + next
			r := harmonyExtract(in, leaked.Options{})
			Expect(r.Dropped).To(HaveLen(1))
			Expect(harmonyNames(r)).To(Equal([]string{name}))
		},
		Entry("a wrapper", `<tool_call>{"name":"b"}</tool_call>`, "b"),
		Entry("a stripped call", ` assistantcommentary to=functions.c json{"y":1}`, "c"),
		Entry("a message header", `<|channel|>commentary to=functions.d<|message|>{}`, "d"),
	)

	DescribeTable("the end of a call message",
		func(after, content string) {
			r := harmonyExtract(`<|channel|>commentary to=functions.a<|message|>{"x":1}`+after, leaked.Options{})
			Expect(harmonyNames(r)).To(Equal([]string{"a"}))
			if content == "" {
				Expect(r.Content).To(BeNil())
			} else {
				Expect(*r.Content).To(Equal(content))
			}
		},
		Entry("<|call|> after white space", " \n<|call|>", ""),
		Entry("<|end|>", "<|end|>", ""),
		Entry("<|return|>", "<|return|>", ""),
		Entry("a token cut to <|", "<|", ""),
		Entry("a token cut to <|re", "<|re", ""),
		Entry("an end token after text stays with the text", " ok<|call|>", "ok<|call|>"),
		Entry("a second JSON value stays", `{"y":2}<|call|>`, `{"y":2}<|call|>`),
	)

	It("recovers a function call on the analysis channel: the recipient makes it a call", func() {
		r := harmonyExtract(`<|channel|>analysis to=functions.lookup <|constrain|>json<|message|>{"q":"x"}<|call|>`, leaked.Options{})
		Expect(harmonyNames(r)).To(Equal([]string{"lookup"}))
	})

	It("does not scan an analysis message, up to its <|end|> or the next header", func() {
		in := `<|channel|>analysis<|message|><tool_call>{"name":"a"}</tool_call><|start|>assistant<|channel|>commentary<|message|><tool_call>{"name":"b"}</tool_call>`
		r := harmonyExtract(in, leaked.Options{})
		Expect(harmonyNames(r)).To(Equal([]string{"b"}))
	})

	It("hides the rest of the text behind an analysis message that is never ended, as an unclosed <think>", func() {
		in := `<|channel|>analysis<|message|>thinking <tool_call>{"name":"a"}</tool_call>`
		r := harmonyExtract(in, leaked.Options{})
		Expect(r.Calls).To(BeEmpty())
		Expect(*r.Content).To(Equal(in))
	})

	It("does not scan again the needles inside a recovered call's JSON", func() {
		in := `to=functions.note json{"text":"then to=functions.x json{\"y\":1}"}`
		r := harmonyExtract(in, leaked.Options{})
		Expect(harmonyNames(r)).To(Equal([]string{"note"}))
		Expect(r.Content).To(BeNil())
	})

	It("recovers stripped calls written back to back", func() {
		in := `analysisTwo calls.assistantcommentary to=functions.a json{"x":1}assistantcommentary to=functions.b json{"y":2}`
		r := harmonyExtract(in, leaked.Options{})
		Expect(harmonyNames(r)).To(Equal([]string{"a", "b"}))
		Expect(*r.Content).To(Equal("analysisTwo calls."))
	})

	DescribeTable("headers that are not call headers stay text",
		func(in string) {
			r := harmonyExtract(in, leaked.Options{})
			Expect(r.Calls).To(BeEmpty())
			Expect(r.Removed).To(BeEmpty())
		},
		Entry("no recipient", `<|channel|>commentary json<|message|>{"x":1}<|call|>`),
		Entry("an empty recipient", `<|channel|>commentary to= json<|message|>{"x":1}<|call|>`),
		Entry("a recipient functions. without a name", `<|channel|>commentary to=functions. json<|message|>{"x":1}<|call|>`),
		Entry("a role other than the assistant", `<|start|>user to=functions.a<|channel|>commentary<|message|>{"x":1}<|end|>`),
		Entry("a built-in tool's recipient", `<|channel|>analysis to=python code<|message|>{"code":"to=functions.a json{}"}<|call|>`),
		Entry("a name longer than 128 bytes", `<|channel|>commentary to=functions.`+strings.Repeat("n", 130)+`<|message|>{"x":1}<|call|>`),
		Entry("a word that is not part of a header", `<|channel|>commentary to=functions.a please<|message|>{"x":1}<|call|>`),
		Entry("a string content", `<|channel|>commentary to=functions.a<|message|>"x"<|call|>`),
		Entry("an empty content at the end of input", `<|channel|>commentary to=functions.a <|constrain|>json<|message|>`),
		Entry("a header cut before <|message|>", `<|channel|>commentary to=functions.a <|constrain|>json`),
		Entry("a stripped call in inline code", "`to=functions.a json{\"x\":1}`"),
		Entry("a stripped call in a fenced block", "```\ncommentary to=functions.a json{\"x\":1}\n```"),
		Entry("a stripped recipient followed by punctuation", `to=functions.a, {"x":1}`),
	)

	It("reads a header whose channel is given twice from its second <|channel|>", func() {
		in := `<|channel|>commentary<|channel|>commentary to=functions.a<|message|>{}<|call|>`
		r := harmonyExtract(in, leaked.Options{})
		Expect(harmonyNames(r)).To(Equal([]string{"a"}))
		Expect(*r.Content).To(Equal("<|channel|>commentary"))
	})

	DescribeTable("stripped names",
		func(in, tools, want string) {
			var opts leaked.Options
			if tools != "" {
				var err error
				opts.Tools, err = leaked.ParseTools([]byte(tools))
				Expect(err).NotTo(HaveOccurred())
			}
			r := harmonyExtract(in, opts)
			Expect(harmonyNames(r)).To(Equal([]string{want}))
		},
		Entry("the name ends at white space", `to=functions.get_weather json{}`, "", "get_weather"),
		Entry("json fused to the brace is cut", `to=functions.get_weatherjson{}`, "", "get_weather"),
		Entry("json fused after white space is part of the name", `to=functions.get_weatherjson {}`, "", "get_weatherjson"),
		Entry("commentary fused before the content type is cut", `to=functions.get_weathercommentary json{}`, "", "get_weather"),
		Entry("commentary and json fused are both cut", `to=functions.get_weathercommentaryjson{}`, "", "get_weather"),
		Entry("a name that is only the suffix is kept", `to=functions.json{}`, "", "json"),
		Entry("a name before a token left in place is not cut", `to=functions.add_commentary<|message|>{}`, "", "add_commentary"),
		Entry("the tool list keeps a declared name whole", `to=functions.to_json{}`, `[{"name":"to_json"}]`, "to_json"),
		Entry("the tool list keeps a declared commentary name", `to=functions.add_commentary json{}`, `[{"name":"add_commentary"}]`, "add_commentary"),
		Entry("the tool list picks the declared cut name", `to=functions.xjson{}`, `[{"name":"x"},{"name":"y"}]`, "x"),
		Entry("an undeclared name follows the rule", `to=functions.to_json{}`, `[{"name":"other"}]`, "to_"),
	)

	It("keeps the stripped prefix words with the block, and nothing before them", func() {
		in := `I will. assistant to=functions.a json{"x":1}`
		r := harmonyExtract(in, leaked.Options{})
		Expect(r.Removed).To(Equal([]leaked.Span{{Offset: len("I will. "), Length: len(in) - len("I will. ")}}))
		Expect(r.Patterns).To(Equal([]string{"to=functions."}))
	})

	It("is not changed by Options.Pythonic", func() {
		in := `[note] ` + harmonyWeather
		Expect(harmonyExtract(in, leaked.Options{Pythonic: true}).Calls).To(HaveLen(1))
	})
})
