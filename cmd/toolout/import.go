package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/importer"
)

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

var _ flag.Value = (*stringList)(nil)

// runImport turns a production trace into regression scenarios: one
// scenario per import point, named after it, never overwriting a different
// file without --force, and, with --update, removed again when it fails.
func runImport(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("import", "TRACE.json|TRACE.jsonl [MORE.json...] [--format "+strings.Join(importer.FormatNames(), "|")+"] [-o scenarios/regress/NAME.yaml] [--at N] [--final] [--trace-id ID] [--max-bytes N] [--max-input BYTES] [--redact-emails] [--redact REGEX]... [--force] [--update]", stderr)
	out := fs.String("o", "", "the session scenario to write (default scenarios/regress/<first trace file's name>-at<N>.yaml, N the message cut at); the leaked scenario and payload files go beside it")
	format := fs.String("format", importer.FormatAuto, "the trace's format: "+formatHelp())
	at := fs.Int("at", -1, "index of the message to cut at, when the trace holds several candidates")
	final := fs.Bool("final", false, "when no tool result is over the cap and no call leaked, import the conversation to its last answer (a recording of live traffic)")
	traceID := fs.String("trace-id", "", "in OpenTelemetry spans that hold several conversations, import the one with this trace's chat spans")
	maxBytes := fs.Int("max-bytes", 0, "byte cap above which a tool result counts as oversized (default: the session's, 12 KiB)")
	emails := fs.Bool("redact-emails", false, "also replace e-mail addresses")
	var extra stringList
	fs.Var(&extra, "redact", "a regular expression whose matches are replaced (repeatable)")
	force := fs.Bool("force", false, "overwrite files that exist with other contents")
	update := fs.Bool("update", false, "run the new scenarios once to write their goldens; a scenario that fails is removed again")
	maxInput := maxInputFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	if !slices.Contains(importer.FormatNames(), *format) {
		return usageError(fs, stderr, fmt.Errorf("--format %s: want one of %s", *format, strings.Join(importer.FormatNames(), ", ")))
	}
	traces, code := readTraces(pos, *maxInput, stderr)
	if code != exitOK {
		return code
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(importMemoryLimit(traces)))
	opts := importer.ImportOptions{Command: selfOf(stderr), TraceName: traceNames(pos), TracePath: strings.Join(pos, ", "), At: *at, Final: *final, TraceID: *traceID,
		MaxBytes: *maxBytes, RedactEmails: *emails, Redact: extra, Format: *format}
	target := *out
	if target == "" {
		cut, err := importer.CutFiles(traces, opts)
		if err != nil {
			fmt.Fprintf(stderr, "toolout import: %v\n", err)
			return exitUsage
		}
		target = defaultTarget(pos[0], *traceID, cut)
	}
	if filepath.Ext(target) != ".yaml" {
		fmt.Fprintf(stderr, "toolout import: -o %s: want a .yaml path\n", target)
		return exitUsage
	}
	opts.Dir, opts.Name = filepath.Dir(target), strings.TrimSuffix(filepath.Base(target), ".yaml")
	files, err := importer.ImportFiles(traces, opts)
	if err != nil {
		fmt.Fprintf(stderr, "toolout import: %v\n", err)
		return exitUsage
	}
	var scenarios []string
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".yaml") {
			scenarios = append(scenarios, f.Path)
		}
	}
	w := &importWrite{}
	w.snapshot(files, scenarios)
	if code := w.check(*force, stderr); code != exitOK {
		return code
	}
	if code := w.write(files, stdout, stderr); code != exitOK || !*update {
		return code
	}
	if code := runTest(ctx, append(scenarios, "--update"), nil, stdout, stderr); code != exitOK {
		w.restore(stderr)
		fmt.Fprintf(stderr, "toolout import: to write them anyway, then fix them and accept them as the hints above say: %s\n", withoutUpdate(selfOf(stderr), args))
		return code
	}
	return exitOK
}

// withoutUpdate is the import command the user ran (self, then args as
// they gave them, quoted for a shell where needed) without --update: it
// writes the scenarios again and leaves them, so that the hints of the
// failed run (test --update FILE) then work.
func withoutUpdate(self string, args []string) string {
	cmd := []string{self, "import"}
	for _, a := range args {
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && name == "update" {
			continue
		}
		cmd = append(cmd, harness.ShellQuote(a))
	}
	return strings.Join(cmd, " ")
}

// The soft memory limit of an import (runtime/debug.SetMemoryLimit) is
// memoryPerByte times the trace's bytes plus memoryBase: the importer
// holds a few times the trace at once (its goal: at most 10 times plus
// 64 MB at its peak, bench/importmem), but much of what it allocates is
// soon garbage (a trace's strings decoded, each step's YAML), which the
// runtime's default (collect when the heap doubles) left standing: a
// peak RSS of about three times what was live. GOMEMLIMIT, when set,
// is left as it is.
const (
	memoryPerByte = 6
	memoryBase    = 40 << 20
)

// importMemoryLimit is the soft memory limit for importing traces.
func importMemoryLimit(traces []importer.TraceFile) int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1)
	}
	n := int64(0)
	for _, t := range traces {
		n += int64(len(t.Data))
	}
	return memoryPerByte*n + memoryBase
}

// readTraces reads the trace files named, each of at most limit bytes:
// one, or several that make one trace (OpenTelemetry spans and logs in
// separate files).
func readTraces(pos []string, limit byteSize, stderr io.Writer) ([]importer.TraceFile, int) {
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "toolout import: want a TRACE.json (or several files of one trace: spans.json logs.json)")
		return nil, exitUsage
	}
	var traces []importer.TraceFile
	for _, p := range pos {
		if p == "-" {
			fmt.Fprintln(stderr, "toolout import: want a TRACE.json file, not standard input (its name names the scenario)")
			return nil, exitUsage
		}
		_, data, err := readBytes([]string{p}, nil, limit)
		if err != nil {
			fmt.Fprintf(stderr, "toolout import: %v\n", err)
			return nil, exitUsage
		}
		traces = append(traces, importer.TraceFile{Name: p, Data: data})
	}
	return traces, exitOK
}

// traceNames names the trace in the provenance: its files' base names,
// joined by ", ".
func traceNames(pos []string) string {
	var names []string
	for _, p := range pos {
		names = append(names, filepath.Base(p))
	}
	return strings.Join(names, ", ")
}

// defaultTarget is the session scenario of trace's import at message cut:
// scenarios/regress/<trace name>-at<cut>.yaml, so that each import point of
// a trace has its own file; with --trace-id, <trace name>-<the id's first
// 8 characters>-at<cut>.yaml, so that each conversation has its own too.
func defaultTarget(trace, traceID string, cut int) string {
	base := strings.TrimSuffix(filepath.Base(trace), filepath.Ext(trace))
	if traceID != "" {
		base += "-" + traceID[:min(8, len(traceID))]
	}
	return filepath.Join("scenarios", "regress", fmt.Sprintf("%s-at%d.yaml", base, cut))
}

// importWrite writes an import's files, remembering what each path held
// before (scenario files, payloads and the scenarios' goldens), so that a
// failed --update leaves the tree as it found it.
type importWrite struct {
	paths  []string
	before map[string][]byte // nil: the path did not exist
	data   map[string][]byte // what the import writes (files only)
}

// snapshot records the files' and the scenarios' goldens' contents.
func (w *importWrite) snapshot(files []importer.ImportedFile, scenarios []string) {
	w.before, w.data = map[string][]byte{}, map[string][]byte{}
	add := func(p string) {
		if _, ok := w.before[p]; ok || p == "" {
			return
		}
		w.paths = append(w.paths, p)
		w.before[p], _ = os.ReadFile(p) // nil when absent
	}
	for _, f := range files {
		add(f.Path)
		w.data[f.Path] = f.Data
	}
	for _, sc := range scenarios {
		_, _, golden := harness.Layout(sc)
		add(golden)
	}
}

// check refuses, without --force, to overwrite a file whose contents
// differ from what the import writes.
func (w *importWrite) check(force bool, stderr io.Writer) int {
	var differ []string
	for p, data := range w.data {
		if old := w.before[p]; old != nil && !bytes.Equal(old, data) {
			differ = append(differ, p)
		}
	}
	if len(differ) == 0 || force {
		return exitOK
	}
	slices.Sort(differ)
	fmt.Fprintf(stderr, "toolout import: %s exists with other contents (%d file(s) in all: %s); --force overwrites, or choose another -o or --at\n",
		differ[0], len(differ), strings.Join(differ, ", "))
	return exitFailed
}

// write writes the files that are new or changed, saying which.
func (w *importWrite) write(files []importer.ImportedFile, stdout, stderr io.Writer) int {
	for _, f := range files {
		if old := w.before[f.Path]; old != nil && bytes.Equal(old, f.Data) {
			fmt.Fprintf(stdout, "unchanged %s\n", f.Path)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			fmt.Fprintf(stderr, "toolout import: %v\n", err)
			return exitFailed
		}
		if err := os.WriteFile(f.Path, f.Data, 0o644); err != nil {
			fmt.Fprintf(stderr, "toolout import: %v\n", err)
			return exitFailed
		}
		fmt.Fprintf(stdout, "wrote %s\n", f.Path)
	}
	return exitOK
}

// restore puts back what every path held before the import: a file that
// did not exist is removed. The failing runs' transcripts (golden/*.got)
// stay, to read.
func (w *importWrite) restore(stderr io.Writer) {
	var removed []string
	for _, p := range w.paths {
		var err error
		if old := w.before[p]; old != nil {
			err = os.WriteFile(p, old, 0o644)
		} else if err = os.Remove(p); err == nil {
			removed = append(removed, p)
		} else if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		if err != nil {
			fmt.Fprintf(stderr, "toolout import: restoring %s: %v\n", p, err)
		}
	}
	fmt.Fprintf(stderr, "toolout import: the imported scenarios fail; removed what the import wrote (%s) and put back what was there\n", strings.Join(removed, ", "))
}

// formatHelp describes every format --format takes, in one line.
func formatHelp() string {
	var parts []string
	for _, f := range importer.Formats() {
		parts = append(parts, f[0]+" ("+f[1]+")")
	}
	return strings.Join(parts, ", ")
}
