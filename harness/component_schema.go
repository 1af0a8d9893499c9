package harness

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/schema"
)

// schema component: summarizes an output schema (core/schema), or inspects
// one field path of it.
//
//	component: schema
//	config: {max_fields: 30, max_depth: 3, inspect_max_fields: 120, inspect_max_depth: 4}
//	input:
//	  schema: {file: data/shop-orders.json}
//	  inspect: {tool_id: shopify.get_orders, field_path: "orders[]"}   # optional
//	expect: {has_hidden_fields: true, contains: ["…"], fields: ["…"], node_type: object,
//	         total_child_fields: 52, truncated: false, error: "…"}
type schemaConfig struct {
	MaxFields        int `yaml:"max_fields"`
	MaxDepth         int `yaml:"max_depth"`
	InspectMaxFields int `yaml:"inspect_max_fields"`
	InspectMaxDepth  int `yaml:"inspect_max_depth"`
}

type schemaInspect struct {
	ToolID    string `yaml:"tool_id"`
	FieldPath string `yaml:"field_path"`
}

type schemaInput struct {
	Schema  Text           `yaml:"schema"`
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
	// Error is a substring of the error the call must end with.
	Error *string `yaml:"error"`
}

type schemaOutcome struct {
	Summary    *schema.Summary    `json:"summary,omitempty"`
	Inspection *schema.Inspection `json:"inspection,omitempty"`
	Error      string             `json:"error,omitempty"`
	maxFields  int
}

func registerSchema(reg *Registry) {
	Register(reg, Spec[schemaConfig, schemaInput, schemaExpect, schemaOutcome]{
		Name: "schema",
		Doc:  "summarizes an output schema, or inspects one field path of it (core/schema)",
		Run: func(_ context.Context, _ *Env, cfg *schemaConfig, in *schemaInput) (schemaOutcome, error) {
			data := []byte(in.Schema.Value)
			out := schemaOutcome{maxFields: cfg.MaxFields}
			if out.maxFields <= 0 {
				out.maxFields = schema.MaxSummaryFields
			}
			if in.Inspect != nil {
				res, err := schema.Inspect(data, in.Inspect.ToolID, in.Inspect.FieldPath,
					schema.InspectOptions{MaxFields: cfg.InspectMaxFields, MaxDepth: cfg.InspectMaxDepth})
				if err != nil {
					out.Error = err.Error()
				} else {
					out.Inspection = &res
				}
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

func checkSchema(exp *schemaExpect, got schemaOutcome) []Mismatch {
	var out []Mismatch
	switch {
	case exp.Error == nil && got.Error != "":
		return []Mismatch{{"error", "the call failed: " + got.Error}}
	case exp.Error != nil && !strings.Contains(got.Error, *exp.Error):
		return []Mismatch{{"error", fmt.Sprintf("got %q, want it to contain %q", got.Error, *exp.Error)}}
	case exp.Error != nil:
		return nil
	}
	var lines []string
	if s := got.Summary; s != nil {
		lines = s.OutputFields
		// The contract of every summary, checked whatever the scenario says.
		if len(lines) > got.maxFields {
			out = append(out, Mismatch{"fields", fmt.Sprintf("%d lines, over the %d allowed", len(lines), got.maxFields)})
		}
		out = append(out, want("has_hidden_fields", exp.HasHiddenFields, s.HasHiddenFields)...)
	}
	if in := got.Inspection; in != nil {
		lines = in.FlattenedFields
		out = append(out, want("node_type", exp.NodeType, in.NodeType)...)
		out = append(out, want("total_child_fields", exp.TotalChildFields, in.TotalChildFields)...)
		out = append(out, want("truncated", exp.Truncated, in.Truncated)...)
	}
	if exp.Fields != nil && strings.Join(exp.Fields, "\n") != strings.Join(lines, "\n") {
		out = append(out, Mismatch{"fields", fmt.Sprintf("got\n%s", strings.Join(lines, "\n"))})
	}
	for _, c := range exp.Contains {
		if !slices.Contains(lines, c) {
			out = append(out, Mismatch{"contains", fmt.Sprintf("no line is %q", c)})
		}
	}
	for _, c := range exp.NotContains {
		if slices.Contains(lines, c) {
			out = append(out, Mismatch{"not_contains", fmt.Sprintf("a line is %q", c)})
		}
	}
	return out
}
