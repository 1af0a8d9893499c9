package bench

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/leaked"
)

// leakedInputs are the throughput cases of the leaked-call scanner.
func leakedInputs() []struct {
	name string
	text string
} {
	dense := func(size int) string {
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "Step %d.\n<tool_call>{\"name\": \"logs__query\", \"arguments\": {\"host\": \"web-%d\", \"since\": \"1h\", \"q\": \"level=ERROR </tool_call>\"}}</tool_call>\n", i, i%8)
		}
		return b.String()
	}
	bigArg := func(size int) string {
		return `<tools>{"name": "files__write", "arguments": {"path": "out.txt", "body": "` +
			strings.Repeat("lorem ipsum dolor sit amet, ", size/28) + `"}}</tools>`
	}
	unclosed := func(size int) string { return strings.Repeat("<tool_call ", size/11) }
	return []struct {
		name string
		text string
	}{
		{"input=prose/size=1MiB", generate("prose", 1<<20)},
		{"input=dense-calls/size=1MiB", dense(1 << 20)},
		{"input=one-big-call/size=100KiB", bigArg(100 << 10)},
		{"input=unclosed-tags/size=1MiB", unclosed(1 << 20)},
		{"input=unclosed-tags/size=10MiB", unclosed(10 << 20)},
	}
}

// BenchmarkLeaked measures the scanner's throughput. Compare input=prose with
// BenchmarkIndexByte (the floor: finding every '<'), and the two unclosed-tags
// sizes with each other (linear: 10 MiB costs about 10× 1 MiB).
func BenchmarkLeaked(b *testing.B) {
	for _, in := range leakedInputs() {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			calls := 0
			for b.Loop() {
				calls = len(leaked.Extract(in.text, leaked.Options{}).Calls)
			}
			b.ReportMetric(float64(calls), "calls")
		})
	}
}

// BenchmarkIndexByte is the baseline for tag-free text: visiting every '<'.
func BenchmarkIndexByte(b *testing.B) {
	text := []byte(generate("prose", 1<<20))
	b.Run("input=prose/size=1MiB", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			for i := 0; ; i++ {
				j := bytes.IndexByte(text[i:], '<')
				if j < 0 {
					break
				}
				i += j
			}
		}
	})
}
