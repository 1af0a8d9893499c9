package main

import (
	"context"
	"fmt"
	"io"

	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/tokens"
)

// runChunk prints the chunk plan of FILE or stdin: {tokens, budget, overlap,
// target, chunks: [{index, start, end, tokens, overlap_tokens}]}.
func runChunk(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("chunk", "[FILE] --budget B [--overlap 10] [--encoding cl100k_base|o200k_base] [--max-input BYTES]", stderr)
	budget := fs.Int("budget", 0, "most tokens per chunk, overlap included (required)")
	overlap := fs.Float64("overlap", chunk.DefaultOverlap*100, "overlap between consecutive chunks, in percent of the budget (0 to under 50)")
	enc := fs.String("encoding", tokens.Default, "tiktoken encoding")
	maxInput := maxInputFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	if *budget <= 0 {
		fmt.Fprintln(stderr, "toolout chunk: --budget is required (a positive number of tokens)")
		return exitUsage
	}
	tk, err := tokens.New(*enc)
	if err != nil {
		fmt.Fprintf(stderr, "toolout chunk: --encoding: %v\n", err)
		return exitUsage
	}
	name, text, err := readText(pos, stdin, *maxInput)
	if err != nil {
		fmt.Fprintf(stderr, "toolout chunk: %v\n", err)
		return exitUsage
	}
	plan, err := chunk.Make(text, tk, *budget, *overlap/100)
	if err != nil {
		fmt.Fprintf(stderr, "toolout chunk: %s: %v\n", name, err)
		return exitUsage
	}
	if plan.Chunks == nil {
		plan.Chunks = []chunk.Chunk{} // empty input: "chunks":[], not null
	}
	return writeJSON(stdout, stderr, plan)
}
