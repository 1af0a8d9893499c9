package bench

import (
	"testing"

	"github.com/toolout/toolout/core/finalreport"
	"github.com/toolout/toolout/internal/hostile"
)

// adversarial are inputs built to make a naive parser rescan: many near-miss
// opening tags, near-miss closing tags, an unclosed think block.
var finalReportAdversarial = []struct {
	name string
	make func(size int) string
}{
	{"wrong-nonces", func(n int) string { return repeatTo("<ai-agent-abd-FINAL>", n) }},
	{"bare-prefixes", func(n int) string { return repeatTo("<ai-agent-", n) }},
	{"finalize", func(n int) string { return repeatTo("<ai-agent-abc-FINALIZE>", n) }},
	{"near-miss-close", func(n int) string { return `<ai-agent-abc-FINAL format="text">` + repeatTo("</ai-agent-abc-FINA", n) }},
	{"no-gt", func(n int) string { return "<ai-agent-abc-FINAL " + repeatTo("format=x ", n) }},
	{"think-unclosed", func(n int) string { return "<think>" + repeatTo("</think", n) }},
}

// finalReportPairs runs body on each adversarial input at 1 MiB and 10 MiB, as
// NAME/size=SIZE.
func finalReportPairs(b *testing.B, body func(b *testing.B, text string)) {
	for _, a := range finalReportAdversarial {
		for _, size := range []int{1 << 20, 10 << 20} {
			text := a.make(size)
			b.Run(a.name+"/size="+hostile.SizeName(size), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				body(b, text)
			})
		}
	}
}

// BenchmarkFinalReportAdversarial times finalreport.Parse on the adversarial inputs at 1 MiB
// and 10 MiB; the 10 MiB time should be about ten times the 1 MiB time.
func BenchmarkFinalReportAdversarial(b *testing.B) {
	finalReportPairs(b, func(b *testing.B, text string) {
		for b.Loop() {
			if _, err := finalreport.Parse(text, "abc"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFinalReportAdversarialBaseline is the floor of the same inputs in the
// same run, visiting every '<' (see BenchmarkLeakedBaseline): these texts are
// read at memory speed, so their 10 MiB case pays for leaving the CPU cache.
func BenchmarkFinalReportAdversarialBaseline(b *testing.B) {
	finalReportPairs(b, func(b *testing.B, text string) {
		n := 0
		for b.Loop() {
			n = countTags(text)
		}
		b.ReportMetric(float64(n), "tags")
	})
}
