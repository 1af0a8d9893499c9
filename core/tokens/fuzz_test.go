package tokens_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/internal/seeds"
)

// maxFuzzBytes bounds fuzz inputs: tiktoken-go's merge is quadratic in the
// length of a piece, and each execution runs it.
const maxFuzzBytes = 1 << 10

// FuzzCount checks, on arbitrary bytes up to 1 KiB and either encoding (o200k
// picks), that Count equals tiktoken-go's (for text whose characters have
// the same classes in Go's Unicode 15.0 tables, which tiktoken-go uses, as
// in tiktoken's Unicode 16.0: GoTablesAgree; unicode_test.go checks the
// others against tiktoken's own counts), that the pieces are contiguous,
// cover the input and concatenate back to it, that their tokens add up to
// Count, that each piece counted on its own gives its tokens, and that
// WalkPieces, Pieces, WalkMarks and PiecesFrom (the counting loop) agree; that Encode gives the reference's ids, and
// on the o200k runs that o200k_harmony does too, with the same properties. Seeds: the tool outputs of the extract
// scenarios and the cases of the specs (the invalid UTF-8 defect and the
// letters of Unicode 16.0's scripts among them). Inputs stay small because tiktoken-go's merge is quadratic in a
// piece; FuzzMergeWindows covers the long-piece merge.
func FuzzCount(f *testing.F) {
	for i, s := range specSeeds(f) {
		f.Add(s, i%2 == 1)
	}
	tks := fuzzEncodings()
	f.Fuzz(func(t *testing.T, s string, o200k bool) {
		if len(s) > maxFuzzBytes {
			s = s[:maxFuzzBytes]
		}
		tk := tks[o200k]
		n := tk.Count(s)
		if want := refCount(tk.Name(), s); n != want && goTablesAgree(s) {
			t.Fatalf("%s: Count = %d, tiktoken-go %d: %q", tk.Name(), n, want, s)
		}
		if ids := tk.Encode(nil, s); len(ids) != n || goTablesAgree(s) && !slices.Equal(ids, refEncode(tk.Name(), s)) {
			t.Fatalf("%s: Encode = %v (Count %d), the reference %v: %q", tk.Name(), ids, n, refEncode(tk.Name(), s), s)
		}
		if o200k { // o200k_harmony on the same text: its special tokens one each, else o200k_base
			h := tokens.MustNew(tokens.O200KHarmony)
			if got, want := h.Encode(nil, s), refEncode(tokens.O200KHarmony, s); goTablesAgree(s) && !slices.Equal(got, want) {
				t.Fatalf("o200k_harmony: Encode = %v, the reference %v: %q", got, want, s)
			}
			hp := h.Pieces(nil, s)
			checkPieces(t, h, s, h.Count(s), hp)
			checkMarks(t, h, s, hp)
		}
		pieces := tk.Pieces(nil, s)
		checkPieces(t, tk, s, n, pieces)
		checkMarks(t, tk, s, pieces)
		var walked []core.Piece
		tk.WalkPieces(s, func(start, end, tokens int) {
			walked = append(walked, core.Piece{Start: start, End: end, Tokens: tokens})
		})
		if len(walked) != len(pieces) {
			t.Fatalf("%s: WalkPieces gives %d pieces, Pieces %d", tk.Name(), len(walked), len(pieces))
		}
		for i := range walked {
			if walked[i] != pieces[i] {
				t.Fatalf("%s: piece %d: WalkPieces %+v, Pieces %+v", tk.Name(), i, walked[i], pieces[i])
			}
		}
	})
}

// specSeeds are the seeds of the fuzz targets: the tool outputs of the
// extract scenarios, the samples of the specs (the invalid UTF-8 ones among
// them) and the letters of Unicode 16.0's scripts.
func specSeeds(f *testing.F) []string {
	var texts []string
	texts = append(texts, scenarioOutputs(f, "../../scenarios/extract")...)
	texts = append(texts, samples...)
	texts = append(texts, invalidSamples...)
	texts = append(texts, harmonySeeds(f)...)
	return append(texts, unicode16Texts()...)
}

// harmonySeeds are the texts of testdata/o200k-harmony/cases.jsonl: a
// Harmony conversation and the edges of special tokens.
func harmonySeeds(f *testing.F) []string {
	data, err := os.ReadFile("testdata/o200k-harmony/cases.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	var texts []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var c struct{ Text string }
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			f.Fatal(err)
		}
		texts = append(texts, c.Text)
	}
	return texts
}

// fuzzEncodings maps a fuzzed bool to an encoding: false to cl100k_base,
// true to o200k_base.
func fuzzEncodings() map[bool]*tokens.Tiktoken {
	return map[bool]*tokens.Tiktoken{false: tokens.MustNew(tokens.CL100K), true: tokens.MustNew(tokens.O200K)}
}

// goTablesAgree reports whether every character of s has the same classes
// in Go's Unicode tables as in the splitters' (tokens.GoTablesAgree), so
// that tiktoken-go, which splits by Go's, is a reference for s.
func goTablesAgree(s string) bool {
	for _, r := range s {
		if !tokens.GoTablesAgree(r) {
			return false
		}
	}
	return true
}

func checkPieces(t *testing.T, tk *tokens.Tiktoken, s string, count int, pieces []core.Piece) {
	t.Helper()
	var b strings.Builder
	sum := 0
	for i, p := range pieces {
		if p.Start != b.Len() || p.End <= p.Start || p.End > len(s) {
			t.Fatalf("%s: piece %d [%d,%d) after %d bytes of %d", tk.Name(), i, p.Start, p.End, b.Len(), len(s))
		}
		b.WriteString(s[p.Start:p.End])
		if alone := tk.Count(s[p.Start:p.End]); alone != p.Tokens || p.Tokens < 1 {
			t.Fatalf("%s: piece %d %q has %d tokens, counted alone %d", tk.Name(), i, s[p.Start:p.End], p.Tokens, alone)
		}
		sum += p.Tokens
	}
	if b.String() != s {
		t.Fatalf("%s: pieces concatenate to %q, want %q", tk.Name(), b.String(), s)
	}
	if sum != count {
		t.Fatalf("%s: pieces add up to %d tokens, Count = %d", tk.Name(), sum, count)
	}
}

// checkMarks checks that WalkMarks with a mark at every piece (the
// counting loop's pieces) gives pieces' ends and running token counts (the
// counting loop splits without the splitter where a window decides), and that
// PiecesFrom of 1, 3 and 40 pieces from every boundary, and of 300 (over
// its batches of markBatch+1 pieces a call) from every 50th, gives Pieces'
// from there.
func checkMarks(t *testing.T, tk *tokens.Tiktoken, s string, pieces []core.Piece) {
	t.Helper()
	var marks []tokens.Mark
	tk.WalkMarks(s, 1, func(batch []tokens.Mark) bool {
		marks = append(marks, batch...)
		return true
	})
	want, sum := []tokens.Mark{{}}, 0
	for k, p := range pieces {
		sum += p.Tokens
		want = append(want, tokens.Mark{Piece: k + 1, Offset: p.End, Tokens: sum})
	}
	if !slices.Equal(marks, want) {
		t.Fatalf("%s: WalkMarks every piece: %v, Pieces %v: %q", tk.Name(), marks, want, s)
	}
	for k := range pieces { // and from each boundary, as chunk planning walks a block again
		for _, n := range []int{1, 3, 40, 300} {
			if n == 300 && k%50 != 0 {
				continue
			}
			if got := tk.PiecesFrom(nil, s, pieces[k].Start, n); !slices.Equal(got, pieces[k:min(k+n, len(pieces))]) {
				t.Fatalf("%s: PiecesFrom(%d, %d) = %v, Pieces from there %v: %q", tk.Name(), pieces[k].Start, n, got, pieces[k:min(k+n, len(pieces))], s)
			}
		}
	}
}

// scenarioOutputs returns the tool outputs of the scenarios under dir, in
// slices of at most maxFuzzBytes: text as given, a file's content, and a
// generated output's template repeated once per line (close enough for a
// seed, without the harness's generator).
func scenarioOutputs(f *testing.F, dir string) []string {
	var out []string
	for _, text := range seeds.MustOutputs(f, dir, 64) {
		for len(text) > maxFuzzBytes {
			out, text = append(out, text[:maxFuzzBytes]), text[maxFuzzBytes:]
		}
		out = append(out, text)
	}
	return out
}
