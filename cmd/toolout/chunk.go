package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/toolout/toolout/core/chunk"
)

// chunkLeaf prints the chunk plan of FILE or stdin: {tokens, budget,
// overlap, target, chunks: [{index, start, end, tokens, overlap_tokens}]}.
func chunkLeaf() leaf {
	return leaf{name: "chunk", summary: "plan balanced, overlapping chunks of a file for a token budget",
		synopsis: "[FILE] --budget B [--overlap 10] [--encoding cl100k_base|o200k_base] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			budget := fs.Int("budget", 0, "most tokens per chunk, overlap included (required)")
			overlap := fs.Float64("overlap", chunk.DefaultOverlap*100, "overlap between consecutive chunks, in percent of the budget (0 to under 50)")
			enc := encodingFlag(fs)
			return func(_ context.Context, c *call) (any, error) {
				if *budget <= 0 {
					return nil, errors.New("--budget is required (a positive number of tokens)")
				}
				tk, err := enc()
				if err != nil {
					return nil, err
				}
				name, text, err := c.text()
				if err != nil {
					return nil, err
				}
				plan, err := chunk.Make(text, tk, *budget, *overlap/100)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				if plan.Chunks == nil {
					plan.Chunks = []chunk.Chunk{} // empty input: "chunks":[], not null
				}
				return plan, nil
			}
		}}
}
