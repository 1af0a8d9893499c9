package main

import (
	"context"
	"fmt"
	"io"

	"github.com/toolout/toolout/core/extract"
)

// runTruncate prints what the truncate strategy keeps of FILE or stdin:
// {"text", "bytes", "truncated_bytes"}.
func runTruncate(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("truncate", "--max-bytes N [FILE] [--max-input BYTES]", stderr)
	maxBytes := fs.Int("max-bytes", -1, "head-plus-tail budget in bytes (required)")
	maxInput := maxInputFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	if *maxBytes < 0 {
		fmt.Fprintln(stderr, "toolout truncate: --max-bytes is required (0 or more)")
		return exitUsage
	}
	_, text, err := readText(pos, stdin, *maxInput)
	if err != nil {
		fmt.Fprintf(stderr, "toolout truncate: %v\n", err)
		return exitUsage
	}
	kept, cut := extract.Truncate(text, *maxBytes)
	return writeJSON(stdout, stderr, struct {
		Text      string `json:"text"`
		Bytes     int    `json:"bytes"`
		Truncated int    `json:"truncated_bytes"`
	}{kept, len(text), cut})
}
