package store

import (
	"fmt"
	"strings"

	"github.com/toolout/toolout/core"
)

// Stats measure one output.
type Stats struct {
	Bytes        int `json:"bytes"`
	Lines        int `json:"lines"`
	Tokens       int `json:"tokens"`
	AvgLineBytes int `json:"avg_line_bytes"`
}

// Measure computes the stats of output: lines is the count of "\n" plus one
// (0 for empty output), average line bytes is ceil(bytes/lines).
func Measure(output string, tk core.Tokenizer) Stats {
	st := Stats{Bytes: len(output), Tokens: tk.Count(output)}
	if output != "" {
		st.Lines = strings.Count(output, "\n") + 1
		st.AvgLineBytes = (st.Bytes + st.Lines - 1) / st.Lines
	}
	return st
}

// HandleMessage is the tool result the model sees instead of an oversized
// output: exactly the three lines of section 2a of the spec.
func HandleMessage(m Meta) string {
	return fmt.Sprintf("Tool output is too large (%d bytes, %d lines, %d tokens).\n"+
		"Call tool_output(handle = \"%s\", extract = \"what to extract\").\n"+
		"Provide precise and detailed instructions in `extract` about what you are looking for.",
		m.Bytes, m.Lines, m.Tokens, m.Handle)
}
