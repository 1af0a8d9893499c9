package tokens

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlockEndsAreTheSplittersEnds holds blockEnds to cl100k_base's splitter
// (matchCL100K, itself held to the pattern) at every piece start of real
// source code (this package's) and of random text built to meet the
// pattern's corners (blank lines with spaces on them, contractions, a space
// before punctuation, digit runs, bytes past ASCII, invalid UTF-8): every
// end it reports is the splitter's, and it skips none up to its last. On
// the source code it must decide most of the bytes, or the counting loop
// would be splitting one piece at a time again.
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
	decided, total := checkBlockEnds(t, code.String())
	t.Logf("decided %d of %d", decided, total)
	if decided < total*9/10 {
		t.Errorf("the blocks decided %d of %d bytes of Go source: want most", decided, total)
	}
	alphabet := []string{"a", "Z", "q", "x", "'", "'s", "'T", "'re", "'LL", "'d", "0", "7", "123", " ", " ", "  ", "\t", "\n", "\r\n", "\v", "\f",
		".", "(", ")", "{", "}", "\"", "-", ",", "\x00", "\x7f", "é", "\u00a0", "東", "٣", "\xff", "\xc3"}
	for _, s := range []string{strings.Repeat("7", 300), "ab " + strings.Repeat("1234567890", 20) + " x\n", strings.Repeat(" ", 70) + "x", strings.Repeat("\n \n", 30)} {
		checkBlockEnds(t, s)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range Trials(4000) {
		var b strings.Builder
		weights := rng.IntN(len(alphabet)) + 1 // favor the first few: mostly ASCII
		for b.Len() < 64+rng.IntN(300) {
			b.WriteString(alphabet[rng.IntN(1+rng.IntN(weights))])
		}
		checkBlockEnds(t, b.String())
	}
}

// checkBlockEnds compares blockEnds with the splitter at every piece start
// of s with a block's bytes after it, and returns how many bytes the blocks
// decided (the first block from each piece start that ends one) and len(s).
func checkBlockEnds(t *testing.T, s string) (decided, total int) {
	t.Helper()
	var starts []int
	isEnd := make([]bool, len(s)+1)
	for i := 0; i < len(s); {
		starts = append(starts, i)
		i = matchCL100K(s, i)
		isEnd[i] = true
	}
	next := 0
	for _, i := range starts {
		if i+blockBytes > len(s) {
			break
		}
		got := blockEnds(s[i:])
		top := 64 - bits.LeadingZeros64(got)
		for k := 1; k < top; k++ {
			if isEnd[i+k] != (got>>k&1 == 1) {
				t.Fatalf("%q from %d: blockEnds says a piece ends at +%d: %v; the splitter: %v", s[i:i+blockBytes], i, k, got>>k&1 == 1, isEnd[i+k])
			}
		}
		if i >= next && got != 0 {
			decided += top - 1
			next = i + top - 1
		}
	}
	return decided, len(s)
}

// FuzzBlockEnds holds blockEnds to the splitter (checkBlockEnds) on arbitrary
// bytes, each input also repeated to a few windows' length so that every
// piece start meets a window. Seeds: the corners of
// TestBlockEndsAreTheSplittersEnds.
func FuzzBlockEnds(f *testing.F) {
	for _, s := range []string{"don't 'tis we're x'LL", " (x ((y \t(z .\n\tw", "\n \n  \n\tx  5 12345678 'S", "a\r\n\r\n b\v\fc ,\n", "é x\u00a0y 東 ٣4", "\xff\xc3 a 'd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			s = s[:4096]
		}
		checkBlockEnds(t, s)
		if s != "" {
			checkBlockEnds(t, strings.Repeat(s, 1+3*blockBytes/len(s)))
		}
	})
}
