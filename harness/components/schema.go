package components

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/schema"
	"github.com/toolout/toolout/harness"
)

// schema component: summarizes an output schema (core/schema), or inspects
// one field path of it through the inspect_tool_output tool call
// (schema.Index.InspectToolOutput), whose envelope the transcript shows.
//
//	component: schema
//	config: {max_fields: 30, max_depth: 3, inspect_max_fields: 120, inspect_max_depth: 4}
//	input:
//	  schema: {file: data/shop-orders.json}   # omitted: the tool has no output schema
//	  tool_id: shopify.get_orders             # the id the tool is indexed under; default inspect.tool_id
//	  inspect: {tool_id: shopify.get_orders, field_path: "orders[]"}   # optional
//	  # or, the call's arguments verbatim: inspect: {args: '{"tool_id": 5}'}
//	expect: {has_hidden_fields: true, contains: ["…"], fields: ["…"], node_type: object,
//	         total_child_fields: 52, truncated: false, successful: true, error: "…"}
type schemaConfig struct {
	MaxFields        int `yaml:"max_fields"`
	MaxDepth         int `yaml:"max_depth"`
	InspectMaxFields int `yaml:"inspect_max_fields"`
	InspectMaxDepth  int `yaml:"inspect_max_depth"`
}

// schemaInspect is the arguments of one inspect_tool_output call: the
// fields, or Args as the raw JSON text.
type schemaInspect struct {
	ToolID    string  `yaml:"tool_id"`
	FieldPath *string `yaml:"field_path"`
	MaxDepth  int     `yaml:"max_depth"`
	MaxFields int     `yaml:"max_fields"`
	Args      *string `yaml:"args"`
}

type schemaInput struct {
	Schema  *harness.Text  `yaml:"schema"`
	ToolID  string         `yaml:"tool_id"`
	Inspect *schemaInspect `yaml:"inspect"`
}

type schemaExpect struct {
	HasHiddenFields  *bool    `yaml:"has_hidden_fields"`
	Fields           []string `yaml:"fields"`
	Contains         []string `yaml:"contains"`
	NotContains      []string `yaml:"not_contains"`
	NodeType         *string  `yaml:"node_type"`
	TotalChildFields *int     `yaml:"total_child_fields"`
	Truncated        *bool    `yaml:"truncated"`
	// Successful is the inspect_tool_output envelope's flag.
	Successful *bool `yaml:"successful"`
	// Error is a substring of the summary's error or of the envelope's.
	Error *string `yaml:"error"`
}

type schemaOutcome struct {
	Summary *schema.Summary `json:"summary,omitempty"`
	// Inspect is the envelope of the inspect_tool_output call.
	Inspect   *schema.Result `json:"inspect,omitempty"`
	Error     string         `json:"error,omitempty"`
	maxFields int
}

func registerSchema(reg *harness.Registry) {
	harness.Register(reg, harness.Spec[schemaConfig, schemaInput, schemaExpect, schemaOutcome]{
		Name: "schema",
		Doc:  "summarizes an output schema, or inspects one field path of it (core/schema)",
		Run: func(_ context.Context, _ *harness.Env, cfg *schemaConfig, in *schemaInput) (schemaOutcome, error) {
			var data []byte
			if in.Schema != nil {
				data = []byte(in.Schema.Value)
			}
			out := schemaOutcome{maxFields: cfg.MaxFields}
			if out.maxFields <= 0 {
				out.maxFields = schema.MaxSummaryFields
			}
			if in.Inspect != nil {
				res := inspectCall(cfg, in, data)
				out.Inspect = &res
				return out, nil
			}
			s, err := schema.Summarize(data, schema.Options{MaxFields: cfg.MaxFields, MaxDepth: cfg.MaxDepth})
			if err != nil {
				out.Error = err.Error()
			} else {
				out.Summary = &s
			}
			return out, nil
		},
		Check: checkSchema,
	})
}

// inspectCall indexes the tool and makes the inspect_tool_output call.
func inspectCall(cfg *schemaConfig, in *schemaInput, data []byte) schema.Result {
	id := in.ToolID
	if id == "" {
		id = in.Inspect.ToolID
	}
	ix := schema.NewIndex(schema.ToolSpec{ToolID: id, OutputSchema: data})
	if in.Inspect.Args != nil {
		return ix.InspectToolOutput([]byte(*in.Inspect.Args))
	}
	args := map[string]any{"tool_id": in.Inspect.ToolID}
	if in.Inspect.FieldPath != nil {
		args["field_path"] = *in.Inspect.FieldPath
	}
	for key, v := range map[string]int{
		"max_depth":  firstSet(in.Inspect.MaxDepth, cfg.InspectMaxDepth),
		"max_fields": firstSet(in.Inspect.MaxFields, cfg.InspectMaxFields),
	} {
		if v != 0 {
			args[key] = v
		}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return schema.Result{Error: err.Error()}
	}
	return ix.InspectToolOutput(raw)
}

// firstSet returns the first value that is not zero.
func firstSet(vals ...int) int {
	for _, v := range vals {
		if v != 0 {
			return v
		}
	}
	return 0
}

func checkSchema(exp *schemaExpect, got schemaOutcome) []harness.Mismatch {
	gotErr := got.Error
	if got.Inspect != nil {
		gotErr = got.Inspect.Error
	}
	var out []harness.Mismatch
	if r := got.Inspect; r != nil {
		out = append(out, want("successful", exp.Successful, r.Successful)...)
	}
	switch {
	case exp.Error == nil && gotErr != "":
		return append(out, harness.Mismatch{Field: "error", Msg: "the call failed: " + gotErr})
	case exp.Error != nil && !strings.Contains(gotErr, *exp.Error):
		return append(out, harness.Mismatch{Field: "error", Msg: fmt.Sprintf("got %s, want it to contain %q", harness.Show(gotErr), *exp.Error)})
	case exp.Error != nil:
		return out
	}
	var lines []string
	if s := got.Summary; s != nil {
		lines = s.OutputFields
		// The contract of every summary, checked whatever the scenario says.
		if len(lines) > got.maxFields {
			out = append(out, harness.Mismatch{Field: "fields", Msg: fmt.Sprintf("%d lines, over the %d allowed", len(lines), got.maxFields)})
		}
		out = append(out, want("has_hidden_fields", exp.HasHiddenFields, s.HasHiddenFields)...)
	}
	if r := got.Inspect; r != nil && r.Data != nil {
		in := r.Data
		lines = in.FlattenedFields
		out = append(out, want("node_type", exp.NodeType, in.NodeType)...)
		out = append(out, want("total_child_fields", exp.TotalChildFields, in.TotalChildFields)...)
		out = append(out, want("truncated", exp.Truncated, in.Truncated)...)
	}
	if exp.Fields != nil && strings.Join(exp.Fields, "\n") != strings.Join(lines, "\n") {
		out = append(out, harness.Mismatch{Field: "fields", Msg: fmt.Sprintf("got\n%s", strings.Join(lines, "\n"))})
	}
	for _, c := range exp.Contains {
		if !slices.Contains(lines, c) {
			out = append(out, harness.Mismatch{Field: "contains", Msg: fmt.Sprintf("no line is %q; %s", c, harness.Found("lines", lines))})
		}
	}
	for _, c := range exp.NotContains {
		if slices.Contains(lines, c) {
			out = append(out, harness.Mismatch{Field: "not_contains", Msg: fmt.Sprintf("line %d is %q", slices.Index(lines, c), c)})
		}
	}
	return out
}
