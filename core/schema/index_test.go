package schema_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/schema"
)

var _ = Describe("Index.InspectToolOutput", func() {
	var ix *schema.Index
	BeforeEach(func() {
		ix = schema.NewIndex(
			schema.ToolSpec{ToolID: "crm.get_customer", Server: "crm", OutputSchema: load("customer")},
			schema.ToolSpec{ToolID: "crm.ping", Server: "crm"},
			schema.ToolSpec{ToolID: "crm.anything", Server: "crm", OutputSchema: json.RawMessage(`{}`)},
		)
	})

	call := func(args string) schema.Result {
		GinkgoHelper()
		r := ix.InspectToolOutput([]byte(args))
		// The envelope's invariant: data exactly when successful, error exactly when not.
		Expect(r.Data != nil).To(Equal(r.Successful))
		Expect(r.Error == "").To(Equal(r.Successful))
		return r
	}

	It("answers with the envelope {successful: true, data: {...}}", func() {
		r := call(`{"tool_id": "crm.get_customer", "field_path": "recent_orders[]", "max_depth": 1, "max_fields": 3}`)
		Expect(r.Successful).To(BeTrue())
		Expect(r.Data.ToolID).To(Equal("crm.get_customer"))
		Expect(r.Data.FieldPath).To(Equal("recent_orders[]"))
		Expect(r.Data.Children).To(HaveLen(3))
		Expect(r.Data.Truncated).To(BeTrue())
		out, err := json.Marshal(r)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(HavePrefix(`{"successful":true,"data":{"tool_id":"crm.get_customer","field_path":"recent_orders[]","node_type":"object",`))
	})

	It("takes field_path null, or no field_path, as the root, and whole-number floats as integers", func() {
		for _, args := range []string{`{"tool_id":"crm.get_customer","field_path":null}`, `{"tool_id":"crm.get_customer"}`, `{"tool_id":"crm.get_customer","max_depth":4.0,"max_fields":1.2e2}`} {
			r := call(args)
			Expect(r.Successful).To(BeTrue(), args)
			Expect(r.Data.TotalChildFields).To(Equal(8), args)
		}
	})

	DescribeTable("answers {successful: false, error} with one line",
		func(args, want string) {
			r := call(args)
			Expect(r.Successful).To(BeFalse())
			Expect(r.Error).To(Equal(want))
			out, err := json.Marshal(r)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).To(Equal(`{"successful":false,"error":` + string(mustJSON(want)) + `}`))
		},
		Entry("unknown tool", `{"tool_id":"crm.get_customers"}`, `unknown tool_id "crm.get_customers"`),
		Entry("no output schema", `{"tool_id":"crm.ping"}`, `tool "crm.ping": the tool has no output schema`),
		Entry("empty output schema", `{"tool_id":"crm.anything","field_path":""}`, `tool "crm.anything": the output schema is empty (any): it declares no type and no fields`),
		Entry("path that does not resolve", `{"tool_id":"crm.get_customer","field_path":"loyalty.level"}`,
			`tool "crm.get_customer": field_path "loyalty.level": segment "level": no field "level" in "loyalty" (fields: tier, points, expires_at)`),
		Entry("not JSON", `{"tool_id":`, `invalid arguments: invalid JSON at byte 11: unexpected end of input`),
		Entry("not an object", `["crm.get_customer"]`, `invalid arguments: want a JSON object, got array`),
		Entry("no tool_id", `{"field_path":"customer"}`, `invalid arguments: tool_id is required`),
		Entry("empty tool_id", `{"tool_id":""}`, `invalid arguments: tool_id: want a non-empty string, got ""`),
		Entry("tool_id not a string", `{"tool_id":5}`, `invalid arguments: tool_id: want a non-empty string, got 5`),
		Entry("field_path not a string", `{"tool_id":"crm.get_customer","field_path":["a"]}`, `invalid arguments: field_path: want a string or null, got array`),
		Entry("max_depth zero", `{"tool_id":"crm.get_customer","max_depth":0}`, `invalid arguments: max_depth: want an integer of at least 1, got 0`),
		Entry("max_fields fraction", `{"tool_id":"crm.get_customer","max_fields":2.5}`, `invalid arguments: max_fields: want an integer of at least 1, got 2.5`),
		Entry("max_fields a string", `{"tool_id":"crm.get_customer","max_fields":"10"}`, `invalid arguments: max_fields: want an integer of at least 1, got "10"`),
		Entry("unknown key", `{"tool_id":"crm.get_customer","depth":2}`, `invalid arguments: unknown key "depth" (want tool_id, field_path, max_depth, max_fields)`),
	)

	It("keeps its arguments in step with InspectTool's input schema", func() {
		var s struct {
			Required   []string                   `json:"required"`
			Properties map[string]json.RawMessage `json:"properties"`
			Additional bool                       `json:"additionalProperties"`
		}
		Expect(json.Unmarshal(schema.InspectTool().InputSchema, &s)).To(Succeed())
		Expect(s.Required).To(Equal([]string{"tool_id"}))
		Expect(s.Properties).To(HaveLen(4))
		Expect(s.Properties).To(HaveKey("tool_id"))
		Expect(s.Properties).To(HaveKey("field_path"))
		Expect(s.Properties).To(HaveKey("max_depth"))
		Expect(s.Properties).To(HaveKey("max_fields"))
		Expect(s.Additional).To(BeFalse())
	})
})

func mustJSON(v any) []byte {
	out, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return out
}

var _ = Describe("tool surface", func() {
	It("offers inspect_tool_output and the verbatim planner directive", func() {
		Expect(schema.InspectTool().Name).To(Equal("inspect_tool_output"))
		Expect(schema.InspectToolID).To(Equal("toolbox.inspect_tool_output"))
		Expect(json.Valid(schema.InspectTool().InputSchema)).To(BeTrue())
		Expect(schema.PlannerDirective).To(HavePrefix("**Handling Large Outputs:**\nSome tools have large output schemas that are summarized.\n"))
		Expect(schema.PlannerDirective).To(HaveSuffix("to see the structure. Do not guess paths."))
	})

	It("builds the compact descriptor with has_hidden_fields", func() {
		d, err := schema.Compact(schema.ToolSpec{ToolID: "shopify.get_orders", Server: "shopify", Description: "List orders.",
			InputSchema:  json.RawMessage(`{"type":"object","required":["status"],"properties":{"status":{"type":"string"},"limit":{"type":"integer"}}}`),
			OutputSchema: load("shop-orders")}, schema.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(d.InputParams).To(Equal([]string{"status: string (required)", "limit: integer"}))
		Expect(d.HasHiddenFields).To(BeTrue())
		Expect(d.OutputFields).To(HaveLen(30))
	})

	It("builds a descriptor for odd input schemas without panicking", func() {
		for _, in := range []string{`{}`, `true`, `{"type":"object","properties":{"a":{"type":"array"},"b":false}}`, `{"anyOf":[{"type":"string"}]}`} {
			d, err := schema.Compact(schema.ToolSpec{ToolID: "t", InputSchema: json.RawMessage(in)}, schema.Options{})
			Expect(err).NotTo(HaveOccurred(), in)
			Expect(d.OutputFields).To(BeEmpty())
		}
	})
})
