package importer_test

import (
	"fmt"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

// hostileOTel builds an OTel trace of about n bytes of one kind: many
// spans that are not LLM calls around one chat span; one chat span whose
// tool result is one huge attribute; tool-call arguments nested deep.
func hostileOTel(n int, kind string) []byte {
	user := `{"role": "user", "parts": [{"type": "text", "content": "q"}]}`
	call := func(args string) string {
		return `{"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "t", "arguments": ` + args + `}]}`
	}
	result := func(text string) string {
		return `{"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": ` + quote(text) + `}]}`
	}
	answer := `{"role": "assistant", "parts": [{"type": "text", "content": "done"}]}`
	in := "[" + user + ", " + call("{}") + ", " + result(strings.Repeat("row\n", 4000)) + "]"
	var spans []string
	switch kind {
	case "spans": // about 40 bytes a span
		for len(spans)*40 < n {
			spans = append(spans, fmt.Sprintf(`{"traceId": "7f3a", "spanId": "%x"}`, len(spans)))
		}
	case "huge-attribute":
		in = "[" + user + ", " + call("{}") + ", " + result(strings.Repeat("ts=1 level=INFO \"quoted\" é\n", n/30)) + "]"
	case "unparented": // one chat span a trace: a first call, or a second that extends the latest first
		small := "[" + user + ", " + call("{}") + ", " + result("row") + "]"
		for i := 0; len(spans)*330 < n; i++ {
			if i%2 == 0 {
				spans = append(spans, spanOf(fmt.Sprintf("t%x", i), fmt.Sprint(i+2), map[string]string{"gen_ai.input.messages": "[" + user + "]", "gen_ai.output.messages": "[" + call("{}") + "]"}))
			} else {
				spans = append(spans, spanOf(fmt.Sprintf("t%x", i), fmt.Sprint(i+2), map[string]string{"gen_ai.input.messages": small, "gen_ai.output.messages": "[" + answer + "]"}))
			}
		}
	case "nested":
		depth := min(n/10, 500)
		in = "[" + user + ", " + call(strings.Repeat(`{"a":`, depth)+"1"+strings.Repeat("}", depth)) + ", " + result(strings.Repeat("row\n", 4000)) + "]"
	}
	spans = append(spans, chatSpan("1", "", in, "["+answer+"]"))
	return []byte(otlp(spans...))
}

var _ = Describe("Import of hostile OTel traces", func() {
	opts := importer.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "t.json", At: -1}

	DescribeTable("reads them in one pass, without a panic or a deep stack",
		func(kind string, n int) {
			files, err := importer.Import(hostileOTel(n, kind), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(scenarioOf(files))).To(ContainSubstring("message 2 is a"))
		},
		Entry("10^5 spans that are not LLM calls", "spans", 100_000*40),
		Entry("a 256 KiB attribute, JSON in a string with escapes (10 MiB: BenchmarkImportOTelAdversarial)", "huge-attribute", 256<<10),
		Entry("tool-call arguments nested 500 deep (toolout's JSON readers refuse more than 512 levels)", "nested", 5_000),
	)

	It("stitches a MiB of un-parented traces (3179 calls, each pair a conversation) by key, and lists at most 10 conversations", func() {
		_, err := importer.Import(hostileOTel(1<<20, "unparented"), opts)
		Expect(err).To(MatchError(MatchRegexp(`^t\.json: 1590 conversations: traceId "7f3a" \(1 chat span, from "q"\), traceId "t0" \(and 1 more trace; 2 chat spans, from "q"\), .*, and 1580 more; import one with --trace-id ID$`)))
	})

	It("refuses JSON nested deeper than 512 levels (as every JSON reader of toolout) at its line:col, in the trace or in a string", func() {
		_, err := importer.Import([]byte(`{"resourceSpans": `+strings.Repeat("[", 10_001)), opts)
		Expect(err).To(MatchError("t.json:1:531: nested too deeply"))
		_, err = importer.Import([]byte(otlp(chatSpan("1", "", strings.Repeat("[", 10_001), "[]"))), opts)
		Expect(err).To(MatchError(MatchRegexp(`^t\.json:1:\d+: gen_ai\.input\.messages: the JSON in the string: nested too deeply$`)))
	})
})

// BenchmarkImportOTelAdversarial times Import at 1 MiB and 10 MiB on the hostile
// OTel traces (10 MiB should cost about ten times 1 MiB at most), and on
// arguments nested 500 deep.
func BenchmarkImportOTelAdversarial(b *testing.B) {
	o := importer.ImportOptions{Dir: "d", Name: "x", TraceName: "t.json", At: -1}
	benchImport(b, []string{"spans", "huge-attribute", "unparented"}, hostileOTel, o)
	trace := hostileOTel(5_000, "nested")
	b.Run("nested/depth=500", func(b *testing.B) { timeImport(b, trace, o) })
}
