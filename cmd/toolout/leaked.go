package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/leaked"
	"github.com/toolout/toolout/fakes"
)

// leakedLeaf prints the tool calls leaked as text in FILE or stdin:
// {"content","tool_calls","patterns","dropped","repairs"}.
func leakedLeaf() leaf {
	return leaf{name: "leaked", summary: "recover tool calls leaked as text inside <tool_call>-like tags",
		synopsis: "[FILE] [--ids uuid|seq] [--scan-fences] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			ids := fs.String("ids", "uuid", "call ids: uuid (random UUIDv4) or seq (00000000-0000-4000-8000-000000000001, ... for reproducible output)")
			fences := fs.Bool("scan-fences", false, "also extract wrappers inside fenced code blocks")
			return func(_ context.Context, c *call) (any, error) {
				var src core.Sources
				switch *ids {
				case "uuid":
				case "seq":
					src = fakes.NewSources()
				default:
					return nil, fmt.Errorf("--ids %q: want uuid or seq", *ids)
				}
				_, text, err := c.text()
				if err != nil {
					return nil, err
				}
				return leaked.Extract(text, leaked.Options{Sources: src, ScanFences: *fences}), nil
			}
		}}
}
