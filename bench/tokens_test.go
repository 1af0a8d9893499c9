package bench

import (
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/tokens"
)

// BenchmarkCount measures token counting throughput per encoding and input
// kind, plus the adversarial case of one 1 MiB piece with no white space.
func BenchmarkCount(b *testing.B) {
	const size = 1 << 20
	inputs := map[string]string{}
	for _, k := range kinds {
		inputs[k] = generate(k, size)
	}
	inputs["one-letter"] = strings.Repeat("a", size)
	order := append(append([]string(nil), kinds...), "one-letter")
	tks := []core.Tokenizer{tokens.MustNew(tokens.CL100K), tokens.MustNew(tokens.O200K), tokens.Estimator{}}
	for _, tk := range tks {
		for _, k := range order {
			text := inputs[k]
			b.Run("enc="+tk.Name()+"/input="+k+"/size="+sizeName(size), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				n := 0
				for b.Loop() {
					n = tk.Count(text)
				}
				b.ReportMetric(float64(n), "tokens")
			})
		}
	}
}

// runs are the adversarial inputs of counting and chunk planning, each as a
// function of its size: one long piece of one byte (a letter, "=", an
// invalid byte, a space), digits (pieces of three), and "=" lines (a piece
// per line). Each runs at 1 MiB and 10 MiB, so the pair shows whether 10x the
// input costs about 10x the time.
var runs = []struct {
	name string
	gen  func(size int) string
}{
	{"one-letter", func(n int) string { return strings.Repeat("a", n) }},
	{"equals", func(n int) string { return strings.Repeat("=", n) }},
	{"invalid-ff", func(n int) string { return strings.Repeat("\xff", n) }},
	{"spaces", func(n int) string { return strings.Repeat(" ", n) }},
	{"digits", func(n int) string { return strings.Repeat("7", n) }},
	{"equals-lines", func(n int) string { return strings.Repeat(strings.Repeat("=", 79)+"\n", n/80) }},
}

var runSizes = []int{1 << 20, 10 << 20}

// BenchmarkCountAdversarial counts each adversarial run at 1 MiB and 10 MiB
// with both encodings.
func BenchmarkCountAdversarial(b *testing.B) {
	for _, tk := range []core.Tokenizer{tokens.MustNew(tokens.CL100K), tokens.MustNew(tokens.O200K)} {
		for _, r := range runs {
			for _, size := range runSizes {
				b.Run("enc="+tk.Name()+"/input="+r.name+"/size="+sizeName(size), func(b *testing.B) {
					text := r.gen(size)
					b.SetBytes(int64(len(text)))
					n := 0
					for b.Loop() {
						n = tk.Count(text)
					}
					b.ReportMetric(float64(n), "tokens")
				})
			}
		}
	}
}
