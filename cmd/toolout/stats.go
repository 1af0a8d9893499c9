package main

import (
	"bytes"
	"context"
	"flag"
	"io"

	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// statsLeaf prints the stats the store keeps for an output:
// {"bytes","lines","tokens","avg_line_bytes"}, the numbers store.Measure
// gives for the whole text. It reads FILE or stdin in one pass: bytes and
// lines are counted as the text goes by, and tokens by a tokens.Counter,
// which holds only the text since the last line that starts with a
// printable ASCII byte (so a few KB for a log; a text without such a line
// is held whole, up to --max-input).
func statsLeaf() leaf {
	return leaf{name: "stats", summary: "print bytes, lines, tokens and average line bytes of an output",
		synopsis: "[FILE] [--encoding cl100k_base|o200k_base] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			enc := encodingFlag(fs)
			return func(_ context.Context, c *call) (any, error) {
				tk, err := enc()
				if err != nil {
					return nil, err
				}
				in, err := c.open()
				if err != nil {
					return nil, err
				}
				defer in.Close()
				m := measurer{tokens: tk.NewCounter()}
				if _, err := io.CopyBuffer(&m, in, make([]byte, 64<<10)); err != nil {
					return nil, err
				}
				return m.stats(), nil
			}
		}}
}

// measurer counts what store.Measure counts, over a stream.
type measurer struct {
	bytes, breaks int
	tokens        *tokens.Counter
}

func (m *measurer) Write(p []byte) (int, error) {
	m.bytes += len(p)
	m.breaks += bytes.Count(p, []byte{'\n'})
	return m.tokens.Write(p)
}

// stats is store.Measure's result: lines are the line breaks plus one for
// any text, and the average rounds up.
func (m *measurer) stats() store.Stats {
	st := store.Stats{Bytes: m.bytes, Tokens: m.tokens.Tokens()}
	if m.bytes > 0 {
		st.Lines = m.breaks + 1
		st.AvgLineBytes = (st.Bytes + st.Lines - 1) / st.Lines
	}
	return st
}
