package leaked_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

// DeepSeek V3.2 / V4 DSML tags.
const (
	dsmlFC = "<｜DSML｜function_calls>"
	dsmlFE = "</｜DSML｜function_calls>"
	dsmlIE = "</｜DSML｜invoke>"
	dsmlPE = "</｜DSML｜parameter>"
)

func dsmlI(name string) string { return `<｜DSML｜invoke name="` + name + `">` }

func dsmlP(key, str, val string) string {
	return `<｜DSML｜parameter name="` + key + `" string="` + str + `">` + val + dsmlPE
}

// dsmlSeeds are small adversarial inputs of DSML for FuzzExtract (part of
// deepseekSeeds): unclosed tags, repeated openers, truncated values.
var dsmlSeeds = func() []string {
	out := []string{
		dsmlFC + dsmlI("a") + dsmlP("x", "true", "1") + dsmlP("n", "false", "[1") + dsmlIE + dsmlFE + " after",
		dsmlI("a") + dsmlP("x", "true", "echo "+dsmlPE+" x") + dsmlIE + "\n" + dsmlFE,
		dsmlFC + dsmlI("a") + `<｜DSML｜parameter name="x" string="true">cut`,
		ascii(dsmlFC + dsmlI("a") + dsmlP("x", "false", "2") + dsmlIE),
		"<think>" + dsmlI("a") + dsmlIE + "</think>" + dsmlI("b") + dsmlIE,
	}
	units := []string{dsmlFC, dsmlI("a"), dsmlI("a") + `<｜DSML｜parameter name="x">`, `<｜DSML｜parameter name="x">v` + dsmlPE,
		dsmlPE, dsmlIE, dsmlFE, "<｜DSML｜", dsmlI("a") + dsmlIE, `<｜DSML｜invoke name="`, `<｜DSML｜parameter `}
	for _, u := range units {
		out = append(out, strings.Repeat(u, 20))
	}
	return out
}()

var _ = Describe("DeepSeek DSML calls", func() {
	DescribeTable("what counts as an attempt",
		func(in, want string) { Expect(outcome(in)).To(Equal(want)) },
		Entry("a wrapped invoke", dsmlFC+dsmlI("a")+dsmlP("x", "true", "1")+dsmlIE+dsmlFE, "call"),
		Entry("an invoke alone", dsmlI("a")+dsmlP("x", "true", "1")+dsmlIE, "call"),
		Entry("single quotes", `<｜DSML｜invoke name='a'><｜DSML｜parameter name='x' string='false'>1`+dsmlPE+dsmlIE, "call"),
		Entry("attributes in another order", `<｜DSML｜invoke name="a"><｜DSML｜parameter string="false" name="x">1`+dsmlPE+dsmlIE, "call"),
		Entry("tags of both spellings mixed", ascii(dsmlI("a"))+dsmlP("x", "true", "1")+ascii(dsmlIE), "call"),
		Entry("a cut-off invoke closing tag", dsmlI("a")+dsmlP("x", "true", "1")+"</｜DSML｜inv", "call"),
		Entry("no invoke closing tag before text", dsmlI("a")+dsmlP("x", "true", "1")+" and more", "call"),
		Entry("an invoke with no name: text", `<｜DSML｜invoke name="">`+dsmlP("x", "true", "1")+dsmlIE, "kept"),
		Entry("an invoke with no space before its name: text", `<｜DSML｜invokename="a">`+dsmlP("x", "true", "1")+dsmlIE, "kept"),
		Entry("an invoke followed by prose: text", dsmlI("a")+" is how a call starts", "kept"),
		Entry("an invoke followed by a malformed parameter tag: text", dsmlI("a")+`<｜DSML｜parameter name=x>1`+dsmlPE+dsmlIE, "kept"),
		Entry("a wrapper at the end of input: text", "ok "+dsmlFC, "kept"),
		Entry("a wrapper around an empty invoke tag and nothing else: text", dsmlFC+dsmlI("a"), "kept"),
		Entry("a parameter closed by the invoke's closing tag: broken", dsmlI("a")+`<｜DSML｜parameter name="x">1`+dsmlIE, "dropped"),
		Entry("a parameter cut off by the end of input: broken", dsmlFC+dsmlI("a")+`<｜DSML｜parameter name="x">1`, "dropped"),
		Entry("a later parameter without a name: broken", dsmlI("a")+dsmlP("x", "true", "1")+`<｜DSML｜parameter string="true">2`+dsmlPE+dsmlIE, "dropped"),
		Entry("a later parameter with an unquoted name: broken", dsmlI("a")+dsmlP("x", "true", "1")+`<｜DSML｜parameter name=y>2`+dsmlPE+dsmlIE, "dropped"),
	)

	DescribeTable("parameter values",
		func(str, value, want string) {
			in := dsmlI("t") + `<｜DSML｜parameter name="v"` + str + ">" + value + dsmlPE + dsmlIE
			r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
			checkProperties(in, r)
			Expect(r.Calls).To(HaveLen(1))
			Expect(string(r.Calls[0].Arguments)).To(Equal(`{"v":` + want + `}`))
		},
		Entry("string=true: a number stays a string", ` string="true"`, "42", `"42"`),
		Entry("string=true: true stays a string", ` string="true"`, "true", `"true"`),
		Entry("string=true: white space is kept", ` string="true"`, "  a b  ", `"  a b  "`),
		Entry("string=true: one newline each side is stripped, as for every XML parameter", ` string="true"`, "\nx\n", `"x"`),
		Entry("string=false: a number", ` string="false"`, "42", `42`),
		Entry("string=false: null", ` string="false"`, "null", `null`),
		Entry("string=false: a JSON string is decoded", ` string="false"`, `"hi"`, `"hi"`),
		Entry("string=false: an object is compacted", ` string="false"`, "{ \"a\" : [1, 2] }", `{"a":[1,2]}`),
		Entry("string=false: invalid JSON stays a string", ` string="false"`, "{a: 1}", `"{a: 1}"`),
		Entry("no string attribute: a number is JSON", ``, "42", `42`),
		Entry("no string attribute: null is a string", ``, "null", `"null"`),
		Entry("an unknown string attribute: the rule without one", ` string="maybe"`, "42", `42`),
	)

	It("types by the tool list before the string attribute, and keeps invalid JSON as a string", func() {
		tools, err := leaked.ParseTools([]byte(`[{"name": "t", "input_schema": {"properties": {"n": {"type": "integer"}, "s": {"type": "string"}}}}]`))
		Expect(err).NotTo(HaveOccurred())
		in := dsmlI("t") + dsmlP("n", "true", "five") + dsmlP("s", "false", "12") + dsmlP("o", "false", "12") + dsmlIE
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs(), Tools: tools})
		checkProperties(in, r)
		Expect(string(r.Calls[0].Arguments)).To(Equal(`{"n":"five","s":"12","o":12}`))
	})

	It("drops a broken invoke without a wrapper through its closing tag and a wrapper's after it", func() {
		bad := dsmlI("a") + `<｜DSML｜parameter name="x">1` + dsmlIE + "\n" + dsmlFE
		in := "pre " + bad + " post"
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Dropped[0].Pattern).To(Equal("<｜DSML｜invoke>"))
		Expect(r.Dropped[0].Offset).To(Equal(len("pre ")))
		Expect(r.Dropped[0].Raw).To(Equal(bad))
		Expect(*r.Content).To(Equal("pre  post"))
	})

	It("never lets a broken block swallow a later one", func() {
		in := dsmlFC + dsmlI("a") + `<｜DSML｜parameter name="x">cut` + "\n" + `<tool_call>{"name": "b"}</tool_call>` +
			"\n" + dsmlI("c") + dsmlIE
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Calls).To(HaveLen(2))
		Expect(r.Calls[0].Name).To(Equal("b"))
		Expect(r.Calls[1].Name).To(Equal("c"))
	})

	It("reads DSML and DeepSeek V3.1 calls in one text, in order", func() {
		in := dsCB + dsV31("a", "{}") + dsCE + "\n" + dsmlFC + dsmlI("b") + dsmlIE + dsmlFE
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		Expect(r.Calls).To(HaveLen(2))
		Expect(r.Calls[0].Name).To(Equal("a"))
		Expect(r.Calls[1].Name).To(Equal("b"))
		Expect(r.Patterns).To(Equal([]string{dsCB, dsmlFC}))
	})

	It("recovers many invokes in one wrapper in order", func() {
		var b strings.Builder
		b.WriteString(dsmlFC + "\n")
		for range 500 {
			b.WriteString(dsmlI("a") + "\n" + dsmlP("k", "false", "1") + "\n" + dsmlIE + "\n")
		}
		b.WriteString(dsmlFE)
		r := leaked.Extract(b.String(), leaked.Options{Sources: seqIDs()})
		checkProperties(b.String(), r)
		Expect(r.Calls).To(HaveLen(500))
		Expect(r.Content).To(BeNil())
	})
})
