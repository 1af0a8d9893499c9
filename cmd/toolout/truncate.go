package main

import (
	"context"
	"errors"
	"flag"

	"github.com/toolout/toolout/core/extract"
)

// truncateLeaf prints what the truncate strategy keeps of FILE or stdin:
// {"text", "bytes", "truncated_bytes"}.
func truncateLeaf() leaf {
	return leaf{name: "truncate", summary: "keep the head and tail of an output around a marker, as the truncate strategy does",
		synopsis: "--max-bytes N [FILE] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			maxBytes := fs.Int("max-bytes", -1, "head-plus-tail budget in bytes (required)")
			return func(_ context.Context, c *call) (any, error) {
				if *maxBytes < 0 {
					return nil, errors.New("--max-bytes is required (0 or more)")
				}
				_, text, err := c.text()
				if err != nil {
					return nil, err
				}
				kept, cut := extract.Truncate(text, *maxBytes)
				return struct {
					Text      string `json:"text"`
					Bytes     int    `json:"bytes"`
					Truncated int    `json:"truncated_bytes"`
				}{kept, len(text), cut}, nil
			}
		}}
}
