package schema_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolout/toolout/core/schema"
)

const exampleSchema = `{
  "type": "object",
  "properties": {
    "successful": {"type": "boolean"},
    "data": {
      "type": "object",
      "properties": {
        "order": {
          "type": "object",
          "properties": {
            "id": {"type": "string"},
            "status": {"type": "string"},
            "note": {"type": ["string", "null"]},
            "customer": {"type": "object", "properties": {"email": {"type": "string"}, "tags": {"type": "array"}}}
          }
        },
        "line_items": {
          "type": "array",
          "items": {"type": "object", "properties": {"sku": {"type": "string"}, "price": {"type": "string"}, "qty": {"type": "integer"}}}
        },
        "metafields": {"type": "object", "additionalProperties": {"type": "string"}}
      }
    }
  }
}`

func ExampleSummarize() {
	s, err := schema.Summarize([]byte(exampleSchema), schema.Options{MaxFields: 9})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range s.OutputFields {
		fmt.Println(line)
	}
	fmt.Println("has_hidden_fields:", s.HasHiddenFields)
	// Output:
	// order: object (contains 4 sub-fields; inspect_tool_output(..., field_path="order"))
	// line_items[]: object (contains 3 sub-fields; inspect_tool_output(..., field_path="line_items[]"))
	// metafields: object (unknown keys; inspect_tool_output(..., field_path="metafields"))
	// order.id: string
	// order.status: string
	// line_items[].price: string
	// order.customer.email: string
	// order.note: string|null
	// line_items[].sku: string
	// has_hidden_fields: true
}

func ExampleIndex_InspectToolOutput() {
	ix := schema.NewIndex(schema.ToolSpec{ToolID: "shop.get_order", Server: "shop", OutputSchema: json.RawMessage(exampleSchema)})
	for _, args := range []string{
		`{"tool_id": "shop.get_order", "field_path": "order", "max_depth": 1}`,
		`{"tool_id": "shop.get_order", "field_path": "order.customer.address"}`,
	} {
		out, _ := json.MarshalIndent(ix.InspectToolOutput([]byte(args)), "", "  ")
		fmt.Println(string(out))
	}
	// Output:
	// {
	//   "successful": true,
	//   "data": {
	//     "tool_id": "shop.get_order",
	//     "field_path": "order",
	//     "node_type": "object",
	//     "children": [
	//       {
	//         "name": "id",
	//         "type": "string"
	//       },
	//       {
	//         "name": "status",
	//         "type": "string"
	//       },
	//       {
	//         "name": "note",
	//         "type": "string|null"
	//       },
	//       {
	//         "name": "customer",
	//         "type": "object"
	//       }
	//     ],
	//     "flattened_fields": [
	//       "id: string",
	//       "status: string",
	//       "note: string|null",
	//       "customer: object (contains 2 sub-fields; inspect_tool_output(..., field_path=\"order.customer\"))"
	//     ],
	//     "total_child_fields": 4,
	//     "truncated": true
	//   }
	// }
	// {
	//   "successful": false,
	//   "error": "tool \"shop.get_order\": field_path \"order.customer.address\": segment \"address\": no field \"address\" in \"order.customer\" (fields: email, tags)"
	// }
}
