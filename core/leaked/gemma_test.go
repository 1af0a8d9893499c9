package leaked_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

const (
	gOpen  = "<|tool_call>"
	gClose = "<tool_call|>"
	gQuote = `<|"|>`
)

// gemmaSeeds are small adversarial units of Gemma 4's form for FuzzExtract.
var gemmaSeeds = []string{
	"recall:x{a:1} on_call:y{b:2} call:z{c:3}",
	strings.Repeat(gOpen, 40),
	strings.Repeat(gOpen+"call:a{", 40),
	strings.Repeat(gOpen+"call:a{x:"+gQuote, 40),
	strings.Repeat(gOpen+"call:a{x:[", 40),
	strings.Repeat(gOpen+"call:a{x:1} t ", 40) + gClose,
	strings.Repeat("call:", 40),
	strings.Repeat("call:a{", 40),
	strings.Repeat("call:a{x:1,", 40),
	strings.Repeat("call:a{x:{", 40),
	strings.Repeat("call:a{x:"+gQuote, 40),
	"call:a{x:" + strings.Repeat("[", 1100),
	gOpen + "call:a{x:" + strings.Repeat("{y:", 1100),
	gOpen + "call:a{" + gQuote + "k" + gQuote + ":" + gQuote + gQuote + ",}" + "<tool_c",
	"<think>" + gOpen + "call:a{x:1}" + gClose,
	// Found by FuzzExtract: a number beyond float64's range failed Check.
	"<invoke nAme=\"0\"><pArAmeteR=0>2" + strings.Repeat("0", 310) + "</pArAmeter>",
	gOpen + "call:a{n:1e400}" + gClose,
}

var _ = Describe("Gemma 4", func() {
	extract := func(in string, opts leaked.Options) leaked.Result {
		GinkgoHelper()
		opts.Sources = seqIDs()
		r := leaked.Extract(in, opts)
		Expect(leaked.Check(in, r)).To(Succeed())
		return r
	}
	args := func(r leaked.Result) []string {
		var out []string
		for _, c := range r.Calls {
			out = append(out, c.Name+" "+string(c.Arguments))
		}
		return out
	}

	It("keeps a delimited string verbatim, its newlines and backslashes included", func() {
		r := extract(gOpen+"call:w{body:"+gQuote+"\nline\\n \"q\"\n"+gQuote+"}"+gClose, leaked.Options{})
		Expect(args(r)).To(Equal([]string{`w {"body":"\nline\\n \"q\"\n"}`}))
	})

	It("keeps the first place and the last value of a repeated key", func() {
		r := extract(gOpen+"call:a{x:1,y:2,x:3}"+gClose, leaked.Options{})
		Expect(args(r)).To(Equal([]string{`a {"x":3,"y":2}`}))
	})

	It("types an object or list value by a declared type", func() {
		tools, err := leaked.ParseTools([]byte(`[{"name":"a","parameters":{"properties":{"o":{"type":"object"},"s":{"type":"string"}}}}]`))
		Expect(err).NotTo(HaveOccurred())
		r := extract(gOpen+"call:a{o:{k:[1,true]},s:{k:1}}"+gClose, leaked.Options{Tools: tools})
		Expect(args(r)).To(Equal([]string{`a {"o":{"k":[1,true]},"s":"{\"k\":1}"}`}))
	})

	It("removes a call and its closing token after text as two spans", func() {
		in := gOpen + "call:a{x:1} wait " + gClose + " end"
		r := extract(in, leaked.Options{})
		Expect(r.Removed).To(Equal([]leaked.Span{{Offset: 0, Length: len(gOpen + "call:a{x:1}")}, {Offset: strings.Index(in, gClose), Length: len(gClose)}}))
		Expect(*r.Content).To(Equal("wait  end"))
	})

	It("ends a broken call at the next call, never swallowing it", func() {
		in := gOpen + "call:a{x:" + gQuote + "never closed " + gOpen + "call:b{y:2}" + gClose
		r := extract(in, leaked.Options{})
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Dropped[0].Raw).To(Equal(gOpen + "call:a{x:" + gQuote + "never closed "))
		Expect(r.Dropped[0].Reason).To(ContainSubstring("at byte 21"))
		Expect(args(r)).To(Equal([]string{`b {"y":2}`}))
	})

	It("drops arguments nested deeper than the bound, and leaves them as text when stripped", func() {
		deep := "{x:" + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "}"
		r := extract(gOpen+"call:a"+deep+gClose, leaked.Options{})
		Expect(r.Calls).To(BeEmpty())
		Expect(r.Dropped[0].Reason).To(ContainSubstring("nested deeper than 1000"))
		in := "call:a" + deep
		r = extract(in, leaked.Options{})
		Expect(*r.Content).To(Equal(in))
		ok := "{x:" + strings.Repeat("[", 999) + strings.Repeat("]", 999) + "}"
		Expect(extract(gOpen+"call:a"+ok+gClose, leaked.Options{}).Calls).To(HaveLen(1))
	})

	DescribeTable("stripped text that stays text",
		func(in string) {
			r := extract(in, leaked.Options{})
			Expect(r.Calls).To(BeEmpty())
			Expect(*r.Content).To(Equal(in))
		},
		Entry("a value cut short", "call:a{x:1"),
		Entry("a brace inside a value", "call:a{x:f{y}}"),
		Entry("a space before the brace", "call:a {x:1}"),
		Entry("a key without a value", "call:a{x:}"),
		Entry("a name longer than the bound", "call:"+strings.Repeat("a", 200)+"{x:1}"),
		Entry("a list never closed", "call:a{x:[1,2}"),
		Entry("a string never closed", "call:a{x:"+gQuote+"b}"),
		Entry("call: ending a longer word", "recall:x{a:1}"),
		Entry("call: ending an identifier", "on_call:x{a:1}"),
	)

	It("keeps a number beyond float64's range a number of a well-formed call", func() {
		big := "2" + strings.Repeat("0", 320)
		r := extract(gOpen+"call:a{n:"+big+",e:1e400}"+gClose, leaked.Options{})
		Expect(args(r)).To(Equal([]string{`a {"n":` + big + `,"e":1e400}`}))
	})

	It("reads a stripped string with '<' and quotes as it stands", func() {
		r := extract(`call:eval{expr:a < "b"}`, leaked.Options{})
		Expect(args(r)).To(Equal([]string{`eval {"expr":"a < \"b\""}`}))
	})

	It("keeps a bare word of the tokened form a string, and refuses one with a quote", func() {
		r := extract(gOpen+"call:a{mode:fast}"+gClose, leaked.Options{})
		Expect(args(r)).To(Equal([]string{`a {"mode":"fast"}`}))
		r = extract(gOpen+`call:a{mode:"fast"}`+gClose, leaked.Options{})
		Expect(r.Calls).To(BeEmpty())
		Expect(r.Dropped).To(HaveLen(1))
	})
})
