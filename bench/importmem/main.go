// Command importmem measures the peak memory of toolout import on the
// synthetic traces of internal/tracegen, every format at each size asked
// for, and prints a Markdown table (docs/benchmarks.md, "Import peak memory"):
//
//	go run ./bench/importmem                 # 1, 10 and 100 MiB, every format
//	go run ./bench/importmem -sizes 1,10     # some sizes
//	go run ./bench/importmem -gen messages -size 10  # only write a trace to stdout
//
// Each import runs as a child process of a toolout built once, under
// /usr/bin/time; its peak is what /usr/bin/time reports (%M, the
// "Maximum resident set size" of -v: the kernel's ru_maxrss). The bound
// is the importer's goal: 10 times the input plus 64 MB. The children run one
// after another, each under an address-space limit (-as, prlimit(1)), so
// that a regression fails the row instead of the machine. A refusal of
// the "session" shape (its scenario is over 1 MiB) is the expected
// outcome; any other failure fails the run.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolout/toolout/internal/tracegen"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("importmem", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizes := fs.String("sizes", "1,10,100", "trace sizes in MiB, comma-separated")
	only := fs.String("formats", strings.Join(tracegen.Formats, ","), "formats to measure, comma-separated")
	bin := fs.String("bin", "", "the toolout binary to measure (default: go build ./cmd/toolout into a temp dir)")
	shapes := fs.String("shapes", strings.Join(tracegen.Shapes, ","), "trace shapes to measure, comma-separated (internal/tracegen)")
	gen := fs.String("gen", "", "write a trace in this format (and the first of -shapes) to stdout and exit")
	size := fs.Float64("size", 1, "with -gen: the trace's size in MiB")
	as := fs.Int64("as", 8<<10, "each import's address-space limit in MiB (0: none)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *gen != "" {
		data, err := tracegen.Trace(*gen, strings.Split(*shapes, ",")[0], int(*size*(1<<20)))
		if err != nil {
			fmt.Fprintln(stderr, "importmem:", err)
			return 2
		}
		_, _ = stdout.Write(data)
		return 0
	}
	var mibs []float64
	for _, s := range strings.Split(*sizes, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v <= 0 {
			fmt.Fprintf(stderr, "importmem: -sizes %s: want sizes in MiB, e.g. 1,10,100\n", *sizes)
			return 2
		}
		mibs = append(mibs, v)
	}
	dir, err := os.MkdirTemp("", "importmem-")
	if err != nil {
		fmt.Fprintln(stderr, "importmem:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if *bin == "" {
		*bin = filepath.Join(dir, "toolout")
		build := exec.Command("go", "build", "-o", *bin, "./cmd/toolout")
		build.Stdout, build.Stderr = stderr, stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(stderr, "importmem: go build ./cmd/toolout:", err)
			return 1
		}
	}
	m := measurer{bin: *bin, dir: dir, as: *as << 20}
	fmt.Fprintln(stdout, "| format | shape | input | peak RSS | ratio | bound (10x + 64 MB) | exit |")
	fmt.Fprintln(stdout, "|---|---|---:|---:|---:|---|---|")
	status := 0
	for _, format := range strings.Split(*only, ",") {
		for _, shape := range strings.Split(*shapes, ",") {
			for _, mib := range mibs {
				row, err := m.measure(format, shape, int(mib*(1<<20)))
				if err != nil {
					fmt.Fprintln(stderr, "importmem:", err)
					return 1
				}
				fmt.Fprintln(stdout, row.markdown())
				if !row.within() || row.exit != 0 && shape != "session" {
					status = 1
				}
			}
		}
	}
	return status
}
