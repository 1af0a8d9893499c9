package bench

import (
	"testing"

	"github.com/toolout/toolout/core/finalreport"
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

// BenchmarkFinalReportAdversarial times finalreport.Parse on the adversarial inputs at 1 MiB
// and 10 MiB; the 10 MiB time should be about ten times the 1 MiB time.
func BenchmarkFinalReportAdversarial(b *testing.B) {
	for _, a := range finalReportAdversarial {
		for _, size := range []struct {
			name string
			n    int
		}{{sizeName(1 << 20), 1 << 20}, {sizeName(10 << 20), 10 << 20}} {
			text := a.make(size.n)
			b.Run(a.name+"/size="+size.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if _, err := finalreport.Parse(text, "abc"); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
