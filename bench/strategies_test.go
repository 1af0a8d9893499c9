package bench

import (
	"bytes"
	"context"
	"encoding/xml"
	"strings"
	"testing"
)

// tinyCases is a small corpus for tests: a short log and a long line.
func tinyCases() []Case {
	var log strings.Builder
	for i := range 400 {
		log.WriteString("2026-11-03T10:00:00Z host=web-1 level=INFO msg=\"ok\" latency_ms=12\n")
		if i == 200 {
			log.WriteString("2026-11-03T10:00:00Z host=web-1 level=WARN msg=\"audit " + fact(1) + "\"\n")
		}
	}
	return []Case{{Name: "log", Tool: "logs__query", Question: Question, Output: log.String(), Facts: []string{fact(1)}}}
}

func TestCompareIsDeterministic(t *testing.T) {
	k := DefaultKnobs()
	k.ByteCap = 2048
	a, err := Compare(context.Background(), tinyCases(), k, "t")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Compare(context.Background(), tinyCases(), k, "t")
	if err != nil {
		t.Fatal(err)
	}
	var ta, tb bytes.Buffer
	if err := WriteTable(&ta, a, false); err != nil {
		t.Fatal(err)
	}
	_ = WriteTable(&tb, b, false)
	if ta.String() != tb.String() {
		t.Fatalf("two runs differ:\n%s\n%s", ta.String(), tb.String())
	}
	byStrategy := map[string]Row{}
	for _, r := range a {
		byStrategy[r.Strategy] = r
	}
	if r := byStrategy["truncate"]; r.Recall != 0 {
		t.Errorf("truncate at 2 KiB found the fact in the middle of a 27 KB log: %+v", r)
	}
	for _, s := range []string{"full-chunked", "read-grep", "in-tool-pagination"} {
		if r := byStrategy[s]; r.Recall != 1 || r.Calls == 0 || r.TotalTokens == 0 {
			t.Errorf("%s: %+v", s, r)
		}
	}
}

func TestBaselineRegressions(t *testing.T) {
	base := []Row{{Knobs: "d", Case: "c", Strategy: "s", Recall: 1, Found: 2, Facts: 2, TotalTokens: 1000}}
	now := []Row{{Knobs: "d", Case: "c", Strategy: "s", Recall: 0.5, Found: 1, Facts: 2, TotalTokens: 1200}}
	regs := CompareBaseline(base, now, 0.1)
	if len(regs) != 2 || !strings.Contains(regs[0].What, "recall 1/2, baseline 2/2") || !strings.Contains(regs[1].What, "+20%") {
		t.Fatalf("got %+v", regs)
	}
	if regs := CompareBaseline(base, base, 0.1); len(regs) != 0 {
		t.Fatalf("same run: %+v", regs)
	}
}

func TestSVGIsWellFormed(t *testing.T) {
	rows := []Row{{Knobs: "default", Strategy: "truncate", TotalTokens: 100, Found: 1, Facts: 2}, {Knobs: "default", Strategy: "read-grep", TotalTokens: 10000, Found: 2, Facts: 2}}
	var b bytes.Buffer
	if err := WriteSVG(&b, rows); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(&b)
	for {
		if _, err := dec.Token(); err != nil {
			if err.Error() == "EOF" {
				return
			}
			t.Fatal(err)
		}
	}
}
