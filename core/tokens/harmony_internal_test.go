package tokens

import (
	"os"
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
