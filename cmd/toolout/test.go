package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// runTest runs scenarios with the same engine as `go test` and prints a line
// per scenario, each failure with its YAML position and diff, and a closing
// "N passed, M failed". A scenario file that does not load is bad input: every
// problem is printed and the exit status is 2. When ctx ends (SIGINT,
// SIGTERM), no further scenario starts, the running ones stop (the fake LLM
// returns on ctx) and remove their stores, nothing cut short counts or writes
// a golden, the summary ends ", K interrupted", stderr says why, and the exit
// status is 1 (main turns it into 130 or 143).
func runTest(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("test", "[PATH...] [--update] [--label EXPR] [--run REGEX] [--parallel N]", stderr)
	update := fs.Bool("update", false, "rewrite golden files with the new transcripts (like UPDATE_GOLDEN=1)")
	label := fs.String("label", "", "run only scenarios whose labels match this Ginkgo label filter, e.g. 'extract && !slow'")
	runRE := fs.String("run", "", "run only scenarios whose id matches this regular expression")
	parallel := fs.Int("parallel", runtime.GOMAXPROCS(0), "number of scenarios run at once")
	paths, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	if len(paths) == 0 {
		paths = []string{"scenarios"}
	}
	var match *regexp.Regexp
	if *runRE != "" {
		if match, err = regexp.Compile(*runRE); err != nil {
			fmt.Fprintf(stderr, "toolout test: --run: %v\n", err)
			return exitUsage
		}
	}
	filter := func([]string) bool { return true }
	if *label != "" {
		if filter, err = parseLabelFilter(*label); err != nil {
			fmt.Fprintf(stderr, "toolout test: --label: %v\n", err)
			return exitUsage
		}
	}
	if *parallel < 1 {
		fmt.Fprintf(stderr, "toolout test: --parallel %d: want at least 1\n", *parallel)
		return exitUsage
	}

	files, err := harness.Discover(paths...)
	if err != nil {
		fmt.Fprintf(stderr, "toolout test: %v\n", strings.TrimPrefix(err.Error(), "harness: "))
		return exitUsage
	}
	runner := harness.RunnerFromEnv(components.Default())
	runner.Update = runner.Update || *update

	var scenarios []*harness.Scenario
	var bad harness.ErrorList
	for i, f := range files {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "toolout test: interrupted (%v) while loading: %d of %d scenario files loaded; nothing was run\n", context.Cause(ctx), i, len(files))
			return exitFailed
		}
		sc, err := runner.Load(f)
		if err != nil {
			if l, ok := err.(harness.ErrorList); ok {
				bad = append(bad, l...)
			} else {
				fmt.Fprintf(stderr, "toolout test: %v\n", err)
				return exitUsage
			}
			continue
		}
		if match != nil && !match.MatchString(sc.ID) || !filter(sc.Labels) {
			continue
		}
		scenarios = append(scenarios, sc)
	}
	if len(bad) > 0 {
		fmt.Fprintln(stderr, bad.Error())
		fmt.Fprintf(stderr, "toolout test: %d problem(s) in scenario files; nothing was run\n", len(bad))
		return exitUsage
	}
	if len(scenarios) == 0 {
		fmt.Fprintf(stderr, "toolout test: no scenario matches in %s\n", strings.Join(paths, " "))
		return exitUsage
	}

	return reportResults(ctx, scenarios, runner.RunAll(ctx, scenarios, *parallel), stdout, stderr)
}

// reportResults prints the results in scenario order as they come, then the
// summary, and returns the exit status.
func reportResults(ctx context.Context, scenarios []*harness.Scenario, results []<-chan *harness.Result, stdout, stderr io.Writer) int {
	passed, failed, cut := 0, 0, 0
	for i, res := range results {
		r := <-res
		if r == nil {
			cut++
			continue
		}
		if r.Passed() {
			passed++
			fmt.Fprintf(stdout, "ok   %s\n", scenarios[i].ID)
		} else {
			failed++
			fmt.Fprintf(stdout, "FAIL %s\n", scenarios[i].ID)
			for _, f := range r.Failures {
				fmt.Fprintln(stdout, indent(f))
			}
		}
		for _, n := range r.Notes {
			fmt.Fprintf(stdout, "     %s\n", n)
		}
	}
	if cut > 0 {
		fmt.Fprintf(stdout, "%d passed, %d failed, %d interrupted\n", passed, failed, cut)
		fmt.Fprintf(stderr, "toolout test: interrupted (%v): %d of %d scenarios did not run to the end\n", context.Cause(ctx), cut, len(scenarios))
		return exitFailed
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return exitFailed
	}
	return exitOK
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = "     " + l
	}
	return strings.Join(slices.Clip(lines), "\n")
}
