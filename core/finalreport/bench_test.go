package finalreport_test

import (
	"strings"
	"testing"

	"github.com/toolout/toolout/core/finalreport"
)

// adversarial are inputs built to make a naive parser rescan: many near-miss
// opening tags, near-miss closing tags, an unclosed think block.
var adversarial = []struct {
	name string
	make func(size int) string
}{
	{"wrong-nonces", func(n int) string { return fill("<ai-agent-abd-FINAL>", n) }},
	{"bare-prefixes", func(n int) string { return fill("<ai-agent-", n) }},
	{"finalize", func(n int) string { return fill("<ai-agent-abc-FINALIZE>", n) }},
	{"near-miss-close", func(n int) string { return `<ai-agent-abc-FINAL format="text">` + fill("</ai-agent-abc-FINA", n) }},
	{"no-gt", func(n int) string { return "<ai-agent-abc-FINAL " + fill("format=x ", n) }},
	{"think-unclosed", func(n int) string { return "<think>" + fill("</think", n) }},
}

func fill(unit string, n int) string { return strings.Repeat(unit, n/len(unit)+1)[:n] }

// BenchmarkParseAdversarial times Parse on the adversarial inputs at 1 MiB
// and 10 MiB; the 10 MiB time should be about ten times the 1 MiB time.
func BenchmarkParseAdversarial(b *testing.B) {
	for _, a := range adversarial {
		for _, size := range []struct {
			name string
			n    int
		}{{"1MiB", 1 << 20}, {"10MiB", 10 << 20}} {
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
