package main

import (
	"context"
	"fmt"
	"io"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/leaked"
	"github.com/toolout/toolout/fakes"
)

// runLeaked prints the tool calls leaked as text in FILE or stdin:
// {"content","tool_calls","patterns","dropped","repairs"}.
func runLeaked(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("leaked", "[FILE] [--ids uuid|seq] [--scan-fences] [--max-input BYTES]", stderr)
	ids := fs.String("ids", "uuid", "call ids: uuid (random UUIDv4) or seq (00000000-0000-4000-8000-000000000001, ... for reproducible output)")
	fences := fs.Bool("scan-fences", false, "also extract wrappers inside fenced code blocks")
	maxInput := maxInputFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	var src core.Sources
	switch *ids {
	case "uuid":
	case "seq":
		src = fakes.NewSources()
	default:
		fmt.Fprintf(stderr, "toolout leaked: --ids %q: want uuid or seq\n", *ids)
		return exitUsage
	}
	_, text, err := readText(pos, stdin, *maxInput)
	if err != nil {
		fmt.Fprintf(stderr, "toolout leaked: %v\n", err)
		return exitUsage
	}
	return writeJSON(stdout, stderr, leaked.Extract(text, leaked.Options{Sources: src, ScanFences: *fences}))
}
