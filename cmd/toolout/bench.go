package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/toolout/toolout/bench"
)

// benchGroup is `toolout bench strategies`.
func benchGroup() group {
	return group{name: "bench", subs: []command{{name: "strategies", summary: "compare the strategies on the bundled corpus",
		run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
			return runBenchStrategies(ctx, args, stdout, stderr)
		}}}}
}

// compareRuns compares the strategies on every case with every run's knobs.
// It runs one case at a time (Compare's rows come case by case, so the rows
// are the same) so that an ended ctx is noticed between cases; it then
// returns no rows, since a table of the cases that ran would read as a
// comparison.
func compareRuns(ctx context.Context, cases []bench.Case, runs []bench.Run) ([]bench.Row, error) {
	var rows []bench.Row
	for _, r := range runs {
		for _, c := range cases {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("interrupted (%v): no table", context.Cause(ctx))
			}
			got, err := bench.Compare(ctx, []bench.Case{c}, r.Knobs, r.Label)
			if err != nil && ctx.Err() == nil {
				return nil, err
			}
			rows = append(rows, got...)
		}
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("interrupted (%v): no table", context.Cause(ctx))
	}
	return rows, nil
}

// runBenchStrategies compares the strategies on the bundled corpus. When
// ctx ends it stops after the current case, prints no table and exits 1
// (main turns it into 130 or 143, and ends a case that does not stop in time).
func runBenchStrategies(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench strategies", "[--format table|csv|json] [--svg FILE] [--set knob=v1,v2]... [--cases REGEX] "+
		"[--baseline FILE --tolerance 0.1] [--write-baseline FILE] [--time]", stderr)
	format := fs.String("format", "table", "table, csv or json")
	svg := fs.String("svg", "", "write a chart of total tokens against recall to FILE")
	var sets stringList
	fs.Var(&sets, "set", "sweep a knob: "+strings.Join(bench.KnobNames(), ", ")+" (repeatable), e.g. overlap_percent=0,10,20")
	casesRE := fs.String("cases", "", "run only the cases whose name matches this regular expression")
	baseline := fs.String("baseline", "", "compare with a saved run (JSON); exit 1 when recall drops or total tokens grow past the tolerance")
	tolerance := fs.Float64("tolerance", 0.10, "allowed growth of total tokens against the baseline (a fraction)")
	writeBaseline := fs.String("write-baseline", "", "save this run as a baseline (JSON)")
	withTime := fs.Bool("time", false, "show each strategy's time in the table (it varies between runs)")
	if _, err := parseFlags(fs, args); err != nil {
		return usageError(fs, stderr, err)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "toolout bench strategies: "+format+"\n", a...)
		return exitUsage
	}
	switch *format {
	case "table", "csv", "json":
	default:
		return fail("--format %q: want table, csv or json", *format)
	}
	runs, err := bench.ParseSweeps(sets)
	if err != nil {
		return fail("%v", err)
	}
	var match *regexp.Regexp
	if *casesRE != "" {
		if match, err = regexp.Compile(*casesRE); err != nil {
			return fail("--cases: %v", err)
		}
	}
	var keep func(string) bool
	if match != nil {
		keep = match.MatchString
	}
	cases := bench.Corpus(bench.BudgetFor(bench.DefaultKnobs()), keep)
	if len(cases) == 0 {
		return fail("--cases %q: no case matches", *casesRE)
	}
	rows, err := compareRuns(ctx, cases, runs)
	if err != nil {
		fmt.Fprintf(stderr, "toolout bench strategies: %v\n", err)
		return exitFailed
	}
	switch *format {
	case "table":
		err = bench.WriteTable(stdout, rows, *withTime)
	case "csv":
		err = bench.WriteCSV(stdout, rows)
	case "json":
		err = bench.WriteJSON(stdout, rows)
	}
	if err != nil {
		fmt.Fprintf(stderr, "toolout bench strategies: %v\n", err)
		return exitFailed
	}
	if *svg != "" {
		if err := writeBenchFile(*svg, func(w io.Writer) error { return bench.WriteSVG(w, rows) }); err != nil {
			fmt.Fprintf(stderr, "toolout bench strategies: --svg: %v\n", err)
			return exitFailed
		}
	}
	if *writeBaseline != "" {
		saved := append([]bench.Row(nil), rows...)
		for i := range saved {
			saved[i].Millis = 0 // times vary; a baseline holds only what is compared
		}
		if err := writeBenchFile(*writeBaseline, func(w io.Writer) error { return bench.WriteJSON(w, saved) }); err != nil {
			fmt.Fprintf(stderr, "toolout bench strategies: --write-baseline: %v\n", err)
			return exitFailed
		}
	}
	if *baseline == "" {
		return exitOK
	}
	return checkBaseline(*baseline, rows, keep, *tolerance, stderr)
}

// writeBenchFile creates path and writes it with write.
func writeBenchFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// checkBaseline compares rows with the saved run in path: exit 1 and a line
// per problem (a regression, or a row only one side has), 0 when there is
// none, 2 when the baseline is unreadable. With keep (--cases), the
// baseline's rows of the cases it leaves out are not expected.
func checkBaseline(path string, rows []bench.Row, keep func(string) bool, tolerance float64, stderr io.Writer) int {
	saved, err := bench.ReadBaseline(path)
	if err != nil {
		fmt.Fprintf(stderr, "toolout bench strategies: --baseline: %v\n", err)
		return exitUsage
	}
	if keep != nil {
		saved = slices.DeleteFunc(saved, func(r bench.Row) bool { return !keep(r.Case) })
	}
	regs := bench.CompareBaseline(saved, rows, tolerance)
	if len(regs) == 0 {
		fmt.Fprintf(stderr, "toolout bench strategies: no regression against %s\n", path)
		return exitOK
	}
	for _, r := range regs {
		fmt.Fprintf(stderr, "regression: %s: %s\n", r.Key, r.What)
	}
	fmt.Fprintf(stderr, "toolout bench strategies: %d problem(s) against %s\n", len(regs), path)
	return exitFailed
}
