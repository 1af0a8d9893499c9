package leaked_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

// DeepSeek's special tokens (U+FF5C bars, U+2581 joiners).
const (
	dsCB  = "<｜tool▁calls▁begin｜>"
	dsCE  = "<｜tool▁calls▁end｜>"
	dsB   = "<｜tool▁call▁begin｜>"
	dsE   = "<｜tool▁call▁end｜>"
	dsSep = "<｜tool▁sep｜>"
)

// ascii writes DeepSeek's tokens with ASCII bars.
func ascii(s string) string { return strings.ReplaceAll(s, "｜", "|") }

// dsV31 is a V3.1 call; dsV3 a V3 one.
func dsV31(name, args string) string { return dsB + name + dsSep + args + dsE }

func dsV3(name, args string) string {
	return dsB + "function" + dsSep + name + "\n```json\n" + args + "\n```" + dsE
}

// deepseekSeeds are small adversarial inputs of DeepSeek's tokens for
// FuzzExtract: unclosed and repeated tokens, truncated bodies; and DSML's.
var deepseekSeeds = append(deepseekTokenSeeds(), dsmlSeeds...)

func deepseekTokenSeeds() []string {
	out := []string{
		"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>\n```json\n{\"location\": \"NYC\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
		dsCB + dsV3("a", `{"x": 1}`) + "\n" + dsV3("b", `{}`) + dsCE,
		dsCB + dsV31("a", `{"x": 1}`) + dsV31("b", `{"f": True}`) + dsCE + " after",
		ascii(dsCB + dsV31("a", `{}`) + dsCE),
		dsB + "a" + dsSep + `{"s": "` + dsE + `"}` + dsE,
		dsCB + dsB + "function" + dsSep + "a\n```json\n{\"x\": ",
		dsCB + dsB + "a" + dsSep + "{} text " + dsE + dsCE,
		"<think>" + dsCB + dsV31("a", "{}") + "</think>" + dsV31("b", "{}"),
	}
	units := []string{dsCB, dsB, dsSep, dsE, dsCE, dsB + "a" + dsSep, dsB + "a" + dsSep + "{",
		dsB + "function" + dsSep + "a\n```json\n", dsCB + dsB + "a" + dsSep + `{"s":"`, dsB + "a" + dsSep + "{}",
		"<｜tool▁call", ascii(dsB + "a" + dsSep + "{}"), dsB + "a\n" + dsSep}
	for _, u := range units {
		out = append(out, strings.Repeat(u, 20))
	}
	return out
}

var _ = Describe("DeepSeek V3 and V3.1 calls", func() {
	DescribeTable("what counts as an attempt",
		func(in, want string) { Expect(outcome(in)).To(Equal(want)) },
		Entry("a V3 call", dsV3("a", `{"x": 1}`), "call"),
		Entry("a V3.1 call", dsV31("a", `{"x": 1}`), "call"),
		Entry("a V3 call without its fence", dsB+"function"+dsSep+"a\n{\"x\": 1}"+dsE, "call"),
		Entry("a V3 call with the arguments on the name's line", dsB+"function"+dsSep+`a{"x": 1}`+dsE, "call"),
		Entry("a V3 call whose type word is not function", dsB+"tool"+dsSep+"a\n```json\n{}\n```"+dsE, "call"),
		Entry("tokens of both spellings mixed", ascii(dsB)+"a"+dsSep+"{}"+ascii(dsE), "call"),
		Entry("a separator on a later line than the call token: text", dsB+"a\n"+dsSep+"{}"+dsE, "kept"),
		Entry("a '<' before the separator: text", dsB+"a<b"+dsSep+"{}"+dsE, "kept"),
		Entry("a call token and no separator: text", dsB+"get_weather is how a call starts", "kept"),
		Entry("a section without a call: text", dsCB+dsCE, "kept"),
		Entry("a section token at the end of input: text", "ok "+dsCB, "kept"),
		Entry("a separator and prose: broken", dsB+"a"+dsSep+" I will check"+dsE, "dropped"),
		Entry("arguments that are an array: broken", dsB+"a"+dsSep+"[1]"+dsE, "dropped"),
		Entry("a separator and nothing after it: broken", dsB+"a"+dsSep, "dropped"),
		Entry("unquoted keys: broken", dsV31("a", "{x: 1}"), "dropped"),
		Entry("V3's type word and no name before a fence: broken, not a call of 'function' (parity corpus deepseek_v3/4.c)",
			dsB+"function"+dsSep+"\n```json\n{\"location\": \"NYC\"}\n```"+dsE, "dropped"),
		Entry("V3's type word and no name before the JSON: broken", dsB+"function"+dsSep+`{"x": 1}`+dsE, "dropped"),
		Entry("the tokens with spaces for joiners are not DeepSeek's", "<｜tool calls begin｜><｜tool call begin｜>a<｜tool sep｜>{}", "kept"),
	)

	It("reads a call's name and arguments from either form", func() {
		in := "x" + dsCB + dsV3("get_weather", `{"city": "Paris"}`) + "\n" + dsV31("get_time", `{"tz":"CET"}`) + dsCE + "y"
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Calls).To(HaveLen(2))
		Expect(r.Calls[0].Name).To(Equal("get_weather"))
		Expect(string(r.Calls[0].Arguments)).To(Equal(`{"city":"Paris"}`))
		Expect(r.Calls[1].Name).To(Equal("get_time"))
		Expect(*r.Content).To(Equal("x\ny"), "the white space between two calls stays")
		Expect(r.Repairs).To(BeEmpty(), "V3's fence is its form, not a repair")
	})

	It("lists a broken call at its own offset, with exactly the text removed", func() {
		bad := dsV31("b", `{"f": True}`)
		in := "pre " + dsCB + dsV31("a", "{}") + bad + dsCE
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Dropped[0].Pattern).To(Equal(dsCB))
		Expect(r.Dropped[0].Offset).To(Equal(strings.Index(in, bad)))
		Expect(r.Dropped[0].Raw).To(Equal(bad))
		Expect(*r.Content).To(Equal("pre"))
	})

	It("never lets a broken call swallow a later block", func() {
		in := dsB + "a" + dsSep + `{"s": "cut` + "\n" + `<tool_call>{"name": "b"}</tool_call>`
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Calls[0].Name).To(Equal("b"))
	})

	DescribeTable("the end of a block",
		func(in, content string) {
			r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
			checkProperties(in, r)
			Expect(r.Calls).NotTo(BeEmpty())
			if content == "" {
				Expect(r.Content).To(BeNil())
				return
			}
			Expect(*r.Content).To(Equal(content))
		},
		Entry("a section end token after a call without a section", dsV31("a", "{}")+"\n"+dsCE+" after", "after"),
		Entry("a cut-off section end token", dsCB+dsV31("a", "{}")+"<｜tool▁calls▁e", ""),
		Entry("a lone '<' at the end: a cut-off token", dsCB+dsV31("a", "{}")+"<", ""),
		Entry("a missing call end token before the section's", dsCB+dsB+"a"+dsSep+"{}\n"+dsCE+"z", "z"),
		Entry("end tokens after text are removed up to the next call only",
			dsB+"a"+dsSep+"{} wait "+dsV31("b", "{}")+" "+dsE, "wait  "+dsE),
		Entry("a closed call without a section leaves later end tokens alone", dsV31("a", "{}")+" x "+dsE, "x "+dsE),
	)

	It("keeps a call's JSON values as written, with a tool list too", func() {
		tools, err := leaked.ParseTools([]byte(`[{"name": "a", "parameters": {"properties": {"n": {"type": "integer"}}}}]`))
		Expect(err).NotTo(HaveOccurred())
		in := dsV31("a", `{"n": "7"}`)
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs(), Tools: tools})
		Expect(string(r.Calls[0].Arguments)).To(Equal(`{"n":"7"}`))
	})

	It("does not scan reasoning, code or stripped tokens", func() {
		for _, in := range []string{
			"<think>" + dsCB + dsV31("a", "{}") + dsCE,
			"```\n" + dsCB + dsV31("a", "{}") + dsCE + "\n```",
			"functionget_weather\n```json\n{\"a\": 1}\n```",
			`get_weather{"a": 1}`,
		} {
			Expect(outcome(in)).To(Equal("kept"), in)
		}
	})

	It("recovers many calls in one section in order", func() {
		var b strings.Builder
		b.WriteString(dsCB)
		for range 500 {
			b.WriteString(dsV31("a", `{"k": 1}`) + "\n")
		}
		b.WriteString(dsCE)
		r := leaked.Extract(b.String(), leaked.Options{Sources: seqIDs()})
		checkProperties(b.String(), r)
		Expect(r.Calls).To(HaveLen(500))
		Expect(r.Content).To(BeNil())
	})
})
