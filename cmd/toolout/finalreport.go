package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/toolout/toolout/core/finalreport"
)

// finalReportLeaf prints {"found":bool,"content":string,"closed":bool} for
// the final-report wrapper with the given nonce in FILE or stdin. Not finding
// a report is a result, not an error: exit 0.
func finalReportLeaf() leaf {
	return leaf{name: "final-report", summary: "parse a final-report wrapper from a file or stdin",
		synopsis: "--nonce NONCE [FILE] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			nonce := fs.String("nonce", "", "the session nonce of the <ai-agent-NONCE-FINAL> wrapper (required)")
			return func(_ context.Context, c *call) (any, error) {
				if *nonce == "" {
					return nil, errors.New("--nonce is required")
				}
				name, text, err := c.text()
				if err != nil {
					return nil, err
				}
				rep, err := finalreport.Parse(text, *nonce)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				return rep, nil
			}
		}}
}
