package leaked_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

// outcome classifies what Extract did with an input holding one block.
func outcome(in string) string {
	r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
	checkProperties(in, r)
	switch {
	case len(r.Calls) > 0:
		return "call"
	case len(r.Dropped) > 0:
		return "dropped"
	case r.Content != nil && *r.Content == in:
		return "kept"
	}
	return "other"
}

var _ = Describe("What counts as an attempt at a call", func() {
	DescribeTable("one block",
		func(in, want string) { Expect(outcome(in)).To(Equal(want)) },
		Entry("prose in a closed wrapper is an attempt, listed", "<tool_call> hello </tool_call>", "dropped"),
		Entry("an empty wrapper on its own is text", "<tool_call></tool_call>", "kept"),
		Entry("an opening tag at the end is text", "see <tool_call>", "kept"),
		Entry("brackets that do not open an object, closed, are listed", "<tool_call>[see docs]</tool_call>", "dropped"),
		Entry("an empty array, closed, is listed", "<tool_call>[]</tool_call>", "dropped"),
		Entry("an array of numbers, closed, is listed", "<tool_call>[1, 2]</tool_call>", "dropped"),
		Entry("a JSON string, closed, is listed", `<tool_call>"name"</tool_call>`, "dropped"),
		Entry("an object with no name, closed, is listed", `<tool_call>{"x": 1}</tool_call>`, "dropped"),
		Entry("an object with no name, unclosed, is text", `<tool_call>{"x": 1} and more`, "kept"),
		Entry("a blank name is an attempt, listed", `<tool_call>{"name": " "}</tool_call>`, "dropped"),
		Entry("a non-string name, closed, is listed", `<tool_call>{"name": 7}</tool_call>`, "dropped"),
		Entry("a tool definition is not a call", `<tools>{"name": "a", "description": "d", "parameters": {"type": "object"}}</tools>`, "kept"),
		Entry("an OpenAI tool definition is not a call", `<tools>{"type": "function", "function": {"name": "a", "description": "d", "parameters": {"properties": {}}}}</tools>`, "kept"),
		Entry("a fenced object with no name, closed, is listed", "<tool_call>\n```json\n{\"x\": 1}\n```\n</tool_call>", "dropped"),
		Entry("a truncated object, unclosed, is text", `<tool_call>{"name": "x", "arguments": {`, "kept"),
		Entry("a truncated object, closed, is a broken call", `<tool_call>{"name": "x", "arguments": {</tool_call>`, "dropped"),
		Entry("an object with unquoted keys is a broken call", `<tool_call>{name: "x"}</tool_call>`, "dropped"),
		Entry("a truncated array of objects is a broken call", `<tool_call>[{"name": "x"</tool_call>`, "dropped"),
		Entry("a bad literal is a broken call", `<tool_call>{"name": "x", "arguments": {"a": tru}}</tool_call>`, "dropped"),
		Entry("a second value that is broken breaks the block", `<tool_call>{"name": "x"} {"name":</tool_call>`, "dropped"),
		Entry("arguments that are not an object break the call", `<tool_call>{"name": "x", "arguments": 5}</tool_call>`, "dropped"),
		Entry("a string that does not hold an object breaks the call", `<tool_call>{"name": "x", "arguments": "go"}</tool_call>`, "dropped"),
		Entry("a name and arguments make a call", `<tool_call>{"name": "x", "arguments": {"a": 1}}</tool_call>`, "call"),
		Entry("a stringified object makes a call", `<tool_call>{"name": "x", "arguments": "{\"a\": 1}"}</tool_call>`, "call"),
	)

	It("removes the closing tag of a call followed by text, and keeps the text", func() {
		r := leaked.Extract(`<tool_call>{"name": "a"} I wait. </tool_call> Next.`, leaked.Options{Sources: seqIDs()})
		Expect(r.Content).To(HaveValue(Equal("I wait.  Next.")))
		Expect(r.Dropped).To(BeEmpty())
	})
})

var _ = Describe("Containers", func() {
	It("gives each inner call once, in order, through deep nesting", func() {
		in := strings.Repeat("<tool_calls>\n", 1000) + `<tool_call>{"name": "a"}</tool_call>` + "\n" + `<tool_call>{"name": "b"}</tool_call>` + strings.Repeat("\n</tool_calls>", 1000)
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Calls).To(HaveLen(2))
		Expect(r.Calls[0].Name).To(Equal("a"))
		Expect(r.Calls[1].Name).To(Equal("b"))
		Expect(r.Content).To(BeNil())
		Expect(r.Patterns).To(Equal([]string{"<tool_calls>", "<tool_call>"}))
	})

	It("unwraps a tag nested in itself", func() {
		in := strings.Repeat("<tool_call>", 50) + `{"name": "a"}` + strings.Repeat("</tool_call>", 50) + " done"
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Content).To(HaveValue(Equal("done")))
	})

	It("leaves an unproductive container as text and stops at text between blocks", func() {
		in := "<tool_calls><tool_call> prose <tool_calls>\n<tool_call>{\"name\": \"a\"}</tool_call> text </tool_calls>"
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Content).To(HaveValue(Equal("<tool_calls><tool_call> prose  text </tool_calls>")))
	})

	It("numbers calls from Sources in document order across shapes", func() {
		in := `<tool_calls><tool_call>{"name": "a"}</tool_call><tool_call><function=b></function></tool_call></tool_calls>` +
			`<minimax:tool_call><invoke name="c"></invoke></minimax:tool_call><tools>[{"name": "d"}]</tools>`
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		var got []string
		for _, c := range r.Calls {
			got = append(got, c.ID+"="+c.Name)
		}
		Expect(got).To(Equal([]string{"id-1=a", "id-2=b", "id-3=c", "id-4=d"}))
	})
})
