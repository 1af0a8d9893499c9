package tokens_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/tokens"
)

var _ = Describe("Estimator", func() {
	est := tokens.Estimator{}

	DescribeTable("counts ceil(bytes/4)",
		func(s string, want int) { Expect(est.Count(s)).To(Equal(want)) },
		Entry("empty", "", 0),
		Entry("one byte", "a", 1),
		Entry("four bytes", "abcd", 1),
		Entry("five bytes", "abcde", 2),
		Entry("multi-byte runes count bytes", "東京", 2),
	)

	It("splits into words with trailing white space whose counts add up", func() {
		Expect(est.Pieces(nil, "ab  cdefg\nh")).To(Equal([]core.Piece{
			{Start: 0, End: 4, Tokens: 1},
			{Start: 4, End: 10, Tokens: 2},
			{Start: 10, End: 11, Tokens: 0},
		}))
	})

	It("keeps the tokenizer contract", func() {
		Expect(tokens.Check(est, samples...)).To(Succeed())
	})
})

var _ = Describe("Check", func() {
	It("reports a tokenizer whose pieces do not add up", func() {
		err := tokens.Check(broken{}, "hello world")
		Expect(err).To(MatchError(ContainSubstring("tokens: broken: text 0: pieces add up to 1 tokens, Count = 2")))
	})
})

// broken counts two tokens but reports one piece of one token.
type broken struct{}

func (broken) Name() string       { return "broken" }
func (broken) Count(s string) int { return min(len(s), 2) }
func (broken) Pieces(dst []core.Piece, s string) []core.Piece {
	if s == "" {
		return dst
	}
	return append(dst, core.Piece{Start: 0, End: len(s), Tokens: 1})
}
