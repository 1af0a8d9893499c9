package bench

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/tokens"
)

// json-aware keeps valid JSON on every corpus case
// whose output is JSON (under the race detector, those of at most 1 MB:
// see race_on_test.go), within the byte cap unless its note says its
// smallest form is over it; it shortens them rather than falling back.
func TestJSONAwareKeepsEveryJSONCaseValid(t *testing.T) {
	k := DefaultKnobs()
	pick := map[string]bool{}
	for _, s := range CorpusCases {
		pick[s.Name] = s.JSON() && (!raceEnabled || s.Size <= 1<<20)
	}
	cases := Corpus(BudgetFor(k), func(name string) bool { return pick[name] })
	if want := map[bool]int{true: 2, false: 4}[raceEnabled]; len(cases) != want {
		t.Fatalf("%d JSON cases, want %d", len(cases), want)
	}
	for _, c := range cases {
		if !json.Valid([]byte(c.Output)) {
			t.Fatalf("%s: the case itself is not JSON", c.Name)
		}
		kept, note, err := jsonAware(c.Output, k.ByteCap)
		switch {
		case err != nil:
			t.Errorf("%s: %v", c.Name, err)
		case !json.Valid([]byte(kept)):
			t.Errorf("%s: json-aware's output is not valid JSON", c.Name)
		case strings.HasPrefix(note, "not JSON") || !strings.Contains(note, "rows cut"):
			t.Errorf("%s: not shortened as JSON: %q", c.Name, note)
		case len(kept) > k.ByteCap && !strings.Contains(note, "over the cap"):
			t.Errorf("%s: %d bytes over the %d-byte cap", c.Name, len(kept), k.ByteCap)
		}
	}
}

// Output that is not JSON falls back to head-tail's cut, and says so.
func TestJSONAwareFallsBackToHeadTailOnText(t *testing.T) {
	c := tinyCases()[0]
	kept, note, err := jsonAware(c.Output, 2048)
	want, _, _ := headTail(c.Output, 2048)
	if err != nil || kept != want || note != "not JSON: head-tail's cut" {
		t.Fatalf("kept %d bytes (head-tail %d), note %q, err %v", len(kept), len(want), note, err)
	}
}

// The cutter rows put their cut, and only it, into the main context, in
// one call, as the truncate row does; on a JSON array with an error-like
// record in the middle, json-aware keeps that record's fact where truncate
// and head-tail (one line) lose it.
func TestCutterRowsPutTheirCutInTheMainContext(t *testing.T) {
	n := 0
	doc, want := records(60<<10, false, &n)
	c := Case{Name: "records", Tool: "events__list", Question: Question, Output: doc, Facts: want}
	k := DefaultKnobs()
	k.ByteCap = 4096
	rows, err := Compare(context.Background(), []Case{c}, k, "t")
	if err != nil {
		t.Fatal(err)
	}
	tk := tokens.MustNew(tokens.CL100K)
	got := map[string]Row{}
	for _, r := range rows {
		got[r.Strategy] = r
	}
	ht, _, _ := headTail(doc, k.ByteCap)
	ja, _, _ := jsonAware(doc, k.ByteCap)
	for s, cut := range map[string]string{"head-tail": ht, "json-aware": ja} {
		r := got[s]
		if r.MainTokens != tk.Count(cut) || r.Calls != 1 || r.TotalTokens <= r.MainTokens {
			t.Errorf("%s: %+v, cut of %d tokens", s, r, tk.Count(cut))
		}
	}
	errorFacts := []string{want[1], want[3]} // in the error-like records
	for _, f := range errorFacts {
		if !strings.Contains(ja, f) || strings.Contains(ht, f) {
			t.Errorf("%s: in json-aware's cut %v, in head-tail's %v", f, strings.Contains(ja, f), strings.Contains(ht, f))
		}
	}
	if got["json-aware"].Found <= got["truncate"].Found {
		t.Errorf("json-aware found %d, truncate %d", got["json-aware"].Found, got["truncate"].Found)
	}
}
