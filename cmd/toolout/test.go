package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/toolout/toolout/harness"
)

// runTest runs scenarios with the same engine as `go test` and prints a line
// per scenario, each failure with its YAML position and diff, and a closing
// "N passed, M failed". A scenario file that does not load is bad input: every
// problem is printed and the exit status is 2.
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
		if filter, err = types.ParseLabelFilter(*label); err != nil {
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
	runner := harness.RunnerFromEnv()
	runner.Update = runner.Update || *update

	var scenarios []*harness.Scenario
	var bad harness.ErrorList
	for _, f := range files {
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

	results := runAll(ctx, runner, scenarios, *parallel)
	passed, failed := 0, 0
	for i, res := range results {
		r := <-res
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
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return exitFailed
	}
	return exitOK
}

// runAll runs the scenarios on n workers; the i-th channel yields the i-th
// result, so output stays in order while work runs in parallel.
func runAll(ctx context.Context, r *harness.Runner, scenarios []*harness.Scenario, n int) []chan *harness.Result {
	out := make([]chan *harness.Result, len(scenarios))
	for i := range out {
		out[i] = make(chan *harness.Result, 1)
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(n, len(scenarios)) {
		wg.Go(func() {
			for i := range work {
				out[i] <- r.Run(ctx, scenarios[i])
			}
		})
	}
	go func() {
		for i := range scenarios {
			work <- i
		}
		close(work)
		wg.Wait()
	}()
	return out
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = "     " + l
	}
	return strings.Join(slices.Clip(lines), "\n")
}
