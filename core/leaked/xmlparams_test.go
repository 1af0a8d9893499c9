package leaked_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

var _ = Describe("XML-parameter calls", func() {
	DescribeTable("parameter values",
		func(value, want string) {
			in := "<function=t><parameter=v>" + value + "</parameter></function>"
			r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
			checkProperties(in, r)
			Expect(r.Calls).To(HaveLen(1))
			Expect(string(r.Calls[0].Arguments)).To(Equal(`{"v":` + want + `}`))
		},
		Entry("a word is a string", "Paris", `"Paris"`),
		Entry("one newline each side is stripped", "\nParis\n", `"Paris"`),
		Entry("only one newline each side is stripped", "\n\nParis\n\n", `"\nParis\n"`),
		Entry("CRLF counts as one newline", "\r\nParis\r\n", `"Paris"`),
		Entry("other white space is kept in strings", "  Paris ", `"  Paris "`),
		Entry("an integer is a number", "42", `42`),
		Entry("a number may have white space around it", "\n 42 \n", `42`),
		Entry("a JSON number keeps its digits", "123456789012345678901234567890", `123456789012345678901234567890`),
		Entry("an exponent is a number", "-1.5e3", `-1.5e3`),
		Entry("a leading zero is a string", "007", `"007"`),
		Entry("a plus sign is a string", "+1", `"+1"`),
		Entry("a bare point is a string", ".5", `".5"`),
		Entry("a lone minus is a string", "-", `"-"`),
		Entry("a trailing point is a string", "1.", `"1."`),
		Entry("an exponent without digits is a string", "1e+", `"1e+"`),
		Entry("two numbers are a string", "1 2", `"1 2"`),
		Entry("a tab between digits is a string", "4\t2", `"4\t2"`),
		Entry("true is a boolean", "true", `true`),
		Entry("false is a boolean", "\nfalse\n", `false`),
		Entry("True is a string", "True", `"True"`),
		Entry("null is a string", "null", `"null"`),
		Entry("an object is JSON", "{\"a\": [1, 2]}", `{"a":[1,2]}`),
		Entry("an array is JSON", "\n[1, \"x\"]\n", `[1,"x"]`),
		Entry("a broken object is a string", "{\"a\": 1", `"{\"a\": 1"`),
		Entry("a JSON string is a string, quotes included", `"hi"`, `"\"hi\""`),
		Entry("empty is an empty string", "", `""`),
		Entry("markup is kept verbatim, not escaped", "a < b && <b>c</b>", `"a < b && <b>c</b>"`),
		Entry("entities are not decoded", "&lt;tag&gt;", `"&lt;tag&gt;"`),
		Entry("a value may hold </parameter> itself", "\necho \"</parameter>\" done\n", `"echo \"</parameter>\" done"`),
	)

	DescribeTable("broken or recoverable",
		func(in, want string) { Expect(outcome(in)).To(Equal(want)) },
		Entry("no </function> at the end of input: recoverable", "<function=a><parameter=x>1</parameter>", "call"),
		Entry("a cut-off </function>: recoverable", "<function=a><parameter=x>1</parameter></func", "call"),
		Entry("no </function> before text: recoverable", "<function=a><parameter=x>1</parameter> and more", "call"),
		Entry("no parameters", "<function=a></function>", "call"),
		Entry("a parameter closed by </function>: recoverable", "<function=a><parameter=x>1</function>", "call"),
		Entry("a parameter cut off by the end of input: broken", "<function=a><parameter=x>1", "dropped"),
		Entry("a parameter closed by the next parameter tag: recoverable", "<function=a><parameter=x>1<parameter=y>2</parameter></function>", "call"),
		Entry("a malformed parameter tag: broken", "<function=a><parameter=x>1</parameter><parameter=>2</parameter></function>", "dropped"),
		Entry("an empty name is prose", "<function=><parameter=x>1</parameter></function>", "kept"),
		Entry("a name across lines is prose", "<function=a\nb><parameter=x>1</parameter></function>", "kept"),
		Entry("no parameter after the tag is prose", "<function=a> then </function>", "kept"),
		Entry("an opening tag at the end is prose", "<function=a>", "kept"),
		Entry("an invoke with no parameters", `<invoke name="a"></invoke>`, "call"),
		Entry("single quotes", `<invoke name='a'><parameter name='x'>1</parameter></invoke>`, "call"),
		Entry("an invoke holding text is prose", `<invoke name="a">hello</invoke>`, "kept"),
		Entry("an invoke without a name is prose", `<invoke name=""><parameter name="x">1</parameter></invoke>`, "kept"),
		Entry("an unquoted invoke name is prose", `<invoke name=a><parameter name="x">1</parameter></invoke>`, "kept"),
		Entry("a broken invoke", `<invoke name="a"><parameter name="x">1</invoke>`, "dropped"),
	)

	It("reads several calls in one wrapper, of both shapes", func() {
		in := "<tool_call>\n<function=a>\n<parameter=x>\n1\n</parameter>\n</function>\n<invoke name=\"b\">\n<parameter name=\"y\">2</parameter>\n</invoke>\n</tool_call>"
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Calls).To(HaveLen(2))
		Expect(string(r.Calls[0].Arguments)).To(Equal(`{"x":1}`))
		Expect(string(r.Calls[1].Arguments)).To(Equal(`{"y":2}`))
		Expect(r.Patterns).To(Equal([]string{"<tool_call>", "<function=>", "<invoke>"}))
		Expect(r.Content).To(BeNil())
	})

	It("does not look inside code or thinking", func() {
		in := "<think><function=a><parameter=x>1</parameter></function></think>\n`<function=b></function>`\n```\n<function=c></function>\n```\n"
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Calls).To(BeEmpty())
		Expect(r.Content).To(HaveValue(Equal(in)))
	})
})
