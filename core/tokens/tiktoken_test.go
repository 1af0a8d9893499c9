package tokens_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/tokens"
)

// The random differentials against tiktoken-go are plain tests in
// tiktoken_differential_test.go and utf8_differential_test.go.
var _ = Describe("Tiktoken", func() {
	for _, name := range tokens.Names() {
		tk := tokens.MustNew(name)

		countsLikeTiktoken(tk, samples)

		It(name+" keeps the tokenizer contract", func() {
			Expect(tokens.Check(tk, samples...)).To(Succeed())
		})
	}

	It("walks the pieces again from any boundary, and marks every k-th boundary", func() {
		for _, name := range tokens.Names() {
			tk := tokens.MustNew(name)
			for _, s := range append(samples[:len(samples):len(samples)], strings.Repeat("a b\n", 300)) { // 900 pieces: batches
				pieces := tk.Pieces(nil, s)
				for i, p := range pieces {
					got := tk.PiecesFrom(nil, s, p.Start, 3)
					Expect(got).To(Equal(pieces[i:min(i+3, len(pieces))]), "%s: %q from %d", name, s, p.Start)
					Expect(tk.PiecesFrom(got[:1], s, p.Start, 0)).To(Equal(got[:1]))
					if i%97 == 0 { // over PiecesFrom's batches of the counting loop (markBatch+1 pieces a call)
						Expect(tk.PiecesFrom(nil, s, p.Start, 300)).To(Equal(pieces[i:min(i+300, len(pieces))]), "%s: %q, 300 from %d", name, s, p.Start)
					}
				}
				for _, every := range []int{1, 3, 64} {
					want := []tokens.Mark{{}}
					tok := 0
					for i, p := range pieces {
						tok += p.Tokens
						if (i+1)%every == 0 || i == len(pieces)-1 {
							want = append(want, tokens.Mark{Piece: i + 1, Offset: p.End, Tokens: tok})
						}
					}
					var got []tokens.Mark
					batches := 0
					tk.WalkMarks(s, every, func(batch []tokens.Mark) bool {
						got, batches = append(got, batch...), batches+1
						return true
					})
					Expect(got).To(Equal(want), "%s: %q every %d", name, s, every)
					Expect(batches).To(Equal((len(want)+127)/128), "%s: %q every %d: batches of 128", name, s, every)
					got = got[:0]
					tk.WalkMarks(s, every, func(batch []tokens.Mark) bool {
						got = append(got, batch...)
						return false
					})
					Expect(got).To(Equal(want[:min(128, len(want))]), "%s: %q every %d, stopped", name, s, every)
				}
			}
		}
	})

	It("rejects an unknown encoding and names the known ones", func() {
		_, err := tokens.New("p50k")
		Expect(err).To(MatchError(`unknown encoding "p50k" (known: cl100k_base, o200k_base, o200k_harmony)`))
	})

	It("counts 1 MiB of base64 and of one repeated letter", func() {
		tk := tokens.MustNew(tokens.CL100K)
		raw := make([]byte, 768<<10)
		for i := range raw {
			raw[i] = byte(i * 7)
		}
		Expect(tk.Count(base64.StdEncoding.EncodeToString(raw))).To(BeNumerically(">", 100_000))
		Expect(tk.Count(strings.Repeat("a", 1<<20))).To(BeNumerically(">", 100_000))
	})

	It("is safe for concurrent use", func() {
		tk := tokens.MustNew(tokens.O200K)
		want := tk.Count(samples[6])
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				defer GinkgoRecover()
				Expect(tk.Count(samples[6])).To(Equal(want))
			})
		}
		wg.Wait()
	})
})

// countsLikeTiktoken declares a table, "ENCODING counts like tiktoken-go",
// that compares tk's Count with tiktoken-go's on each of texts.
func countsLikeTiktoken(tk *tokens.Tiktoken, texts []string) bool {
	var entries []TableEntry
	for _, s := range texts {
		entries = append(entries, Entry(nil, s))
	}
	return DescribeTable(tk.Name()+" counts like tiktoken-go",
		func(s string) { Expect(tk.Count(s)).To(Equal(refCount(tk.Name(), s))) },
		shortQuote,
		entries,
	)
}

// shortQuote describes a table entry by its first 40 bytes, quoted.
func shortQuote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// The random differentials on invalid UTF-8 are plain tests in
// utf8_differential_test.go.
var _ = Describe("Tiktoken on invalid UTF-8", func() {
	for _, name := range tokens.Names() {
		tk := tokens.MustNew(name)

		countsLikeTiktoken(tk, invalidSamples)

		It(name+" keeps the tokenizer contract with offsets into the original bytes", func() {
			Expect(tokens.Check(tk, invalidSamples...)).To(Succeed())
			for _, s := range invalidSamples {
				sum := 0
				tk.WalkPieces(s, func(start, end, n int) {
					// Each piece re-counted on its own gives its tokens.
					Expect(tk.Count(s[start:end])).To(Equal(n), "%q in %q", s[start:end], s)
					sum += n
				})
				Expect(sum).To(Equal(tk.Count(s)))
			}
		})
	}
})
