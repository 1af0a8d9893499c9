package chunk_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/internal/seeds"
)

// maxFuzzBytes bounds the fuzzed document.
const maxFuzzBytes = 4 << 10

// FuzzPlan checks every property of checkPlan (budget, also re-counted;
// no empty chunk; piece-boundary offsets in order; coverage with chunks that
// touch or overlap; the chunk count; determinism) for any text up to 4 KiB,
// a budget of 1 to 2,000 tokens, an overlap of 0% to 49%, and either
// encoding. Seeds: the tool outputs and configurations of the extract
// scenarios, adversarial documents, and the empty-chunk defect.
func FuzzPlan(f *testing.F) {
	outputs := scenarioOutputs(f, "../../scenarios/extract")
	for i, s := range outputs {
		f.Add(s, uint16(50+i*37), uint8(10), i%2 == 0)
	}
	f.Add(strings.Repeat("=", 96)+"\n"+strings.Repeat("=", 97), uint16(3), uint8(40), false) // the empty chunk
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range 24 {
		f.Add(adversarial(rng, 1+rng.IntN(40)), uint16(1+rng.IntN(80)), uint8(10*(i%5)), i%2 == 1)
	}
	tks := []core.Tokenizer{tokens.MustNew(tokens.CL100K), tokens.MustNew(tokens.O200K)}
	f.Fuzz(func(t *testing.T, text string, budget16 uint16, percent uint8, o200k bool) {
		if len(text) > maxFuzzBytes {
			text = text[:maxFuzzBytes]
		}
		tk := tks[0]
		if o200k {
			tk = tks[1]
		}
		budget := 1 + int(budget16)%2000
		overlap := float64(percent%50) / 100
		p, err := chunk.Make(text, tk, budget, overlap)
		if e := checkPlan(tk, text, budget, overlap, p, err); e != nil {
			t.Fatalf("%s, budget %d, overlap %v: %v", tk.Name(), budget, overlap, e)
		}
	})
}

// scenarioOutputs returns the tool outputs of the scenarios under dir:
// text as given, a file's content, and a generated output's template
// repeated once per line (close enough for a seed, without the harness's
// generator), each cut to maxFuzzBytes.
func scenarioOutputs(f *testing.F, dir string) []string {
	texts := seeds.MustOutputs(f, dir, 200)
	for i, text := range texts {
		texts[i] = text[:min(len(text), maxFuzzBytes)]
	}
	return texts
}
