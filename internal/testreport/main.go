// Command testreport reads `go test -json` on standard input, prints a line
// per package as it finishes (`PASS core/chunk (1.52s, 40 tests)`) and a
// failing test with its output (a passing or skipped test prints nothing, so
// that failures and progress stand out among the run's thousands of
// subtests; reports/go-test.json keeps them all), and ends with `DONE N
// tests[, S skipped][, F failures] in Xs`. Long phases are not silent: after
// --heartbeat (30 s) without a line it prints `STATUS 2m30s: 12 of 45
// packages done; running harness for 1m10s (TestHarness); 31 to start, next
// core/schema` (the counts need --list, the patterns go test was given: go
// list runs beside go test), so that a slow build (the counts move) can be
// told from a hang (the same package and test, line after line). Before DONE
// it lists the skipped Go tests and, with --specs DIR (the Ginkgo JUnit
// reports of internal/junit), the skipped Ginkgo specs, grouped by where and
// why: `SKIPPED 9 tests and specs, by reason:` then lines like `  8
// core/gateway/redisstore: redis-server is not on PATH ...`. With --junit
// FILE it writes the run as JUnit XML (a suite per package, a case per Go
// test; a package that failed outside its tests, by a panic, a timeout or a
// build error, gets a failed case of its own); with --json FILE it keeps the
// stream itself. It exits 1 when a test or package failed, when a package
// never finished (the stream was cut) or when no package was tested, and 2
// on bad usage. `make test` pipes its test passes through it.
//
// Why not gotestsum: on a cold build cache, building it and its dependencies
// (golang.org/x/tools among them) is a large share of `make test`'s time,
// and `make test` needs only JUnit and JSON files and a summary line. This
// command needs only the standard library, which the non-race test pass
// compiles anyway. Its output per test is kept to the last 64 KiB, and an
// input line to 16 MiB.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

func main() {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, sources{now: time.Now, ticks: ticker.C, list: goList}))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer, src sources) int {
	fs := flag.NewFlagSet("testreport", flag.ContinueOnError)
	fs.SetOutput(stderr)
	junitPath := fs.String("junit", "", "write a JUnit XML report to this file")
	jsonPath := fs.String("json", "", "write a copy of the go test -json stream to this file")
	list := fs.String("list", "", "the package patterns given to go test, in order, for the STATUS lines to count (go list runs them)")
	goBin := fs.String("go", "go", "the go command that --list runs")
	specs := fs.String("specs", "", "a folder of Ginkgo JUnit reports whose skipped specs the summary lists")
	heartbeat := fs.Duration("heartbeat", 30*time.Second, "print a STATUS line after this long without output (0: never)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "testreport: unexpected argument %q; the stream comes on standard input\n", fs.Arg(0))
		return 2
	}
	if *heartbeat < 0 {
		fmt.Fprintf(stderr, "testreport: --heartbeat %v: negative\n", *heartbeat)
		return 2
	}
	in := stdin
	if *jsonPath != "" {
		f, err := os.Create(*jsonPath)
		if err != nil {
			fmt.Fprintf(stderr, "testreport: %v\n", err)
			return 2
		}
		defer f.Close()
		in = io.TeeReader(stdin, f)
	}
	r := newReport(stdout, src.now)
	r.heartbeat = *heartbeat
	if patterns := strings.Fields(*list); len(patterns) > 0 && src.list != nil {
		r.listed = src.list(*goBin, patterns)
	}
	readErr := r.follow(in, src.ticks)
	took := src.now().Sub(r.start)
	if *junitPath != "" {
		if err := writeFile(*junitPath, func(w io.Writer) error { return r.junit(w, took) }); err != nil {
			fmt.Fprintf(stderr, "testreport: %v\n", err)
			return 2
		}
	}
	if *specs != "" {
		// A report that cannot be read costs its skips in the summary,
		// not the run: the suite that wrote it passed or failed on its own.
		base, err := os.Getwd()
		if err == nil {
			err = r.readSpecSkips(*specs, base)
		}
		if err != nil {
			fmt.Fprintf(r.console, "testreport: %v\n", err)
		}
	}
	fmt.Fprint(r.console, r.skipSummary())
	fmt.Fprintln(r.console, r.summary(took))
	if readErr != nil {
		fmt.Fprintf(stderr, "testreport: %v\n", readErr)
		return 1
	}
	if r.failed() {
		return 1
	}
	return 0
}

// writeFile writes what write produces to path; a report is small, so it
// is built in memory and written whole.
func writeFile(path string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
