package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/toolout/toolout/core/finalreport"
)

// runFinalReport prints {"found":bool,"content":string,"closed":bool} for the
// final-report wrapper with the given nonce in FILE or stdin. Not finding a
// report is a result, not an error: exit 0.
func runFinalReport(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("final-report", "--nonce NONCE [FILE] [--max-input BYTES]", stderr)
	nonce := fs.String("nonce", "", "the session nonce of the <ai-agent-NONCE-FINAL> wrapper (required)")
	maxInput := maxInputFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	if *nonce == "" {
		fmt.Fprintln(stderr, "toolout final-report: --nonce is required")
		return exitUsage
	}
	name, text, err := readText(pos, stdin, *maxInput)
	if err != nil {
		fmt.Fprintf(stderr, "toolout final-report: %v\n", err)
		return exitUsage
	}
	rep, err := finalreport.Parse(text, *nonce)
	if err != nil {
		fmt.Fprintf(stderr, "toolout final-report: %s: %v\n", name, err)
		return exitUsage
	}
	return writeJSON(stdout, stderr, rep)
}

// writeJSON prints v as one line of JSON without HTML escaping.
func writeJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "toolout: %v\n", err)
		return exitFailed
	}
	return exitOK
}
