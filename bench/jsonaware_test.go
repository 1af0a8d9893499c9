package bench

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolout/toolout/core/jsonaware"
	"github.com/toolout/toolout/internal/hostile"
)

// jsonAwareBudget is the budget of the json-aware benchmarks: 40,000 bytes,
// Gemini CLI's cap of a tool result.
const jsonAwareBudget = 40_000

// shortenLoop shortens doc to jsonAwareBudget for each b.Loop round and
// returns the stats of the last.
func shortenLoop(b *testing.B, doc []byte) jsonaware.Stats {
	var st jsonaware.Stats
	for b.Loop() {
		var err error
		if _, st, err = jsonaware.Shorten(doc, jsonAwareBudget, jsonaware.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	return st
}

// BenchmarkJSONAwareAdversarial shortens each document of hostile.JSONDocs
// to 40,000 bytes at 1 MiB and 10 MiB (make bench-linear: 10 MiB may cost
// at most 12 times 1 MiB).
func BenchmarkJSONAwareAdversarial(b *testing.B) {
	hostile.Pairs(b, hostile.JSONDocs, func(b *testing.B, doc []byte) {
		st := shortenLoop(b, doc)
		b.ReportMetric(float64(st.OutBytes), "out-bytes")
		b.ReportMetric(float64(st.Step), "step")
	})
}

// BenchmarkJSONAwareAdversarialBaseline reads and writes the same documents
// compact with encoding/json (json.Compact, which validates as it goes), in
// the same run: the floor of a pass that reads every byte and writes JSON
// back.
func BenchmarkJSONAwareAdversarialBaseline(b *testing.B) {
	hostile.Pairs(b, hostile.JSONDocs, func(b *testing.B, doc []byte) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			if err := json.Compact(&buf, doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkJSONAwareSingleLine shortens a single-line JSON of 5 MB (an
// array of records, a case of the strategy corpus) to 40,000 bytes.
func BenchmarkJSONAwareSingleLine(b *testing.B) {
	for _, d := range hostile.JSONDocs[:1] {
		doc := d.Make(5_000_000)
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		st := shortenLoop(b, doc)
		b.ReportMetric(float64(st.OutBytes), "out-bytes")
		b.ReportMetric(float64(st.RowsCut), "rows-cut")
	}
}
