package tokens

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestPieceCacheIsExact counts random short pieces through one cache, each
// twice, against the merge itself: pieces of 1 to 20 bytes (over the 16 the
// cache holds), with zero bytes at the end (which pack to the same words as
// the piece without them), invalid UTF-8 and repeats, many more than the
// cache has slots, so that slots are taken over again and again.
func TestPieceCacheIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	alphabet := "ab \x00\xff\xc3\xa9=-0"
	var pieces []string
	for range Trials(40000) {
		b := make([]byte, 1+rng.IntN(20))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		pieces = append(pieces, string(b))
	}
	pieces = append(pieces, "a", "a\x00", "a\x00\x00", "\x00", "\x00\x00", "ab", "ab\x00")
	for _, name := range []string{CL100K, O200K} {
		enc, err := load(name)
		if err != nil {
			t.Fatal(err)
		}
		c := new(pieceCache)
		for round := range 2 {
			for _, p := range pieces {
				for _, valid := range []bool{false, true} {
					if valid && !utf8.ValidString(p) {
						continue
					}
					if got, want := c.count(enc, p, valid), enc.count(p, valid); got != want {
						t.Fatalf("%s round %d: %q (valid %v): cached %d, merged %d", name, round, p, valid, got, want)
					}
				}
			}
		}
	}
}
