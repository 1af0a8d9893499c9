package bench

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/tokens"
)

// only keeps the cases named.
func only(names ...string) func(string) bool {
	return func(n string) bool {
		for _, m := range names {
			if n == m {
				return true
			}
		}
		return false
	}
}

// A case is the same, facts and bytes, whichever other cases are built
// with it, so that a --cases selection gives the full run's rows.
func TestCorpusCaseDoesNotDependOnTheOthersBuilt(t *testing.T) {
	budget := BudgetFor(DefaultKnobs())
	alone := Corpus(budget, only("code-search-200KB"))
	with := Corpus(budget, only("logs-10KB", "code-search-200KB"))
	if len(alone) != 1 || len(with) != 2 {
		t.Fatalf("built %d and %d cases", len(alone), len(with))
	}
	if !reflect.DeepEqual(alone[0].Facts, with[1].Facts) {
		t.Fatalf("facts alone %v, after logs-10KB %v", alone[0].Facts, with[1].Facts)
	}
	if alone[0].Output != with[1].Output {
		t.Fatal("the output differs when logs-10KB is built first")
	}
}

// The records case is a JSON array whose facts sit in record fields: the
// first record, two of the three error-like records, an ordinary record in
// the middle, the last record.
func TestCorpusRecordsHoldFactsInRecordFields(t *testing.T) {
	c := Corpus(BudgetFor(DefaultKnobs()), only("json-records-400KB"))[0]
	var recs []map[string]any
	if err := json.Unmarshal([]byte(c.Output), &recs); err != nil {
		t.Fatal(err)
	}
	where := map[string]int{}
	errorLike := 0
	for i, r := range recs {
		raw, _ := json.Marshal(r)
		for _, f := range facts(string(raw)) {
			where[f] = i
		}
		if r["level"] == "error" {
			errorLike++
		}
	}
	if len(c.Facts) != 5 || errorLike != 3 {
		t.Fatalf("facts %v, %d error-like records", c.Facts, errorLike)
	}
	n := len(recs)
	first, last := where[c.Facts[0]], where[c.Facts[4]]
	if first != 0 || last != n-1 {
		t.Errorf("first fact in record %d, last in %d of %d", first, last, n)
	}
	for _, f := range []string{c.Facts[1], c.Facts[3]} {
		if r := recs[where[f]]; r["level"] != "error" || !strings.Contains(r["error"].(string), f) {
			t.Errorf("%s not in an error-like record's error: %v", f, r)
		}
	}
	if r := recs[where[c.Facts[2]]]; r["level"] != "info" || where[c.Facts[2]] != n/2 {
		t.Errorf("%s not in the ordinary middle record: %v", c.Facts[2], r)
	}
}

// The stack trace sits in the middle of the logs, with three facts that
// neither the first nor the last 12 KiB hold, on lines that name the error.
func TestCorpusStackTraceSitsInTheMiddle(t *testing.T) {
	c := Corpus(BudgetFor(DefaultKnobs()), only("logs-stacktrace-300KB"))[0]
	head, tail := c.Output[:12<<10], c.Output[len(c.Output)-12<<10:]
	if len(c.Facts) != 5 || !strings.Contains(head, c.Facts[0]) || !strings.Contains(tail, c.Facts[4]) {
		t.Fatalf("facts %v: want the first in the head and the last in the tail", c.Facts)
	}
	for _, f := range c.Facts[1:4] {
		at := strings.Index(c.Output, f)
		if at < len(c.Output)*2/5 || at > len(c.Output)*3/5 {
			t.Errorf("%s at byte %d of %d: not in the middle", f, at, len(c.Output))
		}
	}
	for _, want := range []string{"level=ERROR", "java.lang.IllegalStateException: ledger mismatch " + c.Facts[1],
		"\tat com.shop.ledger.Batch.apply(Batch.java:412) [batch " + c.Facts[2] + "]", "Caused by: java.io.IOException: upstream closed the stream " + c.Facts[3]} {
		if !strings.Contains(c.Output, want) {
			t.Errorf("no %q", want)
		}
	}
	if n := strings.Count(c.Output, "level=ERROR"); n != 1 {
		t.Errorf("%d ERROR lines, want only the trace's", n)
	}
}

// Every fact of the cuts case after the first three straddles a cut of the
// plan without overlap, and lies whole in a chunk of the plan with the
// default overlap.
func TestCorpusCutFactsStraddleTheCuts(t *testing.T) {
	budget := BudgetFor(DefaultKnobs())
	c := Corpus(budget, only("text-cuts-1MB"))[0]
	tk := tokens.MustNew(tokens.CL100K)
	b := budget(c.Tool, c.Output)
	bare, err := chunk.Make(c.Output, tk, b, 0)
	if err != nil {
		t.Fatal(err)
	}
	overlapped, err := chunk.Make(c.Output, tk, b, float64(DefaultKnobs().Extract.OverlapPercent)/100)
	if err != nil {
		t.Fatal(err)
	}
	cut := c.Facts[3:]
	if len(cut) < len(bare.Chunks)/2 {
		t.Fatalf("%d facts across the %d cuts", len(cut), len(bare.Chunks)-1)
	}
	for _, f := range cut {
		at := strings.Index(c.Output, f)
		straddles := slices.ContainsFunc(bare.Chunks, func(ch chunk.Chunk) bool { return ch.End > at && ch.End < at+len(f) })
		whole := slices.ContainsFunc(overlapped.Chunks, func(ch chunk.Chunk) bool { return ch.Start <= at && ch.End >= at+len(f) })
		if !straddles || !whole {
			t.Errorf("%s at %d: across a cut %v, whole in an overlapped chunk %v", f, at, straddles, whole)
		}
	}
}
