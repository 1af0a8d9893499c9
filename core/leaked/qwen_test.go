package leaked_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

// qwenSeeds are small adversarial Qwen3-Coder and Seed-OSS inputs for
// FuzzExtract: the close fix's inputs, open parameters closed or not,
// repeated openers, Seed's thinking.
var qwenSeeds = []string{
	"<tool_call>\n<function=get_weather>\n<parameter=location>\nNYC\n</function>\n</tool_call>",
	"<tool_call>\n<function=get_weather>\n<parameter=location>\nNYC\n</tool_call>",
	"<function=a><parameter=x>1<parameter=y>2</parameter></function>",
	"<tool_call><function=a><parameter=x>1<tool_call><function=b><parameter=y>2</parameter></function></tool_call>",
	"<seed:tool_call><function=a><parameter=x>1</seed:tool_call>",
	"<function=a>\n<parameter=x>\n1\n</parameter>\n</function>\n</seed:tool_call>",
	"<function=a>\n<parameter=x>\n1\n</seed:tool_ca",
	"<seed:think>" + `<seed:tool_call><function=a><parameter=x>1</parameter></function></seed:tool_call>`,
	strings.Repeat("<function=a><parameter=x>1</function>", 30),
	"<function=a>" + strings.Repeat("<parameter=x>1", 30),
	strings.Repeat("<seed:tool_call><function=a><parameter=x>", 30),
	strings.Repeat("<seed:think>", 30) + strings.Repeat("</seed:think>", 30),
	strings.Repeat("<function=a><parameter=x>1</tool_call>", 30),
	"<function=a><parameter=x>" + strings.Repeat("<function=b> ", 30),
	strings.Repeat("<tool_call><function=a><parameter=x>1</parameter></function></seed:tool_call>", 20),
}

// qwenArgs returns the arguments of each call recovered from in, and
// checks the contract on the result.
func qwenArgs(in string, opts leaked.Options) []string {
	GinkgoHelper()
	if opts.Sources.NewID == nil {
		opts.Sources = seqIDs()
	}
	r := leaked.Extract(in, opts)
	Expect(leaked.Check(in, r)).To(Succeed())
	out := []string{}
	for _, c := range r.Calls {
		out = append(out, c.Name+" "+string(c.Arguments))
	}
	return out
}

var _ = Describe("Qwen3-Coder: closing an open parameter", func() {
	DescribeTable("what closes a parameter without </parameter>",
		func(in string, want []string) {
			Expect(qwenArgs(in, leaked.Options{})).To(Equal(want))
		},
		Entry("</function>, as the three serving stacks read it",
			"<tool_call>\n<function=get_weather>\n<parameter=location>\nNYC\n</function>\n</tool_call>",
			[]string{`get_weather {"location":"NYC"}`}),
		Entry("</tool_call>, with </function> missing too",
			"<tool_call>\n<function=get_weather>\n<parameter=location>\nNYC\n</tool_call>",
			[]string{`get_weather {"location":"NYC"}`}),
		Entry("a bare call's stray </tool_call>",
			"<function=get_weather>\n<parameter=location>\nNYC\n</tool_call>",
			[]string{`get_weather {"location":"NYC"}`}),
		Entry("the next <parameter=, as vLLM's qwen3_coder reads it",
			"<function=a>\n<parameter=x>\n1\n<parameter=y>\n2\n</parameter>\n</function>",
			[]string{`a {"x":1,"y":2}`}),
		Entry("the next call, not its parameter",
			"<tool_call>\n<function=a>\n<parameter=x>\n1\n<function=b>\n<parameter=y>\n2\n</parameter>\n</function>\n</tool_call>",
			[]string{`a {"x":1}`, `b {"y":2}`}),
		Entry("the next wrapper, when the model starts over",
			"<tool_call>\n<function=a>\n<parameter=x>\n1\n<tool_call>\n<function=b>\n<parameter=y>\n2\n</parameter>\n</function>\n</tool_call>",
			[]string{`a {"x":1}`, `b {"y":2}`}),
		Entry("the Seed-OSS wrapper's closing tag",
			"<seed:tool_call><function=a><parameter=x>1</seed:tool_call>",
			[]string{`a {"x":1}`}),
		Entry("a later </parameter> that structure follows still wins over </tool_call>",
			"<function=a><parameter=x>1</tool_call> and </parameter></function>",
			[]string{`a {"x":"1</tool_call> and "}`}),
	)

	It("keeps the text after a call closed this way", func() {
		in := "Checking.\n<tool_call>\n<function=a>\n<parameter=x>\nv\n</function>\n</tool_call>\nDone."
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		Expect(leaked.Check(in, r)).To(Succeed())
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Content).To(HaveValue(Equal("Checking.\n\nDone.")))
		Expect(r.Dropped).To(BeEmpty())
	})

	DescribeTable("still broken",
		func(in string) {
			r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
			Expect(leaked.Check(in, r)).To(Succeed())
			Expect(r.Calls).To(BeEmpty())
			Expect(r.Dropped).To(HaveLen(1))
			Expect(r.Dropped[0].Reason).To(ContainSubstring("is not closed by </parameter>"))
		},
		Entry("a parameter cut off by the end of input", "<tool_call>\n<function=a>\n<parameter=x>\nhalf a val"),
		Entry("a second parameter cut off", "<function=a><parameter=x>1</parameter><parameter=y>2"),
		Entry("MiniMax's invoke is not changed: </invoke> does not close a parameter",
			`<minimax:tool_call><invoke name="a"><parameter name="x">1</invoke></minimax:tool_call>`),
	)
})

var _ = Describe("Seed-OSS", func() {
	It("does not look inside <seed:think>, as inside <think>", func() {
		in := "<seed:think>I could call <seed:tool_call><function=a><parameter=x>1</parameter></function></seed:tool_call></seed:think>Done."
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Calls).To(BeEmpty())
		Expect(r.Content).To(HaveValue(Equal(in)))
	})

	It("reads the call after the thinking", func() {
		in := "<SEED:THINK>plan</SEED:THINK>\n<seed:tool_call>\n<function=a>\n<parameter=x>\n1\n</parameter>\n</function>\n</seed:tool_call>"
		Expect(qwenArgs(in, leaked.Options{})).To(Equal([]string{`a {"x":1}`}))
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		Expect(r.Content).To(HaveValue(Equal("<SEED:THINK>plan</SEED:THINK>")))
	})

	It("hides the rest of the text behind an unclosed <seed:think>", func() {
		in := "<seed:think>still thinking <seed:tool_call><function=a><parameter=x>1</parameter></function></seed:tool_call>"
		Expect(outcome(in)).To(Equal("kept"))
	})

	It("removes a bare call's stray </seed:tool_call> with it, not only </tool_call>", func() {
		in := "Calling.\n<function=a>\n<parameter=x>\n1\n</parameter>\n</function>\n</seed:tool_call>"
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Content).To(HaveValue(Equal("Calling.")))
	})

	It("closes a bare call's open parameter at a stray </seed:tool_call>", func() {
		in := "<function=a>\n<parameter=x>\n1\n</seed:tool_call>"
		Expect(qwenArgs(in, leaked.Options{})).To(Equal([]string{`a {"x":1}`}))
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		Expect(r.Content).To(BeNil())
	})
})
