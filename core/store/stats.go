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

// ToolOutputName is the name of the extraction tool, whose results are never
// stored.
const ToolOutputName = "tool_output"

// Policy decides which outputs are stored.
type Policy struct {
	// MaxBytes is the byte cap: an output of more bytes is stored. Zero or
	// less disables the byte rule.
	MaxBytes int
}

// Decision says whether to store an output, and why.
type Decision struct {
	Store  bool
	Reason string // "bytes" or "tokens" when stored
}

// Decide applies the policy to an output of tool measured by st, with
// remaining tokens of context budget left (negative: no budget rule).
func (p Policy) Decide(tool string, st Stats, remaining int) Decision {
	switch {
	case tool == ToolOutputName:
		return Decision{}
	case p.MaxBytes > 0 && st.Bytes > p.MaxBytes:
		return Decision{Store: true, Reason: fmt.Sprintf("bytes: %d > cap %d", st.Bytes, p.MaxBytes)}
	case remaining >= 0 && st.Tokens > remaining:
		return Decision{Store: true, Reason: fmt.Sprintf("tokens: %d > remaining budget %d", st.Tokens, remaining)}
	}
	return Decision{}
}
