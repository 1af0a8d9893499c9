package bench

import (
	"bytes"
	"context"
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
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

// TestCompareIsDeterministic runs two comparisons at once, as two packages'
// tests or two users may: they give the same table, and since each keeps its
// stores in a directory of its own, neither sees or removes the other's files
// and nothing is left under TMPDIR.
func TestCompareIsDeterministic(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	k := DefaultKnobs()
	k.ByteCap = 2048
	var rows [2][]Row
	var errs [2]error
	var wg sync.WaitGroup
	for i := range rows {
		wg.Go(func() { rows[i], errs[i] = Compare(context.Background(), tinyCases(), k, "t") })
	}
	wg.Wait()
	var tables [2]bytes.Buffer
	for i := range rows {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if err := WriteTable(&tables[i], Oracle, rows[i], false); err != nil {
			t.Fatal(err)
		}
	}
	if tables[0].String() != tables[1].String() {
		t.Fatalf("two runs differ:\n%s\n%s", tables[0].String(), tables[1].String())
	}
	if left, err := os.ReadDir(tmp); err != nil || len(left) > 0 {
		t.Fatalf("left under TMPDIR: %v %v", left, err)
	}
	a := rows[0]
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

func TestBaselineRowsMissingOnEitherSideAreRegressions(t *testing.T) {
	base := []Row{{Knobs: "default", Case: "c", Strategy: "s", Recall: 1, TotalTokens: 100}}
	now := []Row{{Knobs: "overlap_percent=0", Case: "c", Strategy: "s", Recall: 1, TotalTokens: 100}}
	regs := CompareBaseline(base, now, 0.1)
	want := []Regression{
		{"default/c/s", "missing from this run (a baseline row this run did not produce)"},
		{"overlap_percent=0/c/s", "not in the baseline (a row of this run that the baseline lacks)"},
	}
	if !reflect.DeepEqual(regs, want) {
		t.Fatalf("got %+v, want %+v", regs, want)
	}
}

func TestSVGIsWellFormed(t *testing.T) {
	rows := []Row{{Knobs: "default", Strategy: "truncate", TotalTokens: 100, Found: 1, Facts: 2}, {Knobs: "default", Strategy: "read-grep", TotalTokens: 10000, Found: 2, Facts: 2}}
	var b bytes.Buffer
	if err := WriteSVG(&b, Model{Name: "<m&m>", URL: "http://x/v1"}, rows); err != nil {
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

func TestReadBaselineNamesWhereAFileIsNotOne(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"{\"rows\": [\n  {\"case\": \"x\",\n", ":3:1: not a baseline: unexpected end of JSON input"},
		{`{"rows": [{"case": 5}]}`, `:1:20: not a baseline: rows.case holds a JSON number where string is wanted`},
		{"{\"rows\": x}", ":1:10: not a baseline: invalid character 'x' looking for beginning of value"},
	} {
		path := filepath.Join(t.TempDir(), "baseline.json")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := ReadBaseline(path)
		if err == nil || err.Error() != path+c.want {
			t.Errorf("ReadBaseline(%q) = %v, want %s%s", c.text, err, path, c.want)
		}
	}
}

// The chart's x axis is the tokens into the main context, not the total:
// a strategy that reads little into the main context but much in total
// (read-grep, full-chunked) sits left of one that fills the main context
// (pagination); two strategies at the same point get labels apart.
func TestSVGPlotsRecallAgainstMainContextTokens(t *testing.T) {
	rows := []Row{
		{Knobs: "default", Strategy: "full-chunked", MainTokens: 100, TotalTokens: 1_000_000, Found: 2, Facts: 2},
		{Knobs: "default", Strategy: "auto", MainTokens: 100, TotalTokens: 1_000_000, Found: 2, Facts: 2},
		{Knobs: "default", Strategy: "in-tool-pagination", MainTokens: 50_000, TotalTokens: 60_000, Found: 1, Facts: 2},
	}
	var b bytes.Buffer
	if err := WriteSVG(&b, Oracle, rows); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	point := regexp.MustCompile(`<circle cx="([0-9.]+)" cy="([0-9.]+)" r="6"`).FindAllStringSubmatch(svg, -1)
	label := regexp.MustCompile(`<text x="([0-9.]+)" y="([0-9.]+)" fill="#[0-9a-f]+">([a-z-]+)</text>`).FindAllStringSubmatch(svg, -1)
	if len(point) != 3 || len(label) != 3 {
		t.Fatalf("points %v, labels %v", point, label)
	}
	num := func(s string) float64 { f, _ := strconv.ParseFloat(s, 64); return f }
	if num(point[0][1]) >= num(point[2][1]) {
		t.Errorf("full-chunked at x=%s, pagination at x=%s: want the small main context on the left", point[0][1], point[2][1])
	}
	if math.Abs(num(label[0][2])-num(label[1][2])) < 13 {
		t.Errorf("labels of the same point overlap: %v %v", label[0], label[1])
	}
	if !strings.Contains(svg, "tokens into the main context (log scale)") {
		t.Error("no axis title naming main-context tokens")
	}
}

// TestPaginationNeverOverflowsTheMainContext pages a log far larger than
// the main context, its fact at the end: the agent stops before the page
// that would overflow its context, which is never sent (a real model with
// that window would refuse the request), and says so.
func TestPaginationNeverOverflowsTheMainContext(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var log strings.Builder
	for log.Len() < 600_000 {
		log.WriteString("2026-11-03T10:00:00Z host=web-1 level=INFO msg=\"ok\" latency_ms=12\n")
	}
	log.WriteString("2026-11-03T10:00:00Z host=web-1 level=WARN msg=\"audit " + fact(1) + "\"\n")
	cases := []Case{{Name: "big", Tool: "logs__query", Question: Question, Output: log.String(), Facts: []string{fact(1)}}}
	k := DefaultKnobs()
	rows, err := Compare(context.Background(), cases, k, "t")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Strategy != "in-tool-pagination" {
			continue
		}
		if r.MainTokens > k.Extract.ContextWindow-k.Extract.MaxOutputTokens || r.Note != "the pages overflow the main context" || r.Recall != 0 {
			t.Fatalf("want at most %d main tokens and the overflow note, got %+v", k.Extract.ContextWindow-k.Extract.MaxOutputTokens, r)
		}
		return
	}
	t.Fatal("no in-tool-pagination row")
}
