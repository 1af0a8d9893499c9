package leaked_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

// glmSeeds are small adversarial GLM inputs for FuzzExtract.
var glmSeeds = []string{
	"<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
	"<tool_call>a<arg_key>x</arg_key><arg_value>1</arg_value><arg_key>y</arg_key><arg_value>{\"k\":[1]}</arg_value></tool_call>",
	strings.Repeat("<tool_call>a<arg_key>", 30),
	strings.Repeat("<tool_call>a<arg_key>x</arg_key><arg_value>", 30),
	strings.Repeat("<tool_call>a<arg_key>x</arg_key>", 30),
	strings.Repeat("<tool_call>a</tool_call>", 30),
	strings.Repeat("<arg_key>x</arg_key><arg_value>1</arg_value>", 30),
	"<tool_call>a<arg_key>x</arg_key><arg_value>1</arg_value>" + strings.Repeat("<arg_value>", 20),
	"<tool_call>" + strings.Repeat("n", 200) + "<arg_key>x</arg_key><arg_value>1</arg_value></tool_call>",
	"<tool_calls><tool_call>a<arg_key>x</arg_key><arg_value>1</arg_value></tool_call><tool_call>b<arg_key>",
	"<think><tool_call>a<arg_key>x</arg_key><arg_value>1</arg_value></tool_call></think><tool_call>b<arg_key>y</arg_key><arg_value>2</arg_value>",
}

// glmTools declares get_time (no parameters) and typed parameters of f.
func glmTools() leaked.Tools {
	GinkgoHelper()
	t, err := leaked.ParseTools([]byte(`[{"type":"function","function":{"name":"get_time","parameters":{"type":"object","properties":{}}}},
		{"name":"f","input_schema":{"type":"object","properties":{"zip":{"type":"string"},"n":{"type":"integer"},"o":{"type":"object"}}}}]`))
	Expect(err).NotTo(HaveOccurred())
	return t
}

var _ = Describe("GLM calls", func() {
	DescribeTable("what is a GLM call",
		func(in string, want []string) {
			Expect(qwenArgs(in, leaked.Options{})).To(Equal(want))
		},
		Entry("GLM-4.7: no white space between the parts",
			"<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>",
			[]string{`get_weather {"city":"Paris"}`}),
		Entry("GLM-4.5: each part on its line",
			"<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
			[]string{`get_weather {"city":"Paris"}`}),
		Entry("a key is trimmed", "<tool_call>f<arg_key> k \n</arg_key><arg_value>v</arg_value></tool_call>",
			[]string{`f {"k":"v"}`}),
		Entry("a value may hold </tool_call> and markup",
			"<tool_call>write<arg_key>text</arg_key><arg_value>say </tool_call> & <b></arg_value></tool_call>",
			[]string{`write {"text":"say </tool_call> & <b>"}`}),
		Entry("tags are case-insensitive", "<TOOL_CALL>f<ARG_KEY>k</ARG_KEY><ARG_VALUE>1</ARG_VALUE></TOOL_CALL>",
			[]string{`f {"k":1}`}),
		Entry("a name of 128 bytes", "<tool_call>"+strings.Repeat("n", 128)+"<arg_key>k</arg_key><arg_value>1</arg_value></tool_call>",
			[]string{strings.Repeat("n", 128) + ` {"k":1}`}),
		Entry("a repeated key keeps its first place and its last value",
			"<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value><arg_key>b</arg_key><arg_value>2</arg_value><arg_key>a</arg_key><arg_value>3</arg_value></tool_call>",
			[]string{`f {"a":3,"b":2}`}),
	)

	DescribeTable("what is no GLM call, in a closed wrapper: removed and listed",
		func(in string) { Expect(outcome(in)).To(Equal("dropped")) },
		Entry("prose in a wrapper", "<tool_call> hello </tool_call>"),
		Entry("a no-argument call without a tool list", "<tool_call>get_time</tool_call>"),
		Entry("a name of two words", "<tool_call>get weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>"),
		Entry("a name longer than 128 bytes", "<tool_call>"+strings.Repeat("n", 129)+"<arg_key>k</arg_key><arg_value>1</arg_value></tool_call>"),
		Entry("no name", "<tool_call><arg_key>k</arg_key><arg_value>1</arg_value></tool_call>"),
		Entry("another wrapper than <tool_call>", "<tools>f<arg_key>k</arg_key><arg_value>1</arg_value></tools>"),
	)

	DescribeTable("what stays text",
		func(in string) { Expect(outcome(in)).To(Equal("kept")) },
		Entry("GLM's tags without their wrapper (no name can be told)", "f<arg_key>k</arg_key><arg_value>1</arg_value>"),
		Entry("a name and nothing after it", "<tool_call>get_time"),
	)

	DescribeTable("broken calls are dropped whole",
		func(in, reason, content string) {
			r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
			checkProperties(in, r)
			Expect(r.Calls).To(BeEmpty())
			Expect(r.Dropped).To(HaveLen(1))
			Expect(r.Dropped[0].Reason).To(Equal(reason))
			Expect(r.Dropped[0].Pattern).To(Equal("<tool_call>"))
			Expect(r.Patterns).To(Equal([]string{"<tool_call>", "<arg_key>"}))
			if content == "" {
				Expect(r.Content).To(BeNil())
			} else {
				Expect(r.Content).To(HaveValue(Equal(content)))
			}
		},
		Entry("a key without its value at the end", "<tool_call>f<arg_key>city</arg_key>", `argument "city" has no <arg_value>`, ""),
		Entry("a key without its value before </tool_call>", "<tool_call>f<arg_key>city</arg_key></tool_call> after",
			`argument "city" has no <arg_value>`, "after"),
		Entry("an unclosed value at the end", "<tool_call>f<arg_key>city</arg_key><arg_value>Par", `argument "city" is not closed by </arg_value>`, ""),
		Entry("an unclosed value before the next key",
			"<tool_call>f<arg_key>a</arg_key><arg_value>1<arg_key>b</arg_key><arg_value>2</arg_value></tool_call>",
			`argument "a" is not closed by </arg_value>`, ""),
		Entry("an unclosed key", "<tool_call>f<arg_key>city<arg_value>Paris</arg_value></tool_call>", "an <arg_key> not closed by </arg_key>", ""),
		Entry("a value without its key",
			"<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value><arg_value>2</arg_value></tool_call>",
			"an <arg_value> without its <arg_key>", ""),
	)

	It("does not let a broken call swallow the next one", func() {
		in := "<tool_call>f<arg_key>a</arg_key><arg_value>1\n<tool_call>g<arg_key>b</arg_key><arg_value>2</arg_value></tool_call>"
		Expect(qwenArgs(in, leaked.Options{})).To(Equal([]string{`g {"b":2}`}))
	})

	Describe("with a tool list", func() {
		It("recovers a no-argument call of a declared tool only", func() {
			in := "<tool_call>get_time</tool_call>\n<tool_call>hello</tool_call>"
			r := leaked.Extract(in, leaked.Options{Sources: seqIDs(), Tools: glmTools()})
			Expect(leaked.Check(in, r)).To(Succeed())
			Expect(r.Calls).To(HaveLen(1))
			Expect(r.Calls[0].Name).To(Equal("get_time"))
			Expect(string(r.Calls[0].Arguments)).To(Equal(`{}`))
			Expect(r.Content).To(BeNil(), "a word the list does not declare: a closed wrapper without a call")
			Expect(r.Dropped).To(HaveLen(1))
			Expect(r.Patterns).To(Equal([]string{"<tool_call>"}))
		})

		It("types the values by the declared types, the others by the rule", func() {
			in := "<tool_call>f<arg_key>zip</arg_key><arg_value>007</arg_value><arg_key>n</arg_key><arg_value>7</arg_value>" +
				"<arg_key>o</arg_key><arg_value>{\"a\": 1}</arg_value><arg_key>u</arg_key><arg_value>true</arg_value></tool_call>"
			Expect(qwenArgs(in, leaked.Options{Tools: glmTools()})).To(Equal([]string{`f {"zip":"007","n":7,"o":{"a":1},"u":true}`}))
			in = strings.Replace(in, "007", "42", 1)
			Expect(qwenArgs(in, leaked.Options{Tools: glmTools()})).To(Equal([]string{`f {"zip":"42","n":7,"o":{"a":1},"u":true}`}))
			Expect(qwenArgs(in, leaked.Options{})).To(Equal([]string{`f {"zip":42,"n":7,"o":{"a":1},"u":true}`}))
		})
	})
})
