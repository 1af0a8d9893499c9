package tokens

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"
)

// longPieces returns single pieces (no pre-splitting: the merge is checked
// alone) of runs, repeated patterns, random letters, base64 and U+FFFD runs.
func longPieces(rng *rand.Rand) []string {
	raw := make([]byte, 3000)
	for i := range raw {
		raw[i] = byte(rng.UintN(256))
	}
	return []string{
		strings.Repeat("a", 5000), strings.Repeat("=", 5000), strings.Repeat(" ", 5000),
		strings.Repeat("-", 4097), strings.Repeat("\n", 3001), strings.Repeat("_", 2500),
		strings.Repeat(replacement, 2000), strings.Repeat("ab", 3000), strings.Repeat("abcabd", 700),
		strings.Repeat("=-", 2100), strings.Repeat("0", 3333), strings.Repeat("ing", 1500),
		base64.StdEncoding.EncodeToString(raw), strings.ToLower(base64.StdEncoding.EncodeToString(raw)),
		letters(rng, "abcdefghijklmnopqrstuvwxyz", 6000), letters(rng, "ae", 6000), letters(rng, "=-_ ", 6000),
		letters(rng, "ABab", 6000), string(raw),
	}
}

// letters returns n bytes drawn at random from alphabet.
func letters(rng *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// encodings returns cl100k_base and o200k_base, in that order.
func encodings(tb testing.TB) []*encoding {
	var out []*encoding
	for _, name := range []string{CL100K, O200K} {
		enc, err := load(name)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, enc)
	}
	return out
}

// TestWindowedMergeIsExact checks countLong against the tree merge over the
// whole piece, for windows from tiny (which glue often and fail to glue
// often) to the default, on both encodings, and that with the default
// window gluing, not the fallback, does the work.
func TestWindowedMergeIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	pieces := longPieces(rng)
	for _, enc := range encodings(t) {
		for _, piece := range pieces {
			want := enc.countTree(piece)
			for _, w := range []int{16, 33, 64, 200, 512, window} {
				if got := enc.countLong(piece, w); got != want {
					t.Fatalf("%s: piece %.20q… (%d bytes), window %d: %d tokens, tree merge %d", enc.name, piece, len(piece), w, got, want)
				}
			}
			long := strings.Repeat(piece, 3*window/len(piece)+1)
			if _, ok := enc.countWindows(long, window); !ok {
				t.Errorf("%s: %.20q… repeated to %d bytes: the default windows do not glue", enc.name, long, len(long))
			}
		}
	}
}

// TestWindowedMergeRandomPieces compares on many shorter random pieces with
// small windows, where each piece is glued many times.
func TestWindowedMergeRandomPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	alphabets := []string{"ab", "aab", "=", "=-", " \n", "abcde", "xyzXYZ", "0123456789", "\xef\xbf\xbd="}
	for _, enc := range encodings(t) {
		for range 2000 {
			alphabet := alphabets[rng.IntN(len(alphabets))]
			piece := letters(rng, alphabet, 50+rng.IntN(400))
			w := 8 + rng.IntN(60)
			if got, want := enc.countLong(piece, w), enc.countTree(piece); got != want {
				t.Fatalf("%s: %q window %d: %d tokens, tree merge %d", enc.name, piece, w, got, want)
			}
		}
	}
}

// quadratic is the reference merge written plainly: merge the lowest-ranked
// adjacent pair, leftmost on ties, until none is left.
func quadratic(e *encoding, piece string) int {
	bounds := make([]int, len(piece)+1)
	for i := range bounds {
		bounds[i] = i
	}
	for {
		best, at := int32(noRank), -1
		for i := 0; i+2 < len(bounds); i++ {
			if r := e.rank(piece[bounds[i]:bounds[i+2]]); r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			return len(bounds) - 1
		}
		bounds = append(bounds[:at+1], bounds[at+2:]...)
	}
}

// TestTreeMergeIsExact checks the tournament-tree merge against the plain
// quadratic merge on random pieces of all lengths up to 400 bytes.
func TestTreeMergeIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	alphabets := []string{"ab", "a", "=", "=-", " \n", "abcdefghijklmnopqrstuvwxyz", "xyzXYZ09", "\xef\xbf\xbd=", "\x00\xff\x80"}
	for _, enc := range encodings(t) {
		for range 600 {
			alphabet := alphabets[rng.IntN(len(alphabets))]
			piece := letters(rng, alphabet, 2+rng.IntN(400))
			if got, want := enc.countTree(piece), quadratic(enc, piece); got != want {
				t.Fatalf("%s: %q: %d tokens, quadratic merge %d", enc.name, piece, got, want)
			}
		}
	}
}

// FuzzMergeWindows checks the windowed merge of long pieces (countLong, with
// windows of 8 to 263 bytes so that any input up to 8 KiB is glued many
// times) against the tree merge of the whole piece, on arbitrary bytes with
// either encoding. The pieces of TestWindowedMergeIsExact seed it.
func FuzzMergeWindows(f *testing.F) {
	for i, p := range longPieces(rand.New(rand.NewPCG(17, 18))) {
		f.Add(p, uint8(i*13), i%2 == 0)
	}
	both := encodings(f)
	encs := map[bool]*encoding{false: both[0], true: both[1]}
	f.Fuzz(func(t *testing.T, piece string, w uint8, o200k bool) {
		piece = piece[:min(len(piece), 8<<10)]
		enc, window := encs[o200k], 8+int(w)
		if got, want := enc.countLong(piece, window), enc.countTree(piece); got != want {
			t.Fatalf("%s: window %d: %d tokens, tree merge %d: %q", enc.name, window, got, want, piece)
		}
	})
}
