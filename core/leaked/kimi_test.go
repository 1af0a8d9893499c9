package leaked_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

const (
	kSection    = "<|tool_calls_section_begin|>"
	kSectionEnd = "<|tool_calls_section_end|>"
	kBegin      = "<|tool_call_begin|>"
	kArgs       = "<|tool_call_argument_begin|>"
	kEnd        = "<|tool_call_end|>"
)

// kimiSeeds are small adversarial units of Kimi K2's form for FuzzExtract.
var kimiSeeds = []string{
	strings.Repeat(kSection, 40),
	strings.Repeat(kSection+kBegin, 40),
	strings.Repeat(kBegin+"functions.a:0"+kArgs, 40),
	strings.Repeat(kBegin+"functions.a:0"+kArgs+"{", 40),
	strings.Repeat(kBegin+"functions.a:0"+kArgs+`{"s":"`, 40),
	strings.Repeat(kBegin+"functions.a:0"+kArgs+`{"x":1} x `, 40) + kSectionEnd,
	strings.Repeat("functions.", 40),
	strings.Repeat("functions.a:0", 40),
	strings.Repeat("functions.a:0{", 40),
	strings.Repeat(`functions.a:0 {"s":"`, 40),
	"functions." + strings.Repeat("a.", 80) + ":0{}",
	kSection + kBegin + "functions.a:0" + kArgs + `{"x":1}` + kEnd + "<|tool_calls_sec",
	kBegin + "functions.a" + kArgs + "[1]" + kEnd + kSectionEnd,
	"<think>" + kSection + kBegin + "functions.a:0" + kArgs + "{}" + kEnd,
}

var _ = Describe("Kimi K2", func() {
	extract := func(in string) leaked.Result {
		GinkgoHelper()
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		checkProperties(in, r)
		return r
	}

	It("removes a section as the spans of its tokens and calls, so that a dropped call starts its own span", func() {
		bad := kBegin + "functions.a:0" + kArgs + "{nope}" + kEnd
		in := "x " + kSection + " " + bad + kBegin + "functions.b:1" + kArgs + "{}" + kEnd + kSectionEnd + " y"
		r := extract(in)
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Dropped[0].Offset).To(Equal(strings.Index(in, bad)))
		Expect(r.Dropped[0].Raw).To(Equal(bad))
		Expect(*r.Content).To(Equal("x  y"))
	})

	It("ends a broken call at the next call when its end token is missing", func() {
		in := kSection + kBegin + "functions.a:0" + kArgs + `{"x": ` + kBegin + "functions.b:1" + kArgs + `{"y":2}` + kEnd + kSectionEnd
		r := extract(in)
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Calls[0].Name).To(Equal("b"))
		Expect(r.Dropped[0].Raw).To(Equal(kBegin + "functions.a:0" + kArgs + `{"x": `))
	})

	It("takes a section end token cut off by the end of input with the section", func() {
		r := extract(kSection + kBegin + "functions.a:0" + kArgs + `{"x":1}` + kEnd + "<|tool_calls_sec")
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Content).To(BeNil())
	})

	It("takes a call end token cut off by the end of input with a stripped call", func() {
		r := extract(`functions.a:0{"x":1}<|tool_ca`)
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Content).To(BeNil())
		Expect(r.Patterns).To(Equal([]string{"functions.NAME:IDX"}))
	})

	DescribeTable("an id that is not functions.NAME:IDX",
		func(in string) {
			r := extract(in)
			Expect(r.Calls).To(BeEmpty())
			Expect(*r.Content).To(Equal(in))
		},
		Entry("no name", `functions.:0{"x":1}`),
		Entry("no index", `functions.a:{"x":1}`),
		Entry("a space inside", `functions.get weather:0{"x":1}`),
		Entry("a name longer than the bound", "functions."+strings.Repeat("a", 200)+`:0{"x":1}`),
		Entry("an index longer than the bound", `functions.a:`+strings.Repeat("1", 20)+`{"x":1}`),
		Entry("a tag followed by an id and no argument token or object", kBegin+"functions.a:0 then prose"),
		Entry("a stripped id followed by an array", `functions.a:0["x"]`),
		Entry("a stripped id followed by a truncated object", `functions.a:0{"x": 1`),
	)

	It("reads the arguments after a call id without the argument token when an object follows", func() {
		r := extract(kBegin + `functions.a:0 {"x":1}` + kEnd)
		Expect(r.Calls).To(HaveLen(1))
		Expect(string(r.Calls[0].Arguments)).To(Equal(`{"x":1}`))
	})

	It("drops a call whose id is bad once the argument token commits it", func() {
		r := extract(kBegin + "get_weather:" + kArgs + `{"x":1}` + kEnd)
		Expect(r.Calls).To(BeEmpty())
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Dropped[0].Reason).To(ContainSubstring("want functions.NAME:IDX"))
	})

	It("leaves a stray end token after text in place when another call comes first", func() {
		in := kSection + kBegin + "functions.a:0" + kArgs + `{}` + kEnd + " wait " + kBegin + "functions.b:1" + kArgs + `{}` + kEnd + kSectionEnd
		r := extract(in)
		Expect(r.Calls).To(HaveLen(2))
		Expect(*r.Content).To(Equal("wait"))
	})
})
