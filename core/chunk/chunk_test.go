package chunk_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/tokens"
)

var words = strings.Fields("the quick brown fox jumps over lazy dog error timeout host=web-0 level=INFO {\"id\":12} 東京 ✅ latency_ms=1532")

// fragments are the adversarial alphabet: runs of one character, long
// single pieces, invalid UTF-8, multi-byte text and words.
var fragments = []func(rng *rand.Rand) string{
	func(rng *rand.Rand) string { return strings.Repeat("=", 1+rng.IntN(300)) },
	func(rng *rand.Rand) string { return strings.Repeat("-", 1+rng.IntN(200)) },
	func(rng *rand.Rand) string { return strings.Repeat(" ", 1+rng.IntN(100)) },
	func(rng *rand.Rand) string { return strings.Repeat("\n", 1+rng.IntN(20)) },
	func(rng *rand.Rand) string { return strings.Repeat("=", 1+rng.IntN(80)) + "\n" },
	func(rng *rand.Rand) string { return strings.Repeat("a", 1+rng.IntN(400)) },
	func(rng *rand.Rand) string { return strings.Repeat("\xff", 1+rng.IntN(50)) },
	func(rng *rand.Rand) string {
		return []string{"\xe2\x82", "\xed\xa0\x80", "\xc0\x80", "\x80", "caf\xc3"}[rng.IntN(5)]
	},
	func(rng *rand.Rand) string { return strings.Repeat("東京 ", 1+rng.IntN(10)) },
	func(rng *rand.Rand) string { return strings.Repeat("😀", 1+rng.IntN(10)) },
	func(rng *rand.Rand) string { return strings.Repeat("1234567890", 1+rng.IntN(10)) },
	func(rng *rand.Rand) string { return words[rng.IntN(len(words))] + " " },
}

// adversarial builds a document of n random fragments.
func adversarial(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(fragments[rng.IntN(len(fragments))](rng))
	}
	return b.String()
}

// document builds a random multi-line document.
func document(rng *rand.Rand, lines int) string {
	var b strings.Builder
	for range lines {
		for j := range 1 + rng.IntN(14) {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

var _ = Describe("Make", func() {
	tk := tokens.MustNew(tokens.CL100K)

	It("keeps every property over random documents and budgets", func() {
		rng := rand.New(rand.NewPCG(21, 34))
		for trial := range 60 {
			doc := document(rng, 20+rng.IntN(600))
			budget := 200 + rng.IntN(1800)
			overlap := []float64{0, 0.05, 0.10, 0.2, 0.3}[rng.IntN(5)]
			what := fmt.Sprintf("trial %d: budget %d overlap %v", trial, budget, overlap)
			p, err := chunk.Make(doc, tk, budget, overlap)
			Expect(err).NotTo(HaveOccurred(), what)
			total := tk.Count(doc)
			Expect(p.Tokens).To(Equal(total), what)
			o := int(math.Floor(overlap * float64(budget)))
			want := 1
			if total > budget {
				want = (total - o + budget - o - 1) / (budget - o)
			}
			Expect(p.Chunks).To(HaveLen(want), what+": the fewest chunks")
			minT, maxT := math.MaxInt, 0
			for i, c := range p.Chunks {
				Expect(c.Tokens).To(BeNumerically("<=", budget), what)
				Expect(tk.Count(doc[c.Start:c.End])).To(BeNumerically("<=", budget), what+": re-counted")
				if i == 0 {
					Expect(c.Start).To(Equal(0), what)
				} else {
					prev := p.Chunks[i-1]
					Expect(c.Start).To(BeNumerically("<=", prev.End), what+": no gap")
					Expect(c.Start).To(BeNumerically(">", prev.Start), what)
					if o > 0 {
						Expect(c.OverlapTokens).To(BeNumerically("~", o, max(o/3, 3)+p.Target/50), what+": overlap")
					} else {
						Expect(c.OverlapTokens).To(Equal(0), what)
					}
				}
				minT, maxT = min(minT, c.Tokens), max(maxT, c.Tokens)
			}
			Expect(p.Chunks[len(p.Chunks)-1].End).To(Equal(len(doc)), what+": covers the document")
			Expect(checkPlan(tk, doc, budget, overlap, p, err)).To(Succeed(), what)
			if len(p.Chunks) >= 2 {
				Expect(float64(maxT)/float64(minT)).To(BeNumerically("<=", 1.05), what+": balanced")
			}
		}
	})

	It("keeps every property over adversarial documents: runs, long pieces, invalid bytes", func() {
		rng := rand.New(rand.NewPCG(55, 89))
		for _, tk := range []core.Tokenizer{tk, tokens.MustNew(tokens.O200K), tokens.Estimator{}} {
			for trial := range 400 {
				doc := adversarial(rng, 1+rng.IntN(40))
				budget := 1 + rng.IntN(60)
				if trial%4 == 0 {
					budget = 60 + rng.IntN(600)
				}
				overlap := []float64{0, 0.1, 0.2, 0.3, 0.4, 0.49}[rng.IntN(6)]
				p, err := chunk.Make(doc, tk, budget, overlap)
				Expect(checkPlan(tk, doc, budget, overlap, p, err)).To(Succeed(),
					"%s trial %d: budget %d overlap %v doc %q", tk.Name(), trial, budget, overlap, doc)
			}
		}
	})

	It("never emits an empty chunk: two pieces of exactly the budget, with overlap", func() {
		// Each line of "=" is one piece of 3 tokens; with a budget of 3 and
		// an overlap of one token the pieces cannot overlap, and the plan
		// for the three chunks MinChunks asks for used to end with
		// [194,194), holding 0 tokens.
		doc := strings.Repeat("=", 96) + "\n" + strings.Repeat("=", 97)
		p, err := chunk.Make(doc, tk, 3, 0.4)
		Expect(err).NotTo(HaveOccurred())
		Expect(checkPlan(tk, doc, 3, 0.4, p, err)).To(Succeed())
		Expect(p.Chunks).To(HaveLen(2))
		for _, c := range p.Chunks {
			Expect(c.End).To(BeNumerically(">", c.Start))
			Expect(c.Tokens).To(BeNumerically(">", 0))
		}
	})

	DescribeTable("edge cases",
		func(doc string, budget int, overlap float64, chunks int, errWant error) {
			p, err := chunk.Make(doc, tk, budget, overlap)
			if errWant != nil {
				Expect(err).To(MatchError(errWant))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(p.Chunks).To(HaveLen(chunks))
		},
		Entry("empty document: no chunks", "", 10, 0.1, 0, nil),
		Entry("fits the budget: one chunk", "hello world", 10, 0.1, 1, nil),
		Entry("zero budget", "x", 0, 0.1, 0, chunk.ErrBudget),
		Entry("negative budget", "x", -5, 0.1, 0, chunk.ErrBudget),
		Entry("overlap of one half", "x", 10, 0.5, 0, chunk.ErrOverlap),
		Entry("negative overlap", "x", 10, -0.1, 0, chunk.ErrOverlap),
		Entry("a piece over the budget", strings.Repeat("a", 400), 5, 0.1, 0, chunk.ErrTooLarge),
	)

	It("names the first piece over the budget, however far into the document", func() {
		// 300 pieces of one token, then two pieces of 400 "a" (well over
		// 5 tokens each): the first is in the fifth block of marks, which
		// Make walks again to name it.
		doc := strings.Repeat(" x", 300) + " " + strings.Repeat("a", 400) + " " + strings.Repeat("b", 400)
		p, err := chunk.Make(doc, tk, 5, 0.1)
		Expect(err).To(MatchError(chunk.ErrTooLarge))
		Expect(err.Error()).To(HavePrefix("chunk: piece at bytes 600-1001 has "))
		Expect(checkPlan(tk, doc, 5, 0.1, p, err)).To(Succeed())
	})

	It("prefers line breaks near a cut", func() {
		doc := strings.Repeat("alpha beta gamma delta epsilon zeta eta theta iota kappa\n", 200)
		p, err := chunk.Make(doc, tk, 2000, 0.1)
		Expect(err).NotTo(HaveOccurred())
		for _, c := range p.Chunks {
			Expect(c.Start == 0 || doc[c.Start-1] == '\n').To(BeTrue(), "chunk %d starts mid-line", c.Index)
			Expect(c.End == len(doc) || doc[c.End-1] == '\n').To(BeTrue(), "chunk %d ends mid-line", c.Index)
		}
	})

	It("does not leave a tiny last chunk", func() {
		doc := document(rand.New(rand.NewPCG(1, 2)), 300)
		total := tk.Count(doc)
		p, err := chunk.Make(doc, tk, total/3+5, 0.1)
		Expect(err).NotTo(HaveOccurred())
		last := p.Chunks[len(p.Chunks)-1]
		Expect(last.Tokens).To(BeNumerically(">=", p.Chunks[0].Tokens*95/100))
	})
})
