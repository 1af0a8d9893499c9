package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// runTest runs scenarios with the same engine as `go test` and prints a line
// per scenario, each failure with its YAML position and diff, and a closing
// "N passed, M failed". Every scenario is compared with its golden, found by
// harness.LayoutIn from its path and --golden; two files with the same
// golden are bad input. A scenario file that does not load is bad input: every
// problem is printed and the exit status is 2. When ctx ends (SIGINT,
// SIGTERM), no further scenario starts, the running ones stop (the fake LLM
// returns on ctx) and remove their stores, nothing cut short counts or writes
// a golden, the summary ends ", K interrupted", stderr says why, and the exit
// status is 1 (main turns it into 130 or 143).
func runTest(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("test", "[PATH...] [--update] [--golden DIR] [--label EXPR] [--run REGEX] [--parallel N]", stderr)
	update := fs.Bool("update", false, "rewrite golden files with the new transcripts (like UPDATE_GOLDEN=1); with CI=true a missing golden fails unless this is given")
	golden := fs.String("golden", "", goldenHelp)
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
	goldenSet := false
	fs.Visit(func(f *flag.Flag) { goldenSet = goldenSet || f.Name == "golden" })
	if err := checkGoldenDir(*golden, goldenSet); err != nil {
		fmt.Fprintf(stderr, "toolout test: %v\n", err)
		return exitUsage
	}
	if *parallel < 1 {
		fmt.Fprintf(stderr, "toolout test: --parallel %d: want at least 1\n", *parallel)
		return exitUsage
	}

	files, err := harness.Discover(paths...)
	if err != nil {
		fmt.Fprintf(stderr, "toolout test: %v\n", err)
		return exitUsage
	}
	runner := harness.RunnerFromEnv(components.Default())
	runner.Update = runner.Update || *update
	runner.GoldenDir = *golden
	runner.Command = selfOf(stderr)

	keep := func(sc *harness.Scenario) bool {
		return (match == nil || match.MatchString(sc.ID)) && filter(sc.Labels)
	}
	scenarios, code := loadScenarios(ctx, runner, files, keep, stderr)
	if code != exitOK {
		return code
	}
	if len(scenarios) == 0 {
		fmt.Fprintf(stderr, "toolout test: no scenario matches in %s\n", strings.Join(paths, " "))
		return exitUsage
	}

	return reportResults(ctx, scenarios, runner.RunAll(ctx, scenarios, *parallel), stdout, stderr)
}

// loadScenarios loads files and keeps the scenarios keep accepts. Files
// that do not load, or two that would share a golden, are bad input (every
// problem printed, nothing run, exit 2); an ended ctx stops the loading
// (exit 1).
func loadScenarios(ctx context.Context, runner *harness.Runner, files []string, keep func(*harness.Scenario) bool, stderr io.Writer) ([]*harness.Scenario, int) {
	var scenarios []*harness.Scenario
	var bad harness.ErrorList
	for i, f := range files {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "toolout test: interrupted (%v) while loading: %d of %d scenario files loaded; nothing was run\n", context.Cause(ctx), i, len(files))
			return nil, exitFailed
		}
		sc, err := runner.Load(f)
		if err != nil {
			if l, ok := err.(harness.ErrorList); ok {
				bad = append(bad, l...)
			} else {
				fmt.Fprintf(stderr, "toolout test: %v\n", err)
				return nil, exitUsage
			}
			continue
		}
		if keep(sc) {
			scenarios = append(scenarios, sc)
		}
	}
	if len(bad) > 0 {
		fmt.Fprintln(stderr, bad.Error())
		fmt.Fprintf(stderr, "toolout test: %d problem(s) in scenario files; nothing was run\n", len(bad))
		return nil, exitUsage
	}
	scenarios, err := oneGoldenEach(scenarios)
	if err != nil {
		fmt.Fprintf(stderr, "toolout test: %v; nothing was run\n", err)
		return nil, exitUsage
	}
	return scenarios, exitOK
}

// goldenHelp is the usage of --golden, and says where goldens are without
// it (harness.LayoutIn).
const goldenHelp = "root every golden in `DIR`: a scenario's golden is DIR/<id>.txtar, its id its path without .yaml\n" +
	"below the deepest folder holding both DIR and it (--golden tests/golden: tests/agent/a/b.yaml\n" +
	"has tests/golden/agent/a/b.txtar, whether tests/agent or the file is run). Without --golden, a\n" +
	"scenario under a scenarios/ folder has golden/<its path there>.txtar beside that folder, and\n" +
	"any other x.yaml has golden/x.txtar in its own folder (loose/x.yaml: loose/golden/x.txtar)"

// checkGoldenDir refuses a --golden given empty, or naming something that
// is not a folder; one that does not exist yet is created with the first
// golden.
func checkGoldenDir(dir string, set bool) error {
	if !set {
		return nil
	}
	if dir == "" {
		return errors.New("--golden: want a folder")
	}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("--golden %s: %w", dir, errors.Unwrap(err))
	case !info.IsDir():
		return fmt.Errorf("--golden %s: not a folder", dir)
	}
	return nil
}

// oneGoldenEach drops a scenario file named twice (the same file on disk)
// and refuses two files that have the same golden (x.yaml and x.yml in one
// folder, or under --golden), which would each be compared with the
// other's transcript.
func oneGoldenEach(scenarios []*harness.Scenario) ([]*harness.Scenario, error) {
	owner := map[string]*harness.Scenario{}
	out := scenarios[:0:0]
	for _, sc := range scenarios {
		prev, ok := owner[sc.Golden]
		if !ok {
			owner[sc.Golden] = sc
			out = append(out, sc)
			continue
		}
		if sameFile(prev.File, sc.File) {
			continue
		}
		return nil, fmt.Errorf("%s and %s have the same golden %s: rename one", filepath.ToSlash(prev.File), filepath.ToSlash(sc.File), harness.GoldenPath(sc))
	}
	return out, nil
}

// sameFile reports whether a and b name the same file on disk.
func sameFile(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
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
