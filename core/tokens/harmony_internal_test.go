package tokens

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestHarmonySpecialsAreTheReferenceTable compares o200k_harmony's table
// with testdata/o200k-harmony/specials.tsv (gpt-tokenizer's, as tiktoken
// defines it), entry for entry: no text missing, none added, no id moved.
func TestHarmonySpecialsAreTheReferenceTable(t *testing.T) {
	data, err := os.ReadFile("testdata/o200k-harmony/specials.tsv")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		id, text, _ := strings.Cut(line, "\t")
		n, err := strconv.Atoi(id)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		want[text] = n
	}
	got := harmonySpecials()
	for text, id := range want {
		if got[text] != id {
			t.Errorf("%s: id %d, the reference's %d", text, got[text], id)
		}
	}
	for text := range got {
		if _, ok := want[text]; !ok {
			t.Errorf("%s: not in the reference's table", text)
		}
	}
	for text := range got {
		if len(text) > maxSpecialLen {
			t.Errorf("%s: longer than maxSpecialLen %d", text, maxSpecialLen)
		}
	}
}

// TestHarmonyWalksFromAnywhereReadAhead walks o200k_harmony's pieces again
// from 1,000 places of a MiB with no special token, as chunk planning does
// (PiecesFrom, a few pieces each): the search for special tokens reads a
// few KiB each time, not the rest of the text (it read about 500 MB: chunk
// planning of 10 MiB took 20x o200k_base's time).
func TestHarmonyWalksFromAnywhereReadAhead(t *testing.T) {
	tk, err := New(O200KHarmony)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Repeat("one two three four\n", 1<<20/19)
	pieces := tk.Pieces(nil, s)
	total := 0
	scanned = func(n int) { total += n }
	defer func() { scanned = nil }()
	calls := 0
	for k := 0; k < len(pieces); k += len(pieces) / 1000 {
		got := tk.PiecesFrom(nil, s, pieces[k].Start, 3)
		if want := pieces[k:min(k+3, len(pieces))]; !slices.Equal(got, want) {
			t.Fatalf("from %d: %v, Pieces gives %v", pieces[k].Start, got, want)
		}
		calls++
	}
	if limit := calls * 16 << 10; total > limit { // 16 KiB a walk
		t.Fatalf("%d walks read %d bytes looking for special tokens, over %d", calls, total, limit)
	}
	total = 0
	if n, want := tk.Count(s), len(pieces); n < want/2 {
		t.Fatalf("Count %d", n)
	}
	if total > 2*len(s) {
		t.Fatalf("a count of %d bytes read %d looking for special tokens", len(s), total)
	}
}
