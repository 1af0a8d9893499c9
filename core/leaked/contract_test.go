package leaked_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

// extractContract runs Extract with deterministic IDs and checks the contract.
func extractContract(in string) leaked.Result {
	GinkgoHelper()
	r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
	checkProperties(in, r)
	return r
}

var _ = Describe("Contract: dropped raw is the removed text", func() {
	DescribeTable("raw is the whole span removed at the offset, tags included",
		func(in, raw string) {
			r := extractContract(in)
			Expect(r.Dropped).NotTo(BeEmpty())
			for _, d := range r.Dropped {
				Expect(d.Raw).To(Equal(raw))
				Expect(in[d.Offset:]).To(HavePrefix(d.Raw))
			}
		},
		Entry("a value beside a call", `Go <tool_call>[{"name": "ls"}, {"path": "/tmp"}]</tool_call> now`,
			`<tool_call>[{"name": "ls"}, {"path": "/tmp"}]</tool_call>`),
		Entry("broken arguments beside a call", "<tools>{\"name\": \"a\"}\n{\"name\": \"b\", \"arguments\": 3}</tools>",
			"<tools>{\"name\": \"a\"}\n{\"name\": \"b\", \"arguments\": 3}</tools>"),
		Entry("a repaired broken call", `<function_call>{"name": "b", "arguments": [1,],}</function_call> then`,
			`<function_call>{"name": "b", "arguments": [1,],}</function_call>`),
	)
})

var _ = Describe("Contract: tool names", func() {
	DescribeTable("are trimmed and lose chat-template tokens, nothing else",
		func(in, name string) {
			r := extractContract(in)
			Expect(r.Calls).To(HaveLen(1))
			Expect(r.Calls[0].Name).To(Equal(name))
			Expect(r.Dropped).To(BeEmpty())
		},
		Entry("white space around", `<tool_call>{"name": "  get_weather\n", "arguments": {}}</tool_call>`, "get_weather"),
		Entry("a token after", `<tool_call>{"name": "get_weather<|call|>"}</tool_call>`, "get_weather"),
		Entry("tokens around and white space", `<tool_call>{"name": "<|im_start|> search <|im_end|>"}</tool_call>`, "search"),
		Entry("a token inside", `<tool_call>{"name": "git<|x|>hub.create_issue"}</tool_call>`, "github.create_issue"),
		Entry("no other change", `<tool_call>{"name": "github.create_issue/v2 (beta)"}</tool_call>`, "github.create_issue/v2 (beta)"),
		Entry("an unclosed token stays", `<tool_call>{"name": "a<|b"}</tool_call>`, "a<|b"),
		Entry("from function", `<tool_call>{"function": " run "}</tool_call>`, "run"),
		Entry("in a JSON family", `[TOOL_CALLS][{"name": " get_time<|end|>", "arguments": {}}]`, "get_time"),
	)
	DescribeTable("a name blank after that is no call, and the block is listed",
		func(in string) {
			r := extractContract(in)
			Expect(r.Calls).To(BeEmpty())
			Expect(r.Dropped).To(HaveLen(1))
			Expect(r.Dropped[0].Raw).To(Equal(in))
		},
		Entry("only a token", `<tool_call>{"name": "<|im_end|>", "arguments": {"x": 1}}</tool_call>`),
		Entry("tokens and white space", `<tool_call>{"name": " <|a|> <|b|> ", "arguments": {}}</tool_call>`),
		Entry("unclosed wrapper", `<tool_call>{"name": "<|call|>", "arguments": {}}`),
	)
	It("lists a blank name beside a call, the call extracted", func() {
		r := extractContract(`<tool_calls>[{"name": "a"}, {"name": "<|eot|>"}]</tool_calls>`)
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Content).To(BeNil())
	})
})

var _ = Describe("Contract: an unclosed wrapper takes a close tag of another name", func() {
	DescribeTable("directly after its JSON, white space between",
		func(in, content string) {
			r := extractContract(in)
			Expect(r.Calls).To(HaveLen(1))
			if content == "" {
				Expect(r.Content).To(BeNil())
			} else {
				Expect(r.Content).To(HaveValue(Equal(content)))
			}
		},
		Entry("</tool_calls> after a <tool_call> body", `<tool_call>{"name": "a"}</tool_calls> Done.`, "Done."),
		Entry("white space between", "Sure. <tools>{\"name\": \"a\"}\n</function_call>\nDone.", "Sure. \nDone."),
		Entry("a close tag of another name cut off at the end", `<function_call>{"name": "a"} </tool_c`, ""),
		Entry("text between: the other tag stays", `<tool_call>{"name": "a"} ok </tools>`, "ok </tools>"),
		Entry("a container still closes with its own tag", `<tool_calls><tool_call>{"name": "a"}</tool_calls> x`, "x"),
	)
})

var _ = Describe("Contract: an empty wrapper", func() {
	DescribeTable("on its own changes nothing",
		func(in string) {
			r := extractContract(in)
			Expect(r.Content).To(HaveValue(Equal(in)))
			Expect(r.Dropped).To(BeEmpty())
			Expect(r.Patterns).To(BeEmpty())
		},
		Entry("empty", "Nothing: <tool_call></tool_call> here."),
		Entry("white space only", "<tools>\n \t</tools>"),
		Entry("several", "<tool_call></tool_call> and <function_call> </function_call>\n"),
	)
	DescribeTable("is removed, unlisted, when the text yields a call or a dropped block",
		func(in, content string, calls, dropped int) {
			r := extractContract(in)
			Expect(r.Calls).To(HaveLen(calls))
			Expect(r.Dropped).To(HaveLen(dropped))
			Expect(r.Content).To(HaveValue(Equal(content)))
			Expect(CheckStreamAll(in)).To(Succeed())
		},
		Entry("before a call", `A <tool_call></tool_call> B <tool_call>{"name": "a"}</tool_call> C`, "A  B  C", 1, 0),
		Entry("after a call", "<tool_call>{\"name\": \"a\"}</tool_call> B <tools>\n</tools> C", "B  C", 1, 0),
		Entry("beside a dropped block", `<tool_call>{"name": "b", "arguments": 3}</tool_call> x <tool_call> </tool_call>`, "x", 0, 1),
		Entry("in a container with a call", "<tool_calls>\n<tool_call>{\"name\": \"a\"}</tool_call>\n<tool_call></tool_call>\n</tool_calls> end", "end", 1, 0),
	)
})

// CheckStreamAll streams in through every split size the harness uses.
func CheckStreamAll(in string) error {
	for _, sizes := range [][]int{nil, {1}, {2}, {3}, {7}, {64}} {
		if err := leaked.CheckStream(in, sizes, leaked.Options{}); err != nil {
			return err
		}
	}
	return nil
}

var _ = Describe("Contract: a closed wrapper that yields no call", func() {
	DescribeTable("is removed and listed",
		func(in, content string, reasons ...string) {
			r := extractContract(in)
			Expect(r.Calls).To(BeEmpty())
			if content == "" {
				Expect(r.Content).To(BeNil())
			} else {
				Expect(r.Content).To(HaveValue(Equal(content)))
			}
			Expect(r.Dropped).To(HaveLen(len(reasons)))
			for k, want := range reasons {
				Expect(r.Dropped[k].Reason).To(ContainSubstring(want))
			}
		},
		Entry("prose", "Say <tool_call> hello </tool_call> now", "Say  now", "not JSON"),
		Entry("a bracketed word", "<tool_call>[see docs]</tool_call>", "", "not JSON"),
		Entry("a JSON string", `x <tools>"get_time"</tools>`, "x", "not JSON"),
		Entry("an empty array", "<tool_call>[]</tool_call>", "", "not JSON"),
		Entry("invalid JSON", `<tool_call>{name: "x"}</tool_call> ok`, "ok", "invalid JSON"),
		Entry("no name", `<tool_call>{"x": 1}</tool_call>`, "", "no tool name"),
		Entry("a name that is not a string", `<tool_call>{"name": 7, "arguments": {}}</tool_call>`, "", "no tool name"),
		Entry("a fenced object with no name", "<tool_call>\n```json\n{\"x\": 1}\n```\n</tool_call>", "", "no tool name"),
		Entry("text between the JSON and the closing tag", `<tool_call>{"x": 1} see </tool_call> end`, "end", "no tool name"),
		Entry("two values, neither a call", "<tool_call>{\"x\": 1}\n{\"y\": 2}</tool_call>", "", "no tool name", "no tool name"),
		Entry("a definition beside a value that is no call", `<tools>[{"name": "a", "description": "d", "parameters": {"type": "object"}}, {"q": 1}]</tools>`, "", "a tool definition", "no tool name"),
		Entry("inside a container: its tags go too", "<tool_calls>\n<tool_call>oops</tool_call>\n</tool_calls> end", "end", "not JSON"),
		Entry("a bare word without a tool list (not a GLM call)", "<tool_call>get_time</tool_call>", "", "not JSON"),
	)
	DescribeTable("stays only when it holds echoed tool definitions",
		func(in string) {
			r := extractContract(in)
			Expect(r.Content).To(HaveValue(Equal(in)))
			Expect(r.Dropped).To(BeEmpty())
		},
		Entry("one", `<tools>{"name": "a", "description": "d", "parameters": {"type": "object", "properties": {}}}</tools>`),
		Entry("a list, OpenAI shape", `<tools>[{"type": "function", "function": {"name": "a", "description": "d", "parameters": {"properties": {}}}}]</tools>`),
	)
	DescribeTable("an open tag whose closing tag belongs to a later block is not closed",
		func(in string, calls int) {
			r := extractContract(in)
			Expect(r.Calls).To(HaveLen(calls))
			Expect(*r.Content).To(HavePrefix("Use <tool_call>"))
		},
		Entry("a call follows", `Use <tool_call> like this: <tool_call>{"name": "a"}</tool_call>`, 1),
	)
})

var _ = Describe("Contract: an unclosed tag whose JSON does not complete", func() {
	DescribeTable("stays byte for byte and is not listed",
		func(in string) {
			r := extractContract(in)
			Expect(r.Content).To(HaveValue(Equal(in)))
			Expect(r.Dropped).To(BeEmpty())
			Expect(CheckStreamAll(in)).To(Succeed())
		},
		Entry("prose after broken JSON", `Use <tools>{"name": ...} to call tools, e.g. foo`),
		Entry("JSON cut off by the end", `<tool_call>{"name": "x", "arguments": {`),
		Entry("a string cut off by the end", `Calling <function_call>{"name": "search", "arguments": {"q": "go`),
		Entry("broken JSON then the next line", "<tool_call>{name: x}\nthen more text"),
	)
	It("leaves a later call to be extracted", func() {
		in := `Use <tools>{"name": ...} like <tool_call>{"name": "a"}</tool_call> done`
		r := extractContract(in)
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Dropped).To(BeEmpty())
		Expect(r.Content).To(HaveValue(Equal(`Use <tools>{"name": ...} like  done`)))
	})
	It("still drops broken JSON in a closed wrapper", func() {
		r := extractContract(`A <tool_call>{"name": ...}</tool_call> B`)
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Content).To(HaveValue(Equal("A  B")))
	})
})

var _ = Describe("Contract: Check", func() {
	DescribeTable("fails a result that keeps a closed wrapper with a body",
		func(in string) {
			Expect(leaked.Check(in, leaked.Result{Content: &in})).To(MatchError(ContainSubstring("survived")))
		},
		Entry("prose", "Say <tool_call> hello </tool_call> now"),
		Entry("a bare word", "<TOOLS>get_time</tools>"),
	)
	DescribeTable("lets through what may stay",
		func(in string) { Expect(leaked.Check(in, leaked.Result{Content: &in})).To(Succeed()) },
		Entry("an empty wrapper", "<tool_call> </tool_call>"),
		Entry("an unclosed tag", "Use <tool_call> then"),
		Entry("inside inline code", "`<tool_call>x</tool_call>`"),
		Entry("after thinking", "<think>a <tool_call>x</tool_call>"),
		Entry("after a DeepSeek token", "<｜tool▁calls▁begin｜> <tool_call>x</tool_call>"),
	)
	It("fails a dropped raw that is not the removed text", func() {
		in := "a <tool_call>{} </tool_call>"
		content := "a"
		r := leaked.Result{Content: &content, Patterns: []string{"<tool_call>"},
			Removed: []leaked.Span{{Offset: 2, Length: len(in) - 2}},
			Dropped: []leaked.Dropped{{Pattern: "<tool_call>", Offset: 2, Raw: "{}", Reason: "no tool name"}}}
		Expect(leaked.Check(in, r)).To(MatchError(ContainSubstring("not the text removed")))
	})
})
