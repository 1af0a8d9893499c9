package harness_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
	benchheap "github.com/toolout/toolout/internal/hostile"
)

// The defects FuzzLoad and the hostile inputs found in the loader, one spec
// each. Files are written to a temp folder and named x.yaml in messages.

// loadHostile loads src as a scenario file and returns its errors, one a line,
// with the temp folder left out.
func loadHostile(src string) []string {
	dir := GinkgoT().TempDir()
	file := filepath.Join(dir, "x.yaml")
	Expect(os.WriteFile(file, []byte(src), 0o644)).To(Succeed())
	_, err := harness.Load(components.Default(), file)
	if err == nil {
		return nil
	}
	Expect(err).To(BeAssignableToTypeOf(harness.ErrorList{}))
	return strings.Split(strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""), "\n")
}

const okScenario = "component: finalreport\nconfig: {nonce: abc}\ninput: {text: x}\nexpect: {found: false}\n"

// bomb is the YAML "billion laughs": ten levels of ten aliases each.
func bomb() string {
	s := "a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n"
	for i := 1; i < 10; i++ {
		s += fmt.Sprintf("a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d,", i-1), 10), ","))
	}
	return s
}

// typedBomb multiplies through the typed decoder rather than through one
// YAML value: 20 steps of 20 tool calls of 20 arguments of a 990-value list.
func typedBomb() string {
	aliases := func(n int, name string) string {
		return "[" + strings.TrimSuffix(strings.Repeat("*"+name+",", n), ",") + "]"
	}
	keys := make([]string, 20)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%d: *v", i)
	}
	return "component: llm\n" +
		"description: &w [x,x,x,x,x,x,x,x,x]\n" +
		"labels: &v " + aliases(99, "w") + "\n" +
		"x: &tc {name: t, args: {" + strings.Join(keys, ", ") + "}}\n" +
		"y: &s {match: {tag: t}, respond: {tool_calls: " + aliases(20, "tc") + "}}\n" +
		"llm: " + aliases(20, "s") + "\n"
}

var _ = Describe("Load on hostile files", func() {
	DescribeTable("gives a line and column where the YAML parser names none",
		func(src string, want ...string) { Expect(loadHostile(src)).To(Equal(want)) },
		Entry("invalid UTF-8", "component: finalreport\nconfig: {nonce: \xff}\n",
			"x.yaml:2:17: syntax error: invalid leading UTF-8 octet"),
		Entry("a cut UTF-8 sequence after CRLF and a multi-byte character", "description: \"é\"\r\ncomponent: \xc3\n",
			"x.yaml:2:12: syntax error: invalid trailing UTF-8 octet"),
		Entry("a control character", "component: finalreport\nconfig: {nonce: \x01}\n",
			"x.yaml:2:17: syntax error: control characters are not allowed"),
		Entry("NUL on the first line", "component: finalreport\x00\n",
			"x.yaml:1:23: syntax error: control characters are not allowed"),
		Entry("CR and LINE SEPARATOR break lines, as the parser counts", "description: \"東京\"\rcomponent: x\u2028\x7f\n",
			"x.yaml:3:1: syntax error: control characters are not allowed"),
		Entry("a broken UTF-16 file", "\xff\xfea\x00:\x00 \x00\x00\xd8",
			"x.yaml:1:4: syntax error: incomplete UTF-16 surrogate pair"),
		Entry("an unknown anchor, not the same text in quotes", "component: finalreport\nconfig: {nonce: \"*nope\", x: *nope }\n",
			"x.yaml:2:29: syntax error: unknown anchor 'nope' referenced"),
		Entry("nesting past the parser's limit on the first line", strings.Repeat("[", 10001),
			"x.yaml:1:10001: syntax error: exceeded max depth of 10000"),
		Entry("an unclosed flow list on line 2, which the parser names as line 1", "component: finalreport\nlabels: [a\ndescription: x\n",
			"x.yaml:2:9: syntax error: did not find expected ',' or ']'"),
		Entry("a mapping value where none may start, at its colon", "component: finalreport\ndescription: a: b\n",
			"x.yaml:2:15: syntax error: mapping values are not allowed in this context"),
		Entry("a key less indented than its mapping, where the parser names the mapping's line", "component: finalreport\nconfig:\n  nonce: abc\n extra: 1\n",
			"x.yaml:4:2: syntax error: did not find expected key"),
	)

	DescribeTable("stops alias bombs at the alias that crosses the bound, before decoding",
		func(src string, want ...string) { Expect(loadHostile(src)).To(Equal(want)) },
		Entry("billion laughs, unused", okScenario+"x:\n  "+strings.ReplaceAll(strings.TrimSpace(bomb()), "\n", "\n  ")+"\n",
			"x.yaml:11:44: alias *a4: aliases expand this file to more than 1048576 values"),
		Entry("billion laughs as labels", okScenario+bomb()+"labels: *a9\n",
			"x.yaml:10:42: alias *a4: aliases expand this file to more than 1048576 values"),
		Entry("a bomb through the typed decoder", typedBomb(),
			"x.yaml:6:10: alias *s: aliases expand this file to more than 1048576 values"),
		Entry("an alias inside the node it refers to", "component: llm\nllm: &l [{id: a}, *l]\n",
			"x.yaml:2:19: alias *l: it refers to a node that contains it"),
	)

	It("allows anchors and aliases within the bound", func() {
		Expect(loadHostile(okScenario + "labels: &l [a, b]\ndescription: x\n")).To(BeNil())
		Expect(loadHostile("component: llm\nllm:\n- &s {id: a, match: {tag: t}, respond: {text: hi}}\n- {id: b, match: {tag: u}, respond: {text: hi}}\n")).To(BeNil())
	})

	It("refuses a second YAML document, which would be ignored, and allows a trailing empty one", func() {
		Expect(loadHostile(okScenario + "---\ncomponent: leaked\n")).To(Equal([]string{
			"x.yaml:5:1: a scenario file holds one YAML document; a second one starts here"}))
		Expect(loadHostile(okScenario + "---\n")).To(BeNil())
		Expect(loadHostile(okScenario + "...\n")).To(BeNil())
	})

	It("refuses a file over MaxScenarioBytes without parsing it", func() {
		big := okScenario + "description: " + strings.Repeat("x", harness.MaxScenarioBytes) + "\n"
		Expect(loadHostile(big)).To(Equal([]string{fmt.Sprintf("x.yaml:1:1: the file is over %d bytes; keep large payloads "+
			"in a file beside it (text: {file: NAME}) or generate them", harness.MaxScenarioBytes)}))
	})

	It("quotes at most 60 characters of a wrong value", func() {
		Expect(loadHostile(strings.Replace(okScenario, "found: false", "found: "+strings.Repeat("y", 200), 1))).To(Equal([]string{
			`x.yaml:4:17: expect.found: want true or false, got "` + strings.Repeat("y", 60) + `…"`}))
	})

	It("refuses more generated lines than generated bytes allow, before generating", func() {
		src := strings.Replace(okScenario, "text: x", "text: {generate: {lines: 300000000, template: x}}", 1)
		Expect(loadHostile(src)).To(Equal([]string{"x.yaml:3:26: generate: lines 300000000: want 1 to 268435456"}))
	})
})

// BenchmarkLoadAdversarial times Load on adversarial files at about a tenth
// of MaxScenarioBytes and just under it (the bound refuses 10 MiB files):
// nested flow lists, deep block nesting, many aliases within the bound, many
// problems to report. The larger should cost about ten times the smaller.
func BenchmarkLoadAdversarial(b *testing.B) {
	benchheap.WarmHeap()
	nest := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	inputs := []struct {
		name string
		make func(n int) string
	}{
		{"nested-flow", func(n int) string {
			return okScenario + "labels: [" + strings.Repeat(nest+",", n/(len(nest)+1)) + "a]\n"
		}},
		{"nested-flow-in-args", func(n int) string {
			return "component: llm\nllm:\n- respond: {tool_calls: [{name: t, args: {a: [" + strings.Repeat(nest+",", n/(len(nest)+1)) + "a]}}]}\n"
		}},
		{"deep-block", func(n int) string {
			var s strings.Builder
			s.WriteString(okScenario + "x:\n")
			for i := 0; s.Len() < n; i = (i + 1) % 100 {
				s.WriteString(strings.Repeat(" ", i+1) + "- \n")
			}
			return s.String()
		}},
		{"many-aliases", func(n int) string { return okScenario + "x: &a [1]\nlabels: [" + strings.Repeat("*a,", n/3) + "a]\n" }},
		{"many-problems", func(n int) string { return okScenario + "labels: [" + strings.Repeat("'a b',", n/6) + "a]\n" }},
	}
	for _, in := range inputs {
		for _, size := range []struct {
			name string
			n    int
		}{{"96KiB", 96 << 10}, {"960KiB", 960 << 10}} {
			file := filepath.Join(b.TempDir(), "x.yaml")
			if err := os.WriteFile(file, []byte(in.make(size.n)), 0o644); err != nil {
				b.Fatal(err)
			}
			reg := components.Default()
			b.Run(in.name+"/size="+size.name, func(b *testing.B) {
				b.SetBytes(int64(size.n))
				for b.Loop() {
					_, _ = harness.Load(reg, file)
				}
			})
		}
	}
}
