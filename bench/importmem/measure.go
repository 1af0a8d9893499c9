package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolout/toolout/internal/tracegen"
)

// measurer runs imports of the binary bin in dir, each under an
// address-space limit of as bytes (0: none).
type measurer struct {
	bin, dir string
	as       int64
}

// row is one import measured: its format, input bytes, peak RSS in
// bytes, exit code and, when it failed, its error's first line.
type row struct {
	format, shape string
	input, peak   int64
	exit          int
	stderrFirst   string
}

// bound is the goal for an input of n bytes: 10n + 64 MB.
func bound(n int64) int64 { return 10*n + 64<<20 }

func (r row) within() bool { return r.peak <= bound(r.input) }

func (r row) markdown() string {
	verdict := "within"
	if !r.within() {
		verdict = "OVER"
	}
	exit := fmt.Sprint(r.exit)
	if r.exit != 0 {
		exit += ": " + r.stderrFirst
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %.1fx | %s (%s) | %s |", r.format, r.shape, mb(r.input), mb(r.peak), float64(r.peak)/float64(r.input),
		verdict, mb(bound(r.input)), exit)
}

// mb writes n bytes in MiB, one decimal.
func mb(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// measure writes a trace of format of about n bytes and imports it.
func (m measurer) measure(format, shape string, n int) (row, error) {
	data, err := tracegen.Trace(format, shape, n)
	if err != nil {
		return row{}, err
	}
	trace := filepath.Join(m.dir, format+".jsonl")
	if err := os.WriteFile(trace, data, 0o644); err != nil {
		return row{}, err
	}
	out := filepath.Join(m.dir, "out-"+format)
	defer os.RemoveAll(out)
	args := []string{"import", "--format", tracegen.ImportFormat(format), "-o", filepath.Join(out, "x.yaml"), trace}
	if m.as > 0 {
		args = append([]string{"prlimit", fmt.Sprintf("--as=%d", m.as), "--", m.bin}, args...)
	} else {
		args = append([]string{m.bin}, args...)
	}
	// /usr/bin/time forks the import from its own small process: a child
	// started from this one (Go starts it sharing this process's memory
	// until exec) would count this process's peak, the trace generated,
	// as its own in ru_maxrss.
	peakFile := filepath.Join(m.dir, "peak")
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", peakFile}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if cmd.ProcessState == nil {
		return row{}, fmt.Errorf("%s: %w", format, err)
	}
	kib, err := readPeak(peakFile)
	if err != nil {
		return row{}, fmt.Errorf("%s: /usr/bin/time: %w", format, err)
	}
	r := row{format: format, shape: shape, input: int64(len(data)), peak: kib << 10}
	r.exit = cmd.ProcessState.ExitCode()
	r.stderrFirst, _, _ = strings.Cut(strings.TrimSpace(stderr.String()), "\n")
	if len(r.stderrFirst) > 120 {
		r.stderrFirst = r.stderrFirst[:120] + "..."
	}
	return r, nil
}

// readPeak reads the maximum resident set size, in KiB, that /usr/bin/time
// -f %M wrote to file (after a line saying the command's exit status,
// when it failed).
func readPeak(file string) (int64, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	lines := strings.Fields(strings.TrimSpace(string(b)))
	if len(lines) == 0 {
		return 0, fmt.Errorf("no peak in %q", b)
	}
	return strconv.ParseInt(lines[len(lines)-1], 10, 64)
}
