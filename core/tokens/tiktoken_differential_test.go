package tokens_test

import (
	"encoding/base64"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/tokens"
)

// The random differentials against tiktoken-go are plain tests with a fixed
// seed each, so that a failure names its trial and reproduces. make test runs
// them in its one pass, under the race detector, with a quarter of the trials
// of the two largest (Trials); a second pass without race compiled net/http
// and crypto/tls again for tiktoken-go, which cost more than the trials.

// TestCountMatchesTiktokenGoOnRandomText compares Count with tiktoken-go on
// 4,000 random strings per encoding (1,000 under race) of up to 120 runes drawn from letters,
// digits, punctuation, contractions and white space of every kind.
func TestCountMatchesTiktokenGoOnRandomText(t *testing.T) {
	alphabet := []rune("aAbZ z0 19.,;:'\"!?-_/\\\n\t\r(){}[]<>é東😀ß \u00a0\u2003\u3000\v\f\u0085\u2028ⅫÀ'sS'LLd")
	sameCountOnRandom(t, 1, tokens.Trials(4000), func(rng *rand.Rand) string {
		var b strings.Builder
		for range rng.IntN(120) {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	})
}

// TestCountMatchesTiktokenGoOnLongPieces compares Count with tiktoken-go,
// whose merge is the plain quadratic one, on long single pieces: 4,000 bytes
// of seeded random base64, the same lowercased, a run of one letter and a
// repeated pattern.
func TestCountMatchesTiktokenGoOnLongPieces(t *testing.T) {
	for _, name := range tokens.Names() {
		t.Run(name, func(t *testing.T) {
			tk := tokens.MustNew(name)
			rng := rand.New(rand.NewPCG(3, 4))
			raw := make([]byte, 3000)
			for i := range raw {
				raw[i] = byte(rng.UintN(256))
			}
			blob := base64.StdEncoding.EncodeToString(raw)
			for _, s := range []string{blob, strings.Repeat("x", 2000), strings.Repeat("abcabd", 500), strings.ToLower(blob)} {
				sameCount(t, tk, s)
			}
		})
	}
}

// TestEncodeMatchesTiktokenGo compares Encode's ids (not only their
// number) with the reference's on the samples, the invalid UTF-8 samples,
// 2,000 random strings per encoding (500 under race) and long pieces; for
// o200k_harmony the reference is composed (refEncode) and the random
// strings hold its special tokens too.
func TestEncodeMatchesTiktokenGo(t *testing.T) {
	alphabet := []string{"a", "Z", " ", "0", "19", ".", "'s", "\n", "\t", "é", "東", "😀", "<|", "|>", "<|end|>", "<|message|>", "<|endoftext|>", "\xff", "\u00a0"}
	for _, name := range tokens.Names() {
		t.Run(name, func(t *testing.T) {
			tk := tokens.MustNew(name)
			rng := rand.New(rand.NewPCG(11, uint64(len(name))))
			texts := append(append([]string{strings.Repeat("x", 5000), strings.Repeat("abcabd", 900)}, samples...), invalidSamples...)
			// long texts: a splitter of o200k_harmony looks for special
			// tokens a few KiB at a time, and a piece that reaches the end of
			// what it looked at (runs of white space, of letters) is matched
			// again on more
			for _, run := range []string{" ", "\n", "a", "7", "-", " \t"} {
				if name != tokens.O200KHarmony {
					break // the others split with no look for special tokens
				}
				var b strings.Builder
				for b.Len() < tokens.Trials(40<<10) { // a quarter under race: still past specialWindow
					b.WriteString(alphabet[rng.IntN(len(alphabet))])
					if rng.IntN(50) == 0 {
						b.WriteString(strings.Repeat(run, rng.IntN(5000)))
					}
				}
				texts = append(texts, b.String())
			}
			for range tokens.Trials(2000) {
				var b strings.Builder
				for range rng.IntN(60) {
					b.WriteString(alphabet[rng.IntN(len(alphabet))])
				}
				texts = append(texts, b.String())
			}
			for _, s := range texts {
				got, want := tk.Encode(nil, s), refEncode(name, s)
				if len(got) != len(want) || !slices.Equal(got, want) {
					t.Fatalf("%s: Encode(%q) = %v, the reference %v", name, s, got, want)
				}
				if n := tk.Count(s); n != len(got) {
					t.Fatalf("%s: Count(%q) = %d, Encode gives %d ids", name, s, n, len(got))
				}
			}
		})
	}
}
