package tokens

import (
	"math/rand/v2"
	"strings"
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

// TestCountBlocksFindsWhatTheCacheKept holds the counting loop's lookups
// (the small, short and long entries, by the keys countBlocks builds) to
// the keys the cache stores them under: after one count of a text of pieces
// of every length up to longMax, a second pass of countBlocks alone counts
// all but the text's last window without leaving the loop, to the same
// count as the pieces it passed. A lookup that disagreed with the cache's
// key would miss every time: slower, never wrong, so no other spec sees it.
func TestCountBlocksFindsWhatTheCacheKept(t *testing.T) {
	var b strings.Builder
	for n := 1; n <= longMax; n++ { // " " and n-1 letters, then ",": pieces of 1 to longMax bytes
		b.WriteString(" " + strings.Repeat("abcdefghij", 5)[:n-1] + ",")
	}
	text := strings.Repeat(b.String()+"\n", 4)
	for _, name := range []string{CL100K, O200K} {
		enc, err := load(name)
		if err != nil {
			t.Fatal(err)
		}
		c := new(pieceCache)
		mk := marker{left: len(text) + 1}
		enc.countFast(c, text, 0, &mk, true) // fills the cache
		mk = marker{left: len(text) + 1, o200k: enc.o200k, small: &c.small, sets: &c.sets, long: &c.long}
		end := countBlocks(text, 0, &mk)
		if end < len(text)-blockBytes {
			t.Fatalf("%s: countBlocks left the loop at %d of %d (%q): a lookup missed what the cache holds", name, end, len(text), text[end:min(end+20, len(text))])
		}
		want := 0
		(&Tiktoken{enc: enc}).WalkPieces(text, func(_, stop, tokens int) {
			if stop <= end {
				want += tokens
			}
		})
		if got := mk.tokens; got != want {
			t.Errorf("%s: countBlocks counted %d tokens, the pieces it passed %d", name, got, want)
		}
	}
}
