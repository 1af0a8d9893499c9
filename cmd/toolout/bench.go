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

// runBenchStrategies compares the strategies on the bundled corpus. When
// ctx ends it stops after the current case, prints no table and exits 1
// (main turns it into 130 or 143, and ends a case that does not stop in time).
func runBenchStrategies(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench strategies", "[--format table|csv|json] [--svg FILE] [--set knob=v1,v2]... [--cases REGEX] "+
		"[--baseline FILE --tolerance 0.1] [--write-baseline FILE] [--time] [--concurrency N] "+
		"[--llm URL --model NAME [--max-requests N] [--timeout 2m] [--retries 3]]", stderr)
	format := fs.String("format", "table", "table, csv or json")
	svg := fs.String("svg", "", "write a chart of recall against main-context tokens to FILE")
	var sets stringList
	fs.Var(&sets, "set", "sweep a knob: "+strings.Join(bench.KnobNames(), ", ")+" (repeatable), e.g. overlap_percent=0,10,20")
	casesRE := fs.String("cases", "", "run only the cases whose name matches this regular expression")
	baseline := fs.String("baseline", "", "compare with a saved run (JSON); exit 1 when recall drops or total tokens grow past the tolerance")
	tolerance := fs.Float64("tolerance", 0.10, "allowed growth of total tokens against the baseline (a fraction)")
	writeBaseline := fs.String("write-baseline", "", "save this run as a baseline (JSON)")
	withTime := fs.Bool("time", false, "show each strategy's time in the table (it varies between runs)")
	var mf modelFlags
	mf.register(fs)
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
	model, who, _, err := mf.build()
	if err != nil {
		return fail("%v", err)
	}
	runs, err := bench.ParseSweeps(sets)
	if err != nil {
		return fail("%v", err)
	}
	cases, keep, err := selectCases(*casesRE)
	if err != nil {
		return fail("%v", err)
	}
	if *baseline != "" { // refuse another model's baseline before any request
		if code := checkBaselineModel(*baseline, who, stderr); code != exitOK {
			return code
		}
	}
	rows, err := compareRuns(ctx, cases, runs, model, mf.concurrency)
	if err != nil {
		fmt.Fprintf(stderr, "toolout bench strategies: %v\n", err)
		return exitFailed
	}
	if err := writeStrategies(stdout, who, rows, *format, *withTime, *svg, *writeBaseline); err != nil {
		fmt.Fprintf(stderr, "toolout bench strategies: %v\n", err)
		return exitFailed
	}
	if *baseline == "" {
		return exitOK
	}
	return checkBaseline(*baseline, rows, keep, *tolerance, stderr)
}

// selectCases returns the corpus cases whose name matches pattern (all of
// them when it is empty) and the filter itself (nil for all).
func selectCases(pattern string) ([]bench.Case, func(string) bool, error) {
	var keep func(string) bool
	if pattern != "" {
		match, err := regexp.Compile(pattern)
		if err != nil {
			return nil, nil, fmt.Errorf("--cases: %v", err)
		}
		keep = match.MatchString
	}
	cases := bench.Corpus(bench.BudgetFor(bench.DefaultKnobs()), keep)
	if len(cases) == 0 {
		return nil, nil, fmt.Errorf("--cases %q: no case matches", pattern)
	}
	return cases, keep, nil
}

// writeStrategies writes the rows to stdout in format and, when asked, the
// chart to svg and the baseline (without times: they vary) to baseline.
func writeStrategies(stdout io.Writer, who bench.Model, rows []bench.Row, format string, withTime bool, svg, baseline string) error {
	var err error
	switch format {
	case "table":
		err = bench.WriteTable(stdout, who, rows, withTime)
	case "csv":
		err = bench.WriteCSV(stdout, who, rows)
	case "json":
		err = bench.WriteJSON(stdout, who, rows)
	}
	if err != nil {
		return err
	}
	if svg != "" {
		if err := writeBenchFile(svg, func(w io.Writer) error { return bench.WriteSVG(w, who, rows) }); err != nil {
			return fmt.Errorf("--svg: %v", err)
		}
	}
	if baseline != "" {
		saved := append([]bench.Row(nil), rows...)
		for i := range saved {
			saved[i].Millis = 0 // times vary; a baseline holds only what is compared
		}
		if err := writeBenchFile(baseline, func(w io.Writer) error { return bench.WriteJSON(w, who, saved) }); err != nil {
			return fmt.Errorf("--write-baseline: %v", err)
		}
	}
	return nil
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
	_, saved, err := bench.ReadBaseline(path)
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

// checkBaselineModel refuses a baseline written from another model than
// this run's (exit 2): its figures would read as regressions or gains of
// the strategies. An unreadable baseline is exit 2 too.
func checkBaselineModel(path string, who bench.Model, stderr io.Writer) int {
	model, _, err := bench.ReadBaseline(path)
	if err != nil {
		fmt.Fprintf(stderr, "toolout bench strategies: --baseline: %v\n", err)
		return exitUsage
	}
	if !model.Same(who) {
		fmt.Fprintf(stderr, "toolout bench strategies: --baseline %s was written from model: %s; this run is model: %s; refusing to compare them\n", path, model, who)
		return exitUsage
	}
	return exitOK
}
