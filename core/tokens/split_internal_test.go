package tokens

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// pieces collects the piece ranges a splitter produces.
func pieces(split func(string, func(int, int)), s string) []string {
	var out []string
	split(s, func(a, b int) { out = append(out, fmt.Sprintf("%d:%q", a, s[a:b])) })
	return out
}

// TestSplittersMatchTheirPatterns checks the hand-written splitters piece by
// piece against the encodings' own patterns run through regexp2, on random
// text drawn from every character class the patterns distinguish: 20,000
// strings per encoding (5,000 under the race detector: Trials), every other
// one of ASCII alone (control characters among it), and a quarter of those
// of 64 to 192 bytes, which the counting loop splits a window at a time
// (blockEnds) without the splitters. Both are
// checked: the splitter (Pieces' walk) and the counting loop (countFast,
// through WalkMarks with a mark at every piece). regexp2's classes are Go's
// Unicode 15.0 tables, the splitters' Unicode 16.0's, so the alphabet holds
// only characters whose classes are the same in both (GoTablesAgree,
// checked here); unicode_test.go checks the others against tiktoken's own
// counts.
func TestSplittersMatchTheirPatterns(t *testing.T) {
	alphabet := []rune("aAbZzQ 0 19.,;:'\"!?-_/\\\n\t\r(){}[]<>é東😀ßǅʰ\u0301\u0308ŉĳǈ \u00a0\u2003\u3000\v\f\u0085\u2028Ⅻ½À'sS'LLdtTrEvVmM٣ſ\ufffd")
	ascii := []rune("aAbZzQ  0 19.,;:'\"!?-_/\\\n\t\r\v\f\x00\x1f\x7f(){}[]<>=#'sS'LLdtTrEvVmMreRE")
	for _, r := range alphabet {
		if !GoTablesAgree(r) {
			t.Fatalf("U+%04X has other classes in Go's tables than in the splitters': regexp2 is no reference for it", r)
		}
	}
	for _, name := range []string{CL100K, O200K} {
		enc, err := load(name)
		if err != nil {
			t.Fatal(err)
		}
		tk := &Tiktoken{enc: enc}
		hand := func(s string, fn func(int, int)) { tk.walk(s, func(i, j, _ int) { fn(i, j) }) }
		loop := func(s string, fn func(int, int)) {
			tk.WalkMarks(s, 1, func(batch []Mark) bool {
				for _, m := range batch {
					if m.Piece > 0 {
						fn(0, m.Offset)
					}
				}
				return true
			})
		}
		re, err := regexp2.Compile(patterns[name], regexp2.None)
		if err != nil {
			t.Fatal(err)
		}
		ref := func(s string, fn func(int, int)) { splitRegexp(re, s, fn) }
		rng := rand.New(rand.NewPCG(7, uint64(len(name))))
		for trial := range Trials(20000) {
			from := alphabet
			if trial%2 == 1 {
				from = ascii
			}
			var b strings.Builder
			n := rng.IntN(40)
			if trial%8 == 7 { // ASCII over a window or two: the counting loop's windows (blockEnds)
				n = blockBytes + rng.IntN(2*blockBytes)
			}
			for range n {
				b.WriteRune(from[rng.IntN(len(from))])
			}
			s := b.String()
			if trial%10 == 0 {
				s += string([]byte{0xff, 'a', 0xc3}) // invalid UTF-8
			}
			want := pieces(ref, s)
			if got := pieces(hand, s); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("%s %q: the splitter:\n got %v\nwant %v", name, s, got, want)
			}
			if got := ends(loop, s); strings.Join(got, " ") != strings.Join(ends(ref, s), " ") {
				t.Fatalf("%s %q: the counting loop's piece ends:\n got %v\nwant %v", name, s, got, ends(ref, s))
			}
		}
	}
}

// ends collects the ends of the pieces a splitter produces.
func ends(split func(string, func(int, int)), s string) []string {
	var out []string
	split(s, func(_, b int) { out = append(out, fmt.Sprint(b)) })
	return out
}

// splitRegexp splits with the encoding's pattern itself: the reference the
// hand-written splitters are checked against.
func splitRegexp(re *regexp2.Regexp, s string, fn func(start, end int)) {
	runes := []rune(s)
	// byteAt[i] is the byte offset of rune i; computed on the fly, since
	// matches arrive in order.
	bytePos, runePos := 0, 0
	advance := func(toRune int) int {
		for runePos < toRune {
			_, size := utf8.DecodeRuneInString(s[bytePos:])
			bytePos += size
			runePos++
		}
		return bytePos
	}
	last := 0
	m, _ := re.FindRunesMatch(runes)
	for m != nil {
		start := advance(m.Index)
		if start > last { // a gap the pattern did not cover (cannot happen with tiktoken's patterns)
			fn(last, start)
		}
		end := advance(m.Index + m.Length)
		if end > start {
			fn(start, end)
		}
		last = end
		m, _ = re.FindNextMatch(m)
	}
	if last < len(s) {
		fn(last, len(s))
	}
}
