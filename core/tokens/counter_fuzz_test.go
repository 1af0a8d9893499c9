package tokens_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/tokens"
)

// The Counter specs are in counter_test.go; this file holds its fuzz target.

// counterAlphabet is rich in what decides where pieces end: line breaks
// followed by every kind of character, '/', apostrophes of contractions,
// white space of both kinds, digits, upper and lower case, marks, other
// scripts and invalid bytes.
var counterAlphabet = []string{
	"\n", "\n", "\n", "\r\n", "\r", " ", "  ", "\t", "\u00a0", "\u3000", "\x85", "/", "//", "'", "'s", "'LL", "'re",
	"a", "Z", "abc", "ABC", "Éa", "é", "\u0301", "ǅ", "ʰ", "中", "٣", "1", "123", "4567",
	"{", "}", "[", "\"", "=", "-", "#", "!", "~", ".", "\x00", "\x7f", "\xff", "\xe2\x82", "\xed\xa0\x80",
}

// randomCounterText joins n random parts of counterAlphabet.
func randomCounterText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(counterAlphabet[rng.IntN(len(counterAlphabet))])
	}
	return b.String()
}

// countInParts counts text with a Counter fed the parts that cuts (byte
// offsets, in order) delimit.
func countInParts(tk *tokens.Tiktoken, text string, cuts []int) int {
	c := tk.NewCounter()
	last := 0
	for _, cut := range append(cuts, len(text)) {
		cut = min(max(cut, last), len(text))
		n, err := c.Write([]byte(text[last:cut]))
		if err != nil || n != cut-last {
			panic("Counter.Write failed")
		}
		last = cut
	}
	return c.Tokens()
}

// randomCuts returns k random cut offsets into n bytes, in order.
func randomCuts(rng *rand.Rand, n, k int) []int {
	cuts := make([]int, k)
	for i := range cuts {
		cuts[i] = rng.IntN(n + 1)
	}
	for i := 1; i < len(cuts); i++ {
		for j := i; j > 0 && cuts[j] < cuts[j-1]; j-- {
			cuts[j], cuts[j-1] = cuts[j-1], cuts[j]
		}
	}
	return cuts
}

// FuzzCounter checks, for any text up to 4 KiB, any three places to split
// it into writes, and either encoding, that a Counter fed the parts counts
// what Count counts on the whole text, and that its count so far after the
// first part is that part's count. Seeds: the tool outputs of the extract
// scenarios, the samples of the specs (Unicode 16.0's letters among them),
// and random text rich in line breaks.
func FuzzCounter(f *testing.F) {
	texts := specSeeds(f)
	rng := rand.New(rand.NewPCG(15, 3))
	for range 20 {
		texts = append(texts, randomCounterText(rng, 1+rng.IntN(80)))
	}
	for i, text := range texts {
		f.Add(text, uint16(i*7), uint16(i*31), uint16(i*101), i%2 == 1)
	}
	tks := fuzzEncodings()
	f.Fuzz(func(t *testing.T, text string, a, b, c uint16, o200k bool) {
		text = text[:min(len(text), 4<<10)]
		tk := tks[o200k]
		cuts := []int{int(a) % (len(text) + 1), int(b) % (len(text) + 1), int(c) % (len(text) + 1)}
		for i := 1; i < len(cuts); i++ {
			cuts[i] = max(cuts[i], cuts[i-1])
		}
		if got, want := countInParts(tk, text, cuts), tk.Count(text); got != want {
			t.Fatalf("%s: Counter in parts at %v = %d, Count = %d: %q", tk.Name(), cuts, got, want, text)
		}
		first := tk.NewCounter()
		_, _ = first.Write([]byte(text[:cuts[0]]))
		if got, want := first.Tokens(), tk.Count(text[:cuts[0]]); got != want {
			t.Fatalf("%s: Counter of the first %d bytes = %d, Count = %d: %q", tk.Name(), cuts[0], got, want, text)
		}
	})
}
