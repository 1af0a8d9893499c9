package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/toolout/toolout/core/schema"
)

// schemaGroup is `toolout schema summarize|inspect`.
func schemaGroup() group {
	return group{name: "schema", subs: []command{schemaSummarizeLeaf().sub(), schemaInspectLeaf().sub()}}
}

// schemaSummarizeLeaf prints {"output_fields":[…],"has_hidden_fields":bool}.
func schemaSummarizeLeaf() leaf {
	return leaf{name: "schema summarize", summary: "fold an output schema into output_fields",
		synopsis: "[FILE] [--max-fields N --max-depth N] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			maxFields := fs.Int("max-fields", schema.MaxSummaryFields, "most lines of output_fields")
			maxDepth := fs.Int("max-depth", schema.DefaultSummaryMaxDepth, "deepest field listed (root fields are depth 1)")
			return func(_ context.Context, c *call) (any, error) {
				if *maxFields < 2 || *maxDepth < 1 {
					return nil, errors.New("--max-fields must be at least 2 and --max-depth at least 1")
				}
				name, data, err := c.bytes()
				if err != nil {
					return nil, err
				}
				s, err := schema.Summarize(data, schema.Options{MaxFields: *maxFields, MaxDepth: *maxDepth})
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				return s, nil
			}
		}}
}

// schemaInspectLeaf prints the inspector's answer (the data of the
// inspect_tool_output envelope) for one field path of the output schema in
// FILE. A call the inspector cannot answer (no output schema, an empty
// schema, a field path that does not resolve) is bad input: one line on
// stderr, exit 2.
func schemaInspectLeaf() leaf {
	return leaf{name: "schema inspect", summary: "inspect one field path of an output schema",
		synopsis: "--tool-id ID --field-path P [FILE] [--max-depth N --max-fields N] [--max-input BYTES]", input: true,
		setup: func(fs *flag.FlagSet) leafFunc {
			toolID := fs.String("tool-id", "", "the tool whose output schema FILE is (echoed as tool_id; required)")
			fieldPath := fs.String("field-path", "", `field to inspect: "a.b", "a[]", "a[].b", "[][]"; empty for the root`)
			maxDepth := fs.Int("max-depth", schema.DefaultInspectMaxDepth, "levels of the flattened preview")
			maxFields := fs.Int("max-fields", schema.DefaultInspectMaxFields, "most children and flattened fields")
			return func(_ context.Context, c *call) (any, error) {
				if *toolID == "" || *maxDepth < 1 || *maxFields < 1 {
					return nil, errors.New("--tool-id is required; --max-depth and --max-fields must be at least 1")
				}
				name, data, err := c.bytes()
				if err != nil {
					return nil, err
				}
				ix := schema.NewIndex(schema.ToolSpec{ToolID: *toolID, OutputSchema: data})
				res := ix.Inspect(schema.InspectArgs{ToolID: *toolID, FieldPath: *fieldPath, MaxDepth: *maxDepth, MaxFields: *maxFields})
				if !res.Successful {
					return nil, fmt.Errorf("%s: %s", name, res.Error)
				}
				return res.Data, nil
			}
		}}
}
