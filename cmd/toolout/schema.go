package main

import (
	"context"
	"fmt"
	"io"

	"github.com/toolout/toolout/core/schema"
)

// runSchema dispatches `toolout schema summarize|inspect`.
func runSchema(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "summarize":
			return runSchemaSummarize(ctx, args[1:], stdin, stdout, stderr)
		case "inspect":
			return runSchemaInspect(ctx, args[1:], stdin, stdout, stderr)
		case "-h", "--help":
			fmt.Fprintln(stderr, "Usage: toolout schema summarize [FILE] [--max-fields N --max-depth N]\n"+
				"       toolout schema inspect --tool-id ID --field-path P [FILE] [--max-depth N --max-fields N]")
			return exitOK
		}
	}
	fmt.Fprintln(stderr, "toolout schema: want a subcommand: summarize or inspect")
	return exitUsage
}

// runSchemaSummarize prints {"output_fields":[…],"has_hidden_fields":bool}.
func runSchemaSummarize(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("schema summarize", "[FILE] [--max-fields N --max-depth N] [--max-input BYTES]", stderr)
	maxFields := fs.Int("max-fields", schema.MaxSummaryFields, "most lines of output_fields")
	maxDepth := fs.Int("max-depth", schema.DefaultSummaryMaxDepth, "deepest field listed (root fields are depth 1)")
	maxInput := maxInputFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	if *maxFields < 2 || *maxDepth < 1 {
		fmt.Fprintln(stderr, "toolout schema summarize: --max-fields must be at least 2 and --max-depth at least 1")
		return exitUsage
	}
	name, data, err := readBytes(pos, stdin, *maxInput)
	if err != nil {
		fmt.Fprintf(stderr, "toolout schema summarize: %v\n", err)
		return exitUsage
	}
	s, err := schema.Summarize(data, schema.Options{MaxFields: *maxFields, MaxDepth: *maxDepth})
	if err != nil {
		fmt.Fprintf(stderr, "toolout schema summarize: %s: %v\n", name, err)
		return exitUsage
	}
	return writeJSON(stdout, stderr, s)
}

// runSchemaInspect prints the inspector's answer (the data of the
// inspect_tool_output envelope) for one field path of the output schema in
// FILE. A call the inspector cannot answer (no output schema, an empty
// schema, a field path that does not resolve) is bad input: one line on
// stderr, exit 2.
func runSchemaInspect(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("schema inspect", "--tool-id ID --field-path P [FILE] [--max-depth N --max-fields N] [--max-input BYTES]", stderr)
	toolID := fs.String("tool-id", "", "the tool whose output schema FILE is (echoed as tool_id; required)")
	fieldPath := fs.String("field-path", "", `field to inspect: "a.b", "a[]", "a[].b", "[][]"; empty for the root`)
	maxDepth := fs.Int("max-depth", schema.DefaultInspectMaxDepth, "levels of the flattened preview")
	maxFields := fs.Int("max-fields", schema.DefaultInspectMaxFields, "most children and flattened fields")
	maxInput := maxInputFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	if *toolID == "" || *maxDepth < 1 || *maxFields < 1 {
		fmt.Fprintln(stderr, "toolout schema inspect: --tool-id is required; --max-depth and --max-fields must be at least 1")
		return exitUsage
	}
	name, data, err := readBytes(pos, stdin, *maxInput)
	if err != nil {
		fmt.Fprintf(stderr, "toolout schema inspect: %v\n", err)
		return exitUsage
	}
	ix := schema.NewIndex(schema.ToolSpec{ToolID: *toolID, OutputSchema: data})
	res := ix.Inspect(schema.InspectArgs{ToolID: *toolID, FieldPath: *fieldPath, MaxDepth: *maxDepth, MaxFields: *maxFields})
	if !res.Successful {
		fmt.Fprintf(stderr, "toolout schema inspect: %s: %s\n", name, res.Error)
		return exitUsage
	}
	return writeJSON(stdout, stderr, res.Data)
}
