package importer_test

import (
	"fmt"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

// hostileFlat builds a trace of about n bytes of one kind, in the flat
// conventions: one OpenLLMetry span of as many short messages as fit;
// one OpenInference span whose tool result is one huge attribute; one
// OpenLLMetry span whose tool result is a huge list of content parts, JSON
// in a string.
func hostileFlat(n int, kind string) []byte {
	var attrs []kv
	msg := func(prefix string, i int, m flatMsg) []kv { return ollm(prefix, i, m) }
	in, out := "gen_ai.prompt", "gen_ai.completion"
	result := strings.Repeat("row\n", 4000)
	switch kind {
	case "openllmetry-messages": // about 130 bytes a message
		attrs = append(attrs, ollm(in, 0, flatMsg{role: "user", content: "q"})...)
		for i := 1; i*130 < n; i += 2 {
			attrs = append(attrs, ollm(in, i, flatMsg{role: "assistant", content: "a"})...)
			attrs = append(attrs, ollm(in, i+1, flatMsg{role: "user", content: "q"})...)
		}
		leak := `<tool_call>{"name": "t", "arguments": {}}</tool_call>`
		return []byte(otlp(flatSpan("1", append(attrs, ollm(out, 0, flatMsg{role: "assistant", content: leak})...)...)))
	case "openinference-huge-attribute":
		msg, in, out = oinf, "llm.input_messages", "llm.output_messages"
		result = strings.Repeat("ts=1 level=INFO \"quoted\" é\n", n/30)
	case "openllmetry-huge-parts":
		part := `{"type": "text", "text": "ts=1 level=INFO \"quoted\" é"}, `
		result = "[" + strings.Repeat(part, n/(len(part)+20)) + `{"type": "text", "text": "end"}]`
	}
	attrs = append(attrs, msg(in, 0, flatMsg{role: "user", content: "q"})...)
	attrs = append(attrs, msg(in, 1, flatMsg{role: "assistant", calls: [][3]string{{"c1", "t", "{}"}}})...)
	attrs = append(attrs, msg(in, 2, flatMsg{role: "tool", toolCallID: "c1", content: result})...)
	attrs = append(attrs, msg(out, 0, flatMsg{role: "assistant", content: "done"})...)
	return []byte(otlp(flatSpan("1", attrs...)))
}

var flatKinds = []string{"openllmetry-messages", "openinference-huge-attribute", "openllmetry-huge-parts"}

var _ = Describe("Import of hostile OpenLLMetry and OpenInference traces", func() {
	opts := importer.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "t.json", At: -1}

	DescribeTable("reads them in one pass (10 MiB: BenchmarkImportOTelFlatAdversarial)",
		func(kind string, n int, want string) {
			files, err := importer.Import(hostileFlat(n, kind), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(scenarioOf(files))).To(ContainSubstring(want))
		},
		Entry("10^4 flattened messages in one span", "openllmetry-messages", 10_000*130, "leaked"),
		Entry("a 256 KiB tool result in one attribute", "openinference-huge-attribute", 256<<10, "message 2 is a"),
		Entry("a 256 KiB tool result as content parts, JSON in a string", "openllmetry-huge-parts", 256<<10, "message 2 is a"),
	)

	It("names a key with line breaks in it on one line, the breaks escaped", func() {
		trace := otlp(flatSpan("1", kv{"gen_ai.prompt.0.role", "user"}, kv{"gen_ai.prompt.0\r\n.x", "x"}, kv{"gen_ai.completion.0.content", "a"}))
		_, err := importer.Import([]byte(trace), opts)
		Expect(err).To(HaveOccurred())
		Expect(strings.ContainsAny(err.Error(), "\r\n")).To(BeFalse(), err.Error())
		Expect(err.Error()).To(ContainSubstring(`gen_ai.prompt.0\r\n.x`))
	})

	It("names a megabyte key clipped, and counts its segments before splitting it", func() {
		long := strings.Repeat("a", 1<<20)
		for _, key := range []string{"gen_ai.prompt.1" + strings.Repeat("."+long[:1<<16], 16), "gen_ai.prompt." + long + ".role", "gen_ai.prompt." + strings.Repeat(".", 1<<20)} {
			trace := otlp(flatSpan("1", kv{"gen_ai.prompt.0.role", "user"}, kv{key, "x"}, kv{"gen_ai.completion.0.content", "a"}))
			_, err := importer.Import([]byte(trace), opts)
			Expect(err).To(HaveOccurred())
			Expect(len(err.Error())).To(BeNumerically("<", 400), err.Error()[:min(400, len(err.Error()))])
			Expect(err.Error()).To(HavePrefix(colOf(trace, `{"stringValue": "x"}`) + ": gen_ai.prompt."))
		}
	})

	It("refuses the 100 001st message at its attribute, without allocating for the index", func() {
		trace := otlp(flatSpan("1", kv{"gen_ai.prompt.0.role", "user"}, kv{"gen_ai.prompt.100000.role", "late"}, kv{"gen_ai.completion.0.content", "a"}))
		_, err := importer.Import([]byte(trace), opts)
		Expect(err).To(MatchError(fmt.Sprintf("%s: gen_ai.prompt.100000.role: index 100000: want an index from 0 to 99999 without leading zeros (a list holds at most 100000 items)",
			colOf(trace, `{"stringValue": "late"}`))))
	})
})

// BenchmarkImportOTelFlatAdversarial times Import at 1 MiB and 10 MiB on the hostile
// traces of the flat conventions (10 MiB should cost about ten times
// 1 MiB at most).
func BenchmarkImportOTelFlatAdversarial(b *testing.B) {
	benchImport(b, flatKinds, hostileFlat, importer.ImportOptions{Dir: "d", Name: "x", TraceName: "t.json", At: -1})
}
