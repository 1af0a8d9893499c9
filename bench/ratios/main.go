// Command ratios runs the benchmarks that the project's table of speed and
// memory goals (goals.go) needs and checks each figure against its goal:
// `make bench-ratios`.
//
// It builds the benchmarks of -pkg once, then runs -count rounds; each round
// runs every benchmark the table names once (-benchtime each), so that a
// figure and the same-run baseline it is divided by are measured close in
// time. The raw output, benchstat-ready, goes to -out. Each figure is the
// median over the rounds, a ratio the median of the rounds' ratios (see
// Goal), printed with its goal and OK or
// OVER (info for the peer rows, which have no goal); it exits 1 when one is
// outside its goal, or a benchmark line is missing, or ours and the peer
// count different tokens. With -in it checks a saved output instead, such
// as `make bench BENCHCOUNT=3`.
//
// The gateway's goals (gatewayGoals) are figures of bench/gatewayfloor,
// which runs processes rather than go test benchmarks: with -gateway FILE
// they are checked too, on that program's saved output (make bench-ratios
// runs it first, so the figures are of the same run); -only-gateway checks
// them alone, without running the benchmarks (make bench-gateway).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

func main() {
	count := flag.Int("count", 5, "rounds; each figure is a median over them")
	benchtime := flag.String("benchtime", "200ms", "-benchtime of each benchmark in a round")
	pkg := flag.String("pkg", "./bench", "package holding the benchmarks")
	out := flag.String("out", "", "file for the raw benchmark output (default: none)")
	in := flag.String("in", "", "check this saved `go test -bench` output instead of running")
	gateway := flag.String("gateway", "", "also check the gateway's goals on this output of bench/gatewayfloor")
	only := flag.Bool("only-gateway", false, "check the gateway's goals alone (needs -gateway)")
	flag.Parse()
	if *only && *gateway == "" {
		fmt.Fprintln(os.Stderr, "bench-ratios: -only-gateway needs -gateway FILE")
		os.Exit(2)
	}
	gs := goals()
	var raw []byte
	var err error
	switch {
	case *only:
		gs = nil
	case *in != "":
		raw, err = os.ReadFile(*in)
	default:
		raw, err = run(*pkg, selections(gs), *count, *benchtime)
		if *out != "" {
			if werr := os.WriteFile(*out, raw, 0o644); werr != nil && err == nil {
				err = werr
			}
		}
	}
	if *gateway != "" && err == nil {
		var gw []byte
		gw, err = os.ReadFile(*gateway)
		raw = append(append(raw, '\n'), gw...)
		gs = append(gs, gatewayGoals()...)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-ratios:", err)
		os.Exit(1)
	}
	res, err := Parse(bytes.NewReader(raw))
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-ratios:", err)
		os.Exit(1)
	}
	if Write(os.Stdout, Evaluate(res, gs)) > 0 {
		os.Exit(1)
	}
}

// selections returns the -bench patterns that run exactly the benchmarks
// the goals name: one per top-level benchmark, each level of its
// sub-benchmark names an alternation of the values the goals use there.
func selections(gs []Goal) []string {
	levels := map[string][][]string{} // top -> level -> values
	var tops []string
	add := func(bench string) {
		if bench == "" {
			return
		}
		parts := strings.Split(bench, "/")
		top := parts[0]
		if _, ok := levels[top]; !ok {
			tops = append(tops, top)
		}
		lv := levels[top]
		for len(lv) < len(parts) {
			lv = append(lv, nil)
		}
		for i, p := range parts {
			if !slices.Contains(lv[i], p) {
				lv[i] = append(lv[i], p)
			}
		}
		levels[top] = lv
	}
	for _, g := range gs {
		add(g.Of.Bench)
		add(g.Per.Bench)
		add(g.SameAs)
	}
	var pats []string
	for _, top := range tops {
		var parts []string
		for _, vs := range levels[top] {
			q := make([]string, len(vs))
			for i, v := range vs {
				q[i] = regexp.QuoteMeta(v)
			}
			parts = append(parts, "^("+strings.Join(q, "|")+")$")
		}
		pats = append(pats, strings.Join(parts, "/"))
	}
	return pats
}

// run builds pkg's test binary and runs the patterns count times over, each
// round every pattern once, in the package's directory as go test does. It
// returns the output of every run; progress goes to stderr.
func run(pkg string, pats []string, count int, benchtime string) ([]byte, error) {
	dir, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", pkg, err)
	}
	tmp, err := os.MkdirTemp("", "bench-ratios")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "bench.test")
	build := exec.Command("go", "test", "-c", "-o", bin, pkg)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("go test -c %s: %w", pkg, err)
	}
	var all bytes.Buffer
	for r := 1; r <= count; r++ {
		fmt.Fprintf(os.Stderr, "bench-ratios: round %d of %d\n", r, count)
		for _, pat := range pats {
			cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", pat, "-test.benchmem",
				"-test.benchtime", benchtime, "-test.count", "1")
			cmd.Dir = strings.TrimSpace(string(dir))
			var one bytes.Buffer
			cmd.Stdout, cmd.Stderr = &one, &one
			err := cmd.Run()
			all.Write(one.Bytes())
			if err != nil {
				io.Copy(os.Stderr, &one)
				return all.Bytes(), fmt.Errorf("benchmarks %s: %w", pat, err)
			}
		}
	}
	return all.Bytes(), nil
}
