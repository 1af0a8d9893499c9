package schema

import (
	"encoding/json"
	"fmt"

	"github.com/toolout/toolout/core"
)

// Inspector identity (spec section 4.3).
const (
	InspectToolName   = "inspect_tool_output"
	InspectToolServer = "toolbox"
	InspectToolID     = InspectToolServer + "." + InspectToolName
)

// PlannerDirective is the spec's block for the planner prompt's tool usage
// section (step 6), verbatim.
const PlannerDirective = "**Handling Large Outputs:**\n" +
	"Some tools have large output schemas that are summarized.\n" +
	"* If you see a field marked like `variants[]: object (contains 15 sub-fields; inspect...)`, it means the details are hidden.\n" +
	"* **Rule:** If you need to access a hidden field to write your plan (e.g., checking a specific variant attribute), you MUST first call `toolbox.inspect_tool_output(tool_id, field_path)` to see the structure. Do not guess paths."

const inspectSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["tool_id"],
  "properties": {
    "tool_id": {"type": "string", "minLength": 1, "description": "Id of the tool whose output schema to inspect, e.g. \"shopify.shopify_get_order\"."},
    "field_path": {"type": ["string", "null"], "description": "Dot path of the field; arrays use [], e.g. \"variants[]\" or \"variants[].inventory_item\". Empty or null for the root."},
    "max_depth": {"type": "integer", "minimum": 1, "default": 4, "description": "How deep to summarize the returned subtree."},
    "max_fields": {"type": "integer", "minimum": 1, "default": 120, "description": "Most flattened fields to return."}
  }
}`

// InspectTool is the inspect_tool_output descriptor.
func InspectTool() core.Tool {
	return core.Tool{Name: InspectToolName, InputSchema: json.RawMessage(inspectSchema),
		Description: "Show the structure of a tool's output schema at one field path: its type, immediate children and a " +
			"bounded flattened preview. Use it before relying on a field that a summary folded (a line with \"contains N sub-fields\")."}
}

// ToolSpec describes a tool for its compact descriptor.
type ToolSpec struct {
	ToolID       string          `json:"tool_id"`
	Server       string          `json:"server"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"input_schema"`
	OutputSchema json.RawMessage `json:"output_schema"`
}

// CompactDescriptor is the planner-facing view of a tool (spec section 4.1),
// with has_hidden_fields added.
type CompactDescriptor struct {
	ToolID          string   `json:"tool_id"`
	Server          string   `json:"server"`
	Description     string   `json:"description"`
	InputParams     []string `json:"input_params"`
	OutputFields    []string `json:"output_fields"`
	HasHiddenFields bool     `json:"has_hidden_fields"`
}

// Compact builds the compact descriptor: input_params are the top-level
// input fields ("name: type", required ones marked), output_fields the
// summary of the output schema.
func Compact(t ToolSpec, opts Options) (CompactDescriptor, error) {
	d := CompactDescriptor{ToolID: t.ToolID, Server: t.Server, Description: t.Description, InputParams: []string{}, OutputFields: []string{}}
	if len(t.InputSchema) > 0 {
		raw, err := decode(t.InputSchema)
		if err != nil {
			return d, fmt.Errorf("schema: %s: input schema: %w", t.ToolID, err)
		}
		required := map[string]bool{}
		if o, ok := raw.(*obj); ok {
			if req, ok := o.kwv(kwRequired).([]any); ok {
				for _, r := range req {
					if s, ok := r.(string); ok {
						required[s] = true
					}
				}
			}
		}
		b := newBuilder(raw, DefaultMaxNodes)
		n := b.norm(b.build(raw))
		for _, p := range n.props {
			line := p.name + ": " + b.norm(p.n).label
			if required[p.name] {
				line += " (required)"
			}
			d.InputParams = append(d.InputParams, line)
		}
	}
	if len(t.OutputSchema) > 0 {
		s, err := Summarize(t.OutputSchema, opts)
		if err != nil {
			return d, fmt.Errorf("schema: %s: output schema: %w", t.ToolID, err)
		}
		d.OutputFields, d.HasHiddenFields = s.OutputFields, s.HasHiddenFields
	}
	return d, nil
}
