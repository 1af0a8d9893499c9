package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	name := m.bin
	if m.as > 0 {
		args = append([]string{fmt.Sprintf("--as=%d", m.as), "--", m.bin}, args...)
		name = "prlimit"
	}
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	r := row{format: format, shape: shape, input: int64(len(data)), peak: maxRSS(cmd.ProcessState)}
	if cmd.ProcessState == nil {
		return row{}, fmt.Errorf("%s: %w", format, err)
	}
	r.exit = cmd.ProcessState.ExitCode()
	r.stderrFirst, _, _ = strings.Cut(strings.TrimSpace(stderr.String()), "\n")
	if len(r.stderrFirst) > 120 {
		r.stderrFirst = r.stderrFirst[:120] + "..."
	}
	return r, nil
}
