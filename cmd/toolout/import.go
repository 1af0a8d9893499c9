package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolout/toolout/harness/importer"
)

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

var _ flag.Value = (*stringList)(nil)

// runImport turns a production trace into regression scenarios.
func runImport(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("import", "TRACE.json [-o scenarios/regress/NAME.yaml] [--at N] [--max-bytes N] [--max-input BYTES] [--redact-emails] [--redact REGEX]... [--update]", stderr)
	out := fs.String("o", "", "the session scenario to write (default scenarios/regress/<trace name>.yaml); the leaked scenario and payload files go beside it")
	at := fs.Int("at", -1, "index of the message to cut at, when the trace holds several candidates")
	maxBytes := fs.Int("max-bytes", 0, "byte cap above which a tool result counts as oversized (default: the session's, 12 KiB)")
	emails := fs.Bool("redact-emails", false, "also replace e-mail addresses")
	var extra stringList
	fs.Var(&extra, "redact", "a regular expression whose matches are replaced (repeatable)")
	update := fs.Bool("update", false, "run the new scenarios once to write their goldens")
	maxInput := maxInputFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "toolout import: want one TRACE.json")
		return exitUsage
	}
	if pos[0] == "-" {
		fmt.Fprintln(stderr, "toolout import: want a TRACE.json file, not standard input (its name names the scenario)")
		return exitUsage
	}
	_, trace, err := readBytes(pos, nil, *maxInput)
	if err != nil {
		fmt.Fprintf(stderr, "toolout import: %v\n", err)
		return exitUsage
	}
	base := strings.TrimSuffix(filepath.Base(pos[0]), filepath.Ext(pos[0]))
	target := *out
	if target == "" {
		target = filepath.Join("scenarios", "regress", base+".yaml")
	}
	if filepath.Ext(target) != ".yaml" {
		fmt.Fprintf(stderr, "toolout import: -o %s: want a .yaml path\n", target)
		return exitUsage
	}
	files, err := importer.Import(trace, importer.ImportOptions{
		Dir: filepath.Dir(target), Name: strings.TrimSuffix(filepath.Base(target), ".yaml"), TraceName: filepath.Base(pos[0]), TracePath: pos[0],
		At: *at, MaxBytes: *maxBytes, RedactEmails: *emails, Redact: extra,
	})
	if err != nil {
		fmt.Fprintf(stderr, "toolout import: %v\n", err)
		return exitUsage
	}
	var scenarios []string
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			fmt.Fprintf(stderr, "toolout import: %v\n", err)
			return exitFailed
		}
		if err := os.WriteFile(f.Path, f.Data, 0o644); err != nil {
			fmt.Fprintf(stderr, "toolout import: %v\n", err)
			return exitFailed
		}
		fmt.Fprintf(stdout, "wrote %s\n", f.Path)
		if strings.HasSuffix(f.Path, ".yaml") {
			scenarios = append(scenarios, f.Path)
		}
	}
	if !*update {
		return exitOK
	}
	return runTest(ctx, append(scenarios, "--update"), nil, stdout, stderr)
}
