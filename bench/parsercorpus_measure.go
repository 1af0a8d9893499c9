package bench

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// CorpusResult is one case measured: the calls toolout returned, the calls at
// least two peers agree on (Agreed false when no two do), and how many of
// Dynamo's calls toolout returned too.
type CorpusResult struct {
	Case      CorpusCase
	Calls     []CorpusCall
	Err       error
	Consensus []CorpusCall
	Agreed    bool
	Same      bool // Agreed, and toolout's calls equal the consensus
	More      bool // Agreed, not Same, and toolout's calls hold every consensus call and more
	Recovered int  // Dynamo's calls that toolout returned (each matched once)
}

// FamilyFigures are one family's totals; the zero Family is the total row.
type FamilyFigures struct {
	Family      string
	Cases       int // cases with a model text
	Agreed      int // cases where at least two of the three peers return the same calls
	Same        int // of those, cases where toolout returns those calls too
	More        int // of those, cases where toolout returns those calls and more (a missing end token recovered)
	DynamoCalls int // calls Dynamo returns over the family's cases
	Recovered   int // of those, calls toolout returns too
	Calls       int // calls toolout returns
	Errors      int // cases toolout's run failed on (tool list or arguments unreadable)
}

// MeasureParserCorpus runs extract on every case and compares its calls with
// the peers': calls are equal when their names and their arguments as JSON
// values are, in order.
func MeasureParserCorpus(cases []CorpusCase, extract func(CorpusCase) ([]CorpusCall, error)) []CorpusResult {
	out := make([]CorpusResult, 0, len(cases))
	for _, c := range cases {
		r := CorpusResult{Case: c}
		r.Calls, r.Err = extract(c)
		r.Consensus, r.Agreed = consensus(c.Outputs)
		r.Same = r.Agreed && r.Err == nil && slices.Equal(r.Calls, r.Consensus)
		r.More = r.Agreed && !r.Same && r.Err == nil && len(r.Calls) > len(r.Consensus) &&
			matched(r.Consensus, r.Calls) == len(r.Consensus)
		r.Recovered = matched(c.Outputs["dynamo"], r.Calls)
		out = append(out, r)
	}
	return out
}

// consensus returns the calls at least two peers returned.
func consensus(outputs map[string][]CorpusCall) ([]CorpusCall, bool) {
	for i, a := range Peers {
		for _, b := range Peers[i+1:] {
			ca, okA := outputs[a]
			cb, okB := outputs[b]
			if okA && okB && slices.Equal(ca, cb) {
				return ca, true
			}
		}
	}
	return nil, false
}

// matched counts the calls of want that got holds, each call of got used once.
func matched(want, got []CorpusCall) int {
	left := slices.Clone(got)
	n := 0
	for _, w := range want {
		if i := slices.Index(left, w); i >= 0 {
			left = slices.Delete(left, i, i+1)
			n++
		}
	}
	return n
}

// SummarizeParserCorpus totals the results per family, in family order, and
// over all families (the last row, with an empty Family).
func SummarizeParserCorpus(results []CorpusResult) []FamilyFigures {
	var rows []FamilyFigures
	var total FamilyFigures
	for _, r := range results {
		if len(rows) == 0 || rows[len(rows)-1].Family != r.Case.Family {
			rows = append(rows, FamilyFigures{Family: r.Case.Family})
		}
		for _, f := range []*FamilyFigures{&rows[len(rows)-1], &total} {
			f.Cases++
			f.Calls += len(r.Calls)
			f.DynamoCalls += len(r.Case.Outputs["dynamo"])
			f.Recovered += r.Recovered
			if r.Agreed {
				f.Agreed++
			}
			if r.Same {
				f.Same++
			}
			if r.More {
				f.More++
			}
			if r.Err != nil {
				f.Errors++
			}
		}
	}
	return append(rows, total)
}

// NoCallFamilies are the families in which toolout returned no call at all.
func NoCallFamilies(rows []FamilyFigures) []string {
	var out []string
	for _, f := range rows {
		if f.Family != "" && f.Calls == 0 {
			out = append(out, f.Family)
		}
	}
	return out
}

// WriteParserCorpusTable prints the per-family table, the total and the
// families with no call found. "toolout more" counts agreed cases where
// toolout returns the peers' calls and more, as when it recovers a call whose
// end token is missing and the peers drop it.
func WriteParserCorpusTable(w io.Writer, rows []FamilyFigures) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "family\tcases\tpeers agree\ttoolout same\ttoolout more\tdynamo calls\ttoolout recovers\ttoolout calls\terrors\t")
	for _, f := range rows {
		name := f.Family
		if name == "" {
			name = "total"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", name, f.Cases, f.Agreed, f.Same, f.More,
			f.DynamoCalls, f.Recovered, f.Calls, f.Errors)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	none := NoCallFamilies(rows)
	_, err := fmt.Fprintf(w, "families with no call found: %d of %d (%s)\n", len(none), len(rows)-1, strings.Join(none, ", "))
	return err
}

// WriteParserCorpusMisses lists the cases where the peers agree and toolout
// does not return their calls: family/case, what the peers return, what
// toolout does.
func WriteParserCorpusMisses(w io.Writer, results []CorpusResult) error {
	for _, r := range results {
		if !r.Agreed || r.Same {
			continue
		}
		got := callsString(r.Calls)
		if r.Err != nil {
			got = "error: " + r.Err.Error()
		}
		if _, err := fmt.Fprintf(w, "%s/%s (%s): peers %s, toolout %s\n", r.Case.Family,
			strings.TrimPrefix(r.Case.ID, "PARSER.batch."), r.Case.Description, callsString(r.Consensus), got); err != nil {
			return err
		}
	}
	return nil
}

func callsString(calls []CorpusCall) string {
	parts := make([]string, len(calls))
	for i, c := range calls {
		parts[i] = c.Name + c.Arguments
	}
	return "[" + strings.Join(parts, " ") + "]"
}
