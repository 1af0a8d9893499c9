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

// TestNonLettersMarksEveryByteAsTheClassTableDoes holds the counting loop's
// eight-bytes-at-a-time letter test to byteClass: every byte value at every
// position of a word, among neighbours that are letters, non-letters and
// bytes past ASCII (a carry from one byte into the next would show there).
func TestNonLettersMarksEveryByteAsTheClassTableDoes(t *testing.T) {
	for _, fill := range []byte{'a', 'Z', '@', '[', '`', '{', 0x00, 0x7f, 0x80, 0xff, 0xc3} {
		for pos := range 8 {
			for b := range 256 {
				word := []byte{fill, fill, fill, fill, fill, fill, fill, fill}
				word[pos] = byte(b)
				got := nonLetters(le64(string(word)))
				for k, c := range word {
					want := byteClass[c]&classLetter == 0
					if marked := got>>(8*k)&0x80 != 0; marked != want || got>>(8*k)&0x7f != 0 {
						t.Fatalf("nonLetters(%q) byte %d (%#x): marked %v (%#x), want %v", word, k, c, marked, got, want)
					}
				}
			}
		}
	}
}

// TestCountRunFindsWhatTheCacheKept holds the piece-at-a-time loop's
// lookups (the small, short and long entries, by the keys countRun builds)
// to the keys the cache stores them under: after one count of a text of
// pieces of every length up to longMax, a second pass of countRun alone
// counts the whole of it without leaving the loop, to the same count. A
// lookup that disagreed with the cache's key would miss every time:
// slower, never wrong, so no other spec sees it.
func TestCountRunFindsWhatTheCacheKept(t *testing.T) {
	var b strings.Builder
	for n := 1; n < longMax; n++ { // " " and n letters: pieces of 2 to longMax bytes, and ","
		b.WriteString(" " + strings.Repeat("abcdefghij", 5)[:n] + ",")
	}
	text := b.String() + "\n"
	for _, name := range []string{CL100K, O200K} {
		_, mk, want := cacheFilled(t, name, text)
		end := countRun(text, 0, &mk, len(text))
		if end != len(text) {
			t.Fatalf("%s: countRun left the loop at %d of %d (%q): a lookup missed what the cache holds", name, end, len(text), text[end:min(end+20, len(text))])
		}
		if got := mk.tokens; got != want {
			t.Errorf("%s: countRun counted %d tokens, countFast %d", name, got, want)
		}
	}
}

// TestCountBlocksFindsWhatTheCacheKept is TestCountRunFindsWhatTheCacheKept
// for the windows' loop (countBlocks, which reads the small, short and
// long entries for every piece, one and two bytes too): after one count, a
// second pass of countBlocks alone counts all but the text's last window
// without a miss, to the same count as the pieces it passed.
func TestCountBlocksFindsWhatTheCacheKept(t *testing.T) {
	var b strings.Builder
	for n := 1; n <= longMax; n++ { // " " and n-1 letters, then ",": pieces of 1 to longMax bytes
		b.WriteString(" " + strings.Repeat("abcdefghij", 5)[:n-1] + ",")
	}
	text := strings.Repeat(b.String()+"\n", 4)
	for _, name := range []string{CL100K, O200K} {
		enc, mk, _ := cacheFilled(t, name, text)
		end, missed := countBlocks(text, 0, &mk)
		if missed || end < len(text)-blockBytes {
			t.Fatalf("%s: countBlocks left the loop at %d of %d (%q), missed %v: a lookup missed what the cache holds", name, end, len(text), text[end:min(end+20, len(text))], missed)
		}
		want := 0
		(&Tiktoken{enc: enc}).WalkPieces(text, func(_, stop, tokens int) {
			if stop <= end {
				want += tokens
			}
		})
		if got := mk.tokens; got != want {
			t.Errorf("%s: countBlocks counted %d tokens to %d, the pieces %d", name, got, end, want)
		}
	}
}

// cacheFilled counts text once in the named encoding with a cache of its
// own, and returns the encoding, a marker that reads that cache (as
// countFast sets one up) and the count.
func cacheFilled(t *testing.T, name, text string) (*encoding, marker, int) {
	t.Helper()
	enc, err := load(name)
	if err != nil {
		t.Fatal(err)
	}
	c := new(pieceCache)
	mk := marker{left: len(text) + 1}
	enc.countFast(c, text, 0, &mk, true)
	return enc, marker{left: len(text) + 1, o200k: enc.o200k, two: &enc.ranks.two, small: &c.small, sets: &c.sets, long: &c.long}, mk.tokens
}
