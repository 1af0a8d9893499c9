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
