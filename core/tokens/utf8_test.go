package tokens_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/tokens"
)

// The random differentials on invalid UTF-8 are plain tests in
// utf8_differential_test.go.
var _ = Describe("Tiktoken on invalid UTF-8", func() {
	for _, name := range tokens.Names() {
		tk := tokens.MustNew(name)

		DescribeTable(name+" counts like tiktoken-go",
			func(s string) { Expect(tk.Count(s)).To(Equal(refCount(name, s))) },
			shortQuote,
			tableEntries(invalidSamples),
		)

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
