package tokens

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlockEndsAreTheSplittersEnds holds blockEnds to each encoding's
// splitter (matchCL100K, matchO200K, each held to its pattern) at every
// piece start of real source code (this package's) and of random text built
// to meet the patterns' corners (blank lines with spaces on them,
// contractions, a space before punctuation, case changes inside words, '/'
// after punctuation's line breaks, digit runs, bytes past ASCII, invalid
// UTF-8): every end it reports is the splitter's, and it skips none up to
// its last. On the source code it must decide nine bytes in ten, or the
// counting loop would be splitting one piece at a time again.
func TestBlockEndsAreTheSplittersEnds(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatal("no source files", err)
	}
	var code strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code.Write(b)
	}
	alphabet := []string{"a", "Z", "q", "x", "'", "'s", "'T", "'re", "'LL", "'d", "0", "7", "123", " ", " ", "  ", "\t", "\n", "\r\n", "\v", "\f",
		".", "(", ")", "{", "}", "\"", "-", ",", "/", "aB", "\x00", "\x7f", "é", "\u00a0", "東", "٣", "\xff", "\xc3"}
	corners := []string{strings.Repeat("7", 300), "ab " + strings.Repeat("1234567890", 20) + " x\n", strings.Repeat(" ", 70) + "x",
		strings.Repeat("\n \n", 30), strings.Repeat("fooBarBAZ don'T x'llama .\n/ they'd've ", 8)}
	for _, o200k := range []bool{false, true} {
		if decided, total := checkBlockEnds(t, code.String(), o200k); decided < total*9/10 {
			t.Errorf("o200k %v: the blocks decided %d of %d bytes of Go source: want nine in ten", o200k, decided, total)
		}
		for _, s := range corners {
			checkBlockEnds(t, s, o200k)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		for range Trials(4000) {
			var b strings.Builder
			weights := rng.IntN(len(alphabet)) + 1 // favor the first few: mostly ASCII
			for b.Len() < 64+rng.IntN(300) {
				b.WriteString(alphabet[rng.IntN(1+rng.IntN(weights))])
			}
			checkBlockEnds(t, b.String(), o200k)
		}
	}
}

// checkBlockEnds compares blockEnds with the splitter at every piece start
// of s with a block's bytes after it, and returns how many bytes the blocks
// decided (the first block from each piece start that ends one) and len(s).
func checkBlockEnds(t *testing.T, s string, o200k bool) (decided, total int) {
	t.Helper()
	match := matchCL100K
	if o200k {
		match = matchO200K
	}
	var starts []int
	isEnd := make([]bool, len(s)+1)
	for i := 0; i < len(s); {
		starts = append(starts, i)
		i = match(s, i)
		isEnd[i] = true
	}
	next := 0
	for _, i := range starts {
		if i+blockBytes > len(s) {
			break
		}
		got := blockEnds(s[i:], o200k)
		top := 64 - bits.LeadingZeros64(got)
		for k := 1; k < top; k++ {
			if isEnd[i+k] != (got>>k&1 == 1) {
				t.Fatalf("o200k %v, %q from %d: blockEnds says a piece ends at +%d: %v; the splitter: %v", o200k, s[i:i+blockBytes], i, k, got>>k&1 == 1, isEnd[i+k])
			}
		}
		if i >= next && got != 0 {
			decided += top - 1
			next = i + top - 1
		}
	}
	return decided, len(s)
}

// FuzzBlockEnds holds blockEnds to the splitter (checkBlockEnds) of either
// encoding (o200k picks) on arbitrary bytes, each input also repeated to a few windows' length so that every
// piece start meets a window. Seeds: the corners of
// TestBlockEndsAreTheSplittersEnds.
func FuzzBlockEnds(f *testing.F) {
	for i, s := range []string{"don't 'tis we're x'LL", " (x ((y \t(z .\n\tw", "\n \n  \n\tx  5 12345678 'S", "a\r\n\r\n b\v\fc ,\n",
		"é x\u00a0y 東 ٣4", "\xff\xc3 a 'd", "fooBarBAZ don'T x'llama .\n/ HTTPServer", "It's what they'd've done"} {
		f.Add(s, i%2 == 1)
		f.Add(s, i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, s string, o200k bool) {
		if len(s) > 4096 {
			s = s[:4096]
		}
		checkBlockEnds(t, s, o200k)
		if s != "" {
			checkBlockEnds(t, strings.Repeat(s, 1+3*blockBytes/len(s)), o200k)
		}
	})
}
