// Command testreport reads `go test -json` on standard input, prints one line
// per test and package as they finish (a failing test with its output), and
// ends with `DONE N tests[, S skipped][, F failures] in Xs`. With --junit FILE
// it writes the run as JUnit XML (a suite per package, a case per Go test; a
// package that failed outside its tests, by a panic, a timeout or a build
// error, gets a failed case of its own); with --json FILE it keeps the
// stream itself. It exits 1 when a test or package failed, when a package
// never finished (the stream was cut) or when no package was tested, and 2
// on bad usage. `make test` pipes its test passes through it.
//
// Why not gotestsum, which did this job before: on a cold build cache,
// building gotestsum and its dependencies (golang.org/x/tools among them)
// took 30 s of the 3 minutes that `make test` may take on two cores, and
// `make test` used only its JUnit and JSON files and a summary line. This
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
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("testreport", flag.ContinueOnError)
	fs.SetOutput(stderr)
	junitPath := fs.String("junit", "", "write a JUnit XML report to this file")
	jsonPath := fs.String("json", "", "write a copy of the go test -json stream to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "testreport: unexpected argument %q; the stream comes on standard input\n", fs.Arg(0))
		return 2
	}
	start := time.Now()
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
	r := newReport(stdout)
	readErr := r.read(in)
	took := time.Since(start)
	if *junitPath != "" {
		if err := writeFile(*junitPath, func(w io.Writer) error { return r.junit(w, took) }); err != nil {
			fmt.Fprintf(stderr, "testreport: %v\n", err)
			return 2
		}
	}
	fmt.Fprintln(stdout, r.summary(took))
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
