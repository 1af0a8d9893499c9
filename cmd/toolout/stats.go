package main

import (
	"context"
	"fmt"
	"io"

	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// runStats prints the stats the store keeps for an output:
// {"bytes","lines","tokens","avg_line_bytes"}.
func runStats(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("stats", "[FILE] [--encoding cl100k_base|o200k_base]", stderr)
	enc := fs.String("encoding", tokens.Default, "tiktoken encoding used to count tokens")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	tk, err := tokens.New(*enc)
	if err != nil {
		fmt.Fprintf(stderr, "toolout stats: --encoding: %v\n", err)
		return exitUsage
	}
	_, data, err := readInput(pos, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "toolout stats: %v\n", err)
		return exitUsage
	}
	return writeJSON(stdout, stderr, store.Measure(string(data), tk))
}
