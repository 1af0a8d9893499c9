package leaked_test

import (
	"math/rand/v2"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

// pythonicSeeds are small adversarial units of the pythonic form for the
// fuzz targets: openers with no body, unclosed strings of every quote,
// lists nested in arguments, calls in strings, look-alikes.
var pythonicSeeds = func() []string {
	units := []string{
		"[", "[a(", "[a(b=", "[a(b=[", "[a(b=1", "[a(b=1)", "[a(b=1),", `[a(b="`, `[a(b='''`, `[a(b="""x`,
		`[a(b="[a(b=\"`, `[a(b="[a(b='[a(b="`, "[a(b=(", "[a(b={", `[a(b={"k":`, "[a(b=-", "[a(b=0x", "[a(b=1e",
		`[a(b="\x4`, `[a(b="\u12`, `[a(b="\`, "[a.b.c(", "[x](y) ", "[a(b)] ", "[f(x=1) for x in y] ",
		"<|python_start|>", "<|python_start|>[a(b=1)]<|python_end|>", "<|python_start|>a(b=1)", "\n[a(b=1)]\n",
		"<tool_call>[a(b=1)]</tool_call>", "<tool_call>[a(b=1)] x ", "<tool_calls><tool_call>[a(b=", "<tool_call>[a(b=1)]</tool_cal",
	}
	var out []string
	for _, u := range units {
		out = append(out, strings.Repeat(u, 20))
	}
	return append(out,
		"[a(b="+strings.Repeat("[", 120)+strings.Repeat("]", 120)+")]",
		"[a(b="+strings.Repeat("(", 60)+"1,"+strings.Repeat(")", 60)+")]",
		"[get_weather(city='Paris', days=3), search(q=\"x\", tags=['a', 'b'], opts={'k': None, 'f': True})]",
		"[f(s=r'\\d+', t=u'é', n=1_000, h=0X_FF, o=0o7, b=0b1, x=.5, y=5., z=1E-3, e=(), one=(1,))]",
	)
}()

// extractPy runs Extract with pythonic calls on, and holds the result to
// the contract.
func extractPy(in string) leaked.Result {
	GinkgoHelper()
	r := leaked.Extract(in, leaked.Options{Sources: seqIDs(), Pythonic: true})
	Expect(leaked.Check(in, r)).To(Succeed())
	return r
}

// argsOf returns the arguments of the single call the list in yields.
func argsOf(in string) string {
	GinkgoHelper()
	r := extractPy(in)
	Expect(r.Calls).To(HaveLen(1), "calls of %q (dropped %v)", in, r.Dropped)
	return string(r.Calls[0].Arguments)
}

var _ = Describe("pythonic calls", func() {
	DescribeTable("write Python literals as JSON",
		func(value, want string) {
			Expect(argsOf("[f(v=" + value + ")]")).To(Equal(`{"v":` + want + `}`))
		},
		Entry("double quotes", `"a b"`, `"a b"`),
		Entry("single quotes with a double quote", `'say "hi"'`, `"say \"hi\""`),
		Entry("named escapes", `"\n\t\\\'\"\a\b\f\v\r"`, `"\n\t\\'\"\u0007\b\f\u000b\r"`),
		Entry("\\x and octal", `"\x41\101\0"`, `"AA\u0000"`),
		Entry("\\u and \\U", `"\u00e9\U0001F600"`, `"é😀"`),
		Entry("a surrogate pair joined", `"\ud83d\ude00"`, `"😀"`),
		Entry("a lone surrogate", `"\ud83d!"`, `"�!"`),
		Entry("an unknown escape keeps its backslash", `"\d+\é"`, `"\\d+\\é"`),
		Entry("a line continuation", "\"a\\\nb\"", `"ab"`),
		Entry("a raw string", `r'C:\dir\n'`, `"C:\\dir\\n"`),
		Entry("a raw string's escaped quote", `r"a\"b"`, `"a\\\"b"`),
		Entry("the u prefix", `u"x"`, `"x"`),
		Entry("triple quotes over lines", "'''one 'two'\n\"three\"'''", `"one 'two'\n\"three\""`),
		Entry("triple double quotes ending on a quote", `"""a"b"""`, `"a\"b"`),
		Entry("adjacent strings joined", "\"a\" 'b'\n r\"\\c\"", `"ab\\c"`),
		Entry("an empty string", `""`, `""`),
		Entry("non-ASCII text", `"日本"`, `"日本"`),
		Entry("an integer", `42`, `42`),
		Entry("underscores", `1_000_000`, `1000000`),
		Entry("zero", `0`, `0`),
		Entry("zeros", `00`, `0`),
		Entry("negative", `-3`, `-3`),
		Entry("a sign and white space", `- 3`, `-3`),
		Entry("plus", `+3`, `3`),
		Entry("hex", `0x1F`, `31`),
		Entry("hex with an underscore", `0x_ff_ff`, `65535`),
		Entry("octal", `0o17`, `15`),
		Entry("binary", `-0b101`, `-5`),
		Entry("a float", `1.5`, `1.5`),
		Entry("a float without a fraction", `5.`, `5.0`),
		Entry("a float without an integer part", `.5`, `0.5`),
		Entry("an exponent", `1E-3`, `1e-3`),
		Entry("a float with leading zeros", `007.5`, `7.5`),
		Entry("a float's exponent after a dot", `1.e5`, `1.0e5`),
		Entry("True, False, None", `[True, False, None]`, `[true,false,null]`),
		Entry("a list over lines, trailing comma", "[\n 1,\n 2,\n]", `[1,2]`),
		Entry("an empty tuple", `()`, `[]`),
		Entry("a one-tuple", `(1,)`, `[1]`),
		Entry("a tuple", `(1, "a", (2, 3))`, `[1,"a",[2,3]]`),
		Entry("parentheses around a value", `(("x"))`, `"x"`),
		Entry("a dict", `{"k": None, 'f': True, "n": {"m": [1]}}`, `{"k":null,"f":true,"n":{"m":[1]}}`),
		Entry("a dict's key given twice is written twice", `{"a": 1, "a": 2}`, `{"a":1,"a":2}`),
		Entry("an empty dict", `{}`, `{}`),
	)

	DescribeTable("leave a list as text when it is not keyword calls of literals",
		func(in string) {
			r := extractPy(in)
			Expect(r.Calls).To(BeEmpty())
			Expect(r.Dropped).To(BeEmpty())
			Expect(*r.Content).To(Equal(in))
		},
		Entry("a name", `[f(x=y)]`),
		Entry("an expression", `[f(x=1+2)]`),
		Entry("a call as a value", `[f(x=g(y=1))]`),
		Entry("a set", `[f(x={1, 2})]`),
		Entry("a dict with a number key", `[f(x={1: 2})]`),
		Entry("a dict spread", `[f(x={**d})]`),
		Entry("a decimal with leading zeros", `[f(x=007)]`),
		Entry("a complex number", `[f(x=1j)]`),
		Entry("a number too large for a float64", `[f(x=1e400)]`),
		Entry("a hex number too long", "[f(x=0x"+strings.Repeat("f", 300)+")]"),
		Entry("a malformed number", `[f(x=1__0)]`),
		Entry("a named escape", `[f(x="\N{DASH}")]`),
		Entry("a malformed \\x escape", `[f(x="\x4g")]`),
		Entry("a \\U escape past U+10FFFF", `[f(x="\U00110000")]`),
		Entry("a line break in a short string", "[f(x=\"a\nb\")]"),
		Entry("a bytes literal", `[f(x=b"a")]`),
		Entry("an f-string", `[f(x=f"a")]`),
		Entry("a positional argument", `[f(1)]`),
		Entry("a positional argument after keywords", `[f(x=1, 2)]`),
		Entry("a keyword given twice", `[f(x=1, x=2)]`),
		Entry("a comparison", `[f(x==1)]`),
		Entry("**kwargs", `[f(**kw)]`),
		Entry("a comprehension", `[f(x=1) for x in y]`),
		Entry("a call and prose", `[f(x=1) and then more]`),
		Entry("a second item that is not a call", `[f(x=1), 2]`),
		Entry("a space before the parenthesis", `[f (x=1)]`),
		Entry("a subscript", `xs[f(x=1)]`),
		Entry("a subscript after a call", `g()[f(x=1)]`),
		Entry("a Markdown link", `[f(x=1)](https://example.com)`),
		Entry("a reference link", `[f(x=1)][1]`),
		Entry("an attribute", `[f(x=1)].pop`),
		Entry("calls without brackets", `f(x=1)`),
		Entry("a list cut off in a sentence", `see [f(x=1`),
		Entry("a cut list whose first name has no parenthesis", "[get_wea"),
		Entry("a name cut off", "[f"),
		Entry("python_start before code", "<|python_start|>print(\"hi\")<|python_end|>"),
		Entry("python_start before bare calls and prose", "<|python_start|>f(x=1) and more"),
	)

	It("recovers nothing and keeps the text byte for byte with the option off", func() {
		in := "[get_weather(city=\"SF\")]\n<|python_start|>[f(x=1)]<|python_end|>\n[f(x="
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs()})
		Expect(r.Calls).To(BeEmpty())
		Expect(r.Patterns).To(BeEmpty())
		Expect(*r.Content).To(Equal(in))
	})

	It("bounds the nesting of values at 100", func() {
		deep := func(n int) string { return "[f(x=" + strings.Repeat("[", n) + strings.Repeat("]", n) + ")]" }
		Expect(extractPy(deep(100)).Calls).To(HaveLen(1))
		r := extractPy(deep(101))
		Expect(r.Calls).To(BeEmpty())
		Expect(*r.Content).To(Equal(deep(101)))
	})

	It("checks a call with many keyword arguments for one given twice", func() {
		var b strings.Builder
		b.WriteString("[f(")
		for k := range 20 {
			b.WriteString("k" + string(rune('a'+k)) + "=1, ")
		}
		Expect(extractPy(b.String() + ")]").Calls).To(HaveLen(1))
		Expect(extractPy(b.String() + "ka=2)]").Calls).To(BeEmpty())
	})

	It("takes at most 1000 keyword arguments in a call", func() {
		call := func(n int) string {
			var b strings.Builder
			b.WriteString("[f(")
			for k := range n {
				b.WriteString("k" + strconv.Itoa(k) + "=1,")
			}
			return b.String() + ")]"
		}
		Expect(extractPy(call(1000)).Calls).To(HaveLen(1))
		Expect(extractPy(call(1001)).Calls).To(BeEmpty())
	})

	It("compacts the arguments when parentheses held a single value", func() {
		Expect(argsOf(`[f(a=(1), b=((("x"))), c=(2,))]`)).To(Equal(`{"a":1,"b":"x","c":[2]}`))
	})

	It("drops a list cut off at the start of a line, the removed text as raw", func() {
		in := "I'll look.\n  [get_weather(city=\"San Fr"
		r := extractPy(in)
		Expect(r.Calls).To(BeEmpty())
		Expect(r.Dropped).To(HaveLen(1))
		Expect(r.Dropped[0].Offset).To(Equal(strings.Index(in, "[")))
		Expect(r.Dropped[0].Raw).To(Equal(`[get_weather(city="San Fr`))
		Expect(r.Dropped[0].Reason).To(Equal("truncated pythonic call list: the input ends inside a string"))
		Expect(*r.Content).To(Equal("I'll look."))
	})

	It("keeps a list cut off at the start of a line as text when the cut is not inside calls", func() {
		for _, in := range []string{"[f(x=1) is", "[f(x=1)\n\nmore", "[f(x=1), 2"} {
			r := extractPy(in)
			Expect(r.Calls).To(BeEmpty(), in)
			Expect(*r.Content).To(Equal(in))
		}
	})

	It("keeps names as written, dotted and with underscores", func() {
		r := extractPy(`[github.create_issue(title="x"), _private2(), a.b.c_d(e=1)]`)
		Expect([]string{r.Calls[0].Name, r.Calls[1].Name, r.Calls[2].Name}).To(Equal([]string{"github.create_issue", "_private2", "a.b.c_d"}))
	})

	It("removes a wrapper directly around a call list with it", func() {
		r := extractPy("Now.\n<tool_calls>\n<tool_call>[f(x=1)]</tool_call>\n<tool_call> [g()] \n</tool_call>\n</tool_calls>\nDone.")
		Expect(r.Calls).To(HaveLen(2))
		Expect(*r.Content).To(Equal("Now.\n\n\nDone."), "as with JSON bodies: the white space between sibling blocks stays")
		Expect(r.Patterns).To(Equal([]string{"<tool_calls>", "<tool_call>", "[pythonic]"}))
		r = extractPy("<tool_call>[f(x=1)]")
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Content).To(BeNil())
		r = extractPy("<tool_call>[f(x=1)] I wait.</tool_call>")
		Expect(r.Calls).To(HaveLen(1))
		Expect(*r.Content).To(Equal("<tool_call> I wait.</tool_call>"))
	})

	It("takes <|python_end|> cut off at the end of input with the block", func() {
		r := extractPy("<|python_start|>[f(x=1)]<|python_en")
		Expect(r.Calls).To(HaveLen(1))
		Expect(r.Content).To(BeNil())
	})

	It("finds lists after another family's near miss and between other blocks", func() {
		in := `[TOOL_CALLS] functools[ <tool_call>{"name":"a"}</tool_call> [b(x=1)] ` + "`[c(x=1)]`"
		r := extractPy(in)
		Expect(r.Calls).To(HaveLen(2))
		Expect(r.Calls[1].Name).To(Equal("b"))
		Expect(*r.Content).To(Equal("[TOOL_CALLS] functools[   `[c(x=1)]`"))
	})

	It("keeps the properties on random mixtures of pythonic pieces", func() {
		rng := rand.New(rand.NewPCG(36, 7))
		parts := []string{"[", "]", "(", ")", "{", "}", ",", "=", ":", "f", "g.h", "x", `"`, `'`, `"""`, `\`, `\x4`, `\u`, "1", "-", ".5", "0x", "e",
			"True", "None", "r", " ", "\n", "<|python_start|>", "<|python_end|>", "[f(x=1)]", "é", "`", "<tool_call>", "_"}
		for range 3000 {
			var b strings.Builder
			for range rng.IntN(25) {
				b.WriteString(parts[rng.IntN(len(parts))])
			}
			in := b.String()
			first := extractPy(in)
			Expect(leaked.Extract(in, leaked.Options{Sources: seqIDs(), Pythonic: true})).To(Equal(first), "deterministic")
		}
	})
})
