package gateway_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
)

// simpleOracle is the simple strategy as it was first written, kept as
// the oracle of the one that stops keeping words: every word split out,
// the first n joined.
func simpleOracle(content string, n int) string {
	words := strings.Fields(content)
	if len(words) <= n {
		return strings.Join(words, " ")
	}
	return strings.Join(words[:n], " ") + fmt.Sprintf(" [... %d more words]", len(words)-n)
}

// wordPieces are what random contents are made of: ASCII words and every
// ASCII space, Unicode spaces (NEL, NBSP, the U+2000 run, ideographic),
// characters that are not spaces though they look or sit near them
// (U+200B, U+FEFF, U+180E), multi-byte letters, and bytes of invalid UTF-8.
var wordPieces = []string{"a", "word", "é", "日本", "🙂", " ", "\t", "\n", "\v", "\f", "\r", "\x00", "\x7f",
	"\u0085", "\u00a0", "\u1680", "\u2000", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
	"\u200b", "\ufeff", "\u180e", "\xff", "\xc3", "\xe2\x80", "        "}

func randomContent(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(120) {
		b.WriteString(wordPieces[r.IntN(len(wordPieces))])
	}
	return b.String()
}

func simpleCompress(content string, n int) string {
	out, err := gateway.Simple{Words: n}.Compress(context.Background(), gateway.Input{Content: content})
	if err != nil {
		panic(err)
	}
	return out
}

var _ = Describe("Simple", func() {
	It("keeps what splitting every word kept, on random contents of Unicode spaces and invalid UTF-8", func() {
		r := rand.New(rand.NewPCG(1, 2))
		for range 20000 {
			content, n := randomContent(r), 1+r.IntN(12)
			Expect(simpleCompress(content, n)).To(Equal(simpleOracle(content, n)), "content %q, %d words", content, n)
		}
	})

	DescribeTable("counts the words past those kept",
		func(content string, n int, want string) {
			Expect(simpleCompress(content, n)).To(Equal(want))
			Expect(want).To(Equal(simpleOracle(content, n)))
		},
		Entry("none", "", 3, ""),
		Entry("spaces only", " \t\u3000\n", 3, ""),
		Entry("fewer than kept", "  a  b ", 3, "a b"),
		Entry("as many as kept", "a b c", 3, "a b c"),
		Entry("a long ASCII tail", "a b c"+strings.Repeat(" word\tword\n", 1000), 2, "a b [... 2001 more words]"),
		Entry("a tail with Unicode spaces inside 8-byte runs", "a b"+strings.Repeat("xx\u00a0yy\u2003zz ", 100), 1, "a [... 300 more words]"),
		Entry("a word cut by the kept count", "one two"+strings.Repeat("x", 20)+" three", 2, "one two"+strings.Repeat("x", 20)+" [... 1 more words]"),
	)
})

// FuzzSimple holds the simple strategy to its oracle (every word split
// out) on any content and count.
func FuzzSimple(f *testing.F) {
	f.Add("a b c", 2)
	f.Add("x\u00a0y\u3000z \xff\xfe w", 1)
	f.Add(strings.Repeat("word ", 40)+"\u0085tail", 10)
	f.Fuzz(func(t *testing.T, content string, n int) {
		n = 1 + max(0, min(n, 1000)) // Words <= 0 means the default
		if got, want := simpleCompress(content, n), simpleOracle(content, n); got != want {
			t.Fatalf("content %q, %d words: got %q, want %q", content, n, got, want)
		}
	})
}
