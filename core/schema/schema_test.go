package schema_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/schema"
)

func load(name string) []byte {
	data, err := os.ReadFile("../../scenarios/schema/data/" + name + ".json")
	Expect(err).NotTo(HaveOccurred())
	return data
}

func summarize(data []byte) schema.Summary {
	GinkgoHelper()
	s, err := schema.Summarize(data, schema.Options{})
	Expect(err).NotTo(HaveOccurred())
	return s
}

var _ = Describe("Tier-1 regex", func() {
	It("is the spec's text with its Markdown-doubled backslashes undone", func() {
		Expect(strings.ReplaceAll(schema.Tier1RegexSpec, `\\`, `\`)).To(Equal(schema.Tier1Regex))
	})

	DescribeTable("matches the last segment of a path",
		func(path string, want bool) { Expect(schema.IsTier1(path)).To(Equal(want)) },
		Entry("id", "id", true),
		Entry("nested id", "customer.id", true),
		Entry("array item id", "orders[].id", true),
		Entry("suffix _id", "orders[].line_items[].variant_id", true),
		Entry("email", "customer.email", true),
		Entry("status", "fulfillments[].status", true),
		Entry("price", "line_items[].price", true),
		Entry("not a suffix", "financial_status", false),
		Entry("created_at is not created", "created_at", false),
		Entry("identity", "identity", false),
		Entry("sku", "line_items[].sku", false),
	)
})

var _ = Describe("Summarize", func() {
	It("lists every leaf of a small schema, with has_hidden_fields false", func() {
		s := summarize(load("small-fits"))
		Expect(s.HasHiddenFields).To(BeFalse())
		Expect(s.OutputFields).To(Equal([]string{"id: string", "name: string", "created: string", "tags[]: string", "score: number",
			"owner.id: string", "owner.email: string"}))
	})

	It("folds the 416-leaf order list into 30 lines: root fields and markers, then Tier 1", func() {
		s := summarize(load("shop-orders"))
		Expect(s.HasHiddenFields).To(BeTrue())
		Expect(s.OutputFields).To(HaveLen(30))
		Expect(s.OutputFields[0]).To(Equal(`orders[]: object (contains 52 sub-fields; inspect_tool_output(..., field_path="orders[]"))`))
		Expect(s.OutputFields[1]).To(Equal(`page_info: object (contains 2 sub-fields; inspect_tool_output(..., field_path="page_info"))`))
		Expect(s.OutputFields).To(ContainElement("orders[].line_items[].variant_id: integer|null"))
	})

	It("marks containers cut by the depth limit instead of hiding them", func() {
		s := summarize(load("depth-limited"))
		Expect(s.OutputFields).To(Equal([]string{"id: string", `a.b.c: object (contains 1 sub-fields; inspect_tool_output(..., field_path="a.b.c"))`}))
		Expect(s.HasHiddenFields).To(BeTrue())
	})

	It("stays within 30 lines for 40 root fields, keeping the Tier-1 one, with an overflow marker", func() {
		s := summarize(load("many-root-fields"))
		Expect(s.OutputFields).To(HaveLen(30))
		Expect(s.OutputFields).To(ContainElement("order_id: string"))
		Expect(s.OutputFields[29]).To(Equal(`* (+12 more fields; inspect_tool_output(..., field_path=""))`))
	})

	It("stays bounded on a recursive schema", func() {
		s := summarize(load("ref-cycle"))
		Expect(s.OutputFields).To(ContainElement(`root.children[]: object (contains 4 sub-fields; inspect_tool_output(..., field_path="root.children[]"))`))
		Expect(s.HasHiddenFields).To(BeTrue())
	})

	It("reports a bad schema with its byte offset", func() {
		_, err := schema.Summarize([]byte(`{"type": "object", "properties": {`), schema.Options{})
		Expect(err).To(MatchError(HavePrefix("schema: invalid JSON at byte ")))
	})

	It("holds its invariants on random schemas: at most 30 lines, every Tier-1 leaf that fits, hidden iff marked, deterministic", func() {
		for seed := range uint64(300) {
			rng := rand.New(rand.NewPCG(seed, 7))
			data, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"data": randomObject(rng, 0)}})
			s := summarize(data)
			Expect(len(s.OutputFields)).To(BeNumerically("<=", 30), "seed %d", seed)
			marked := false
			for _, l := range s.OutputFields {
				marked = marked || strings.Contains(l, "inspect_tool_output(")
			}
			Expect(s.HasHiddenFields).To(Equal(marked), "seed %d: %v", seed, s.OutputFields)
			again := summarize(data)
			Expect(again).To(Equal(s))
			if !s.HasHiddenFields { // everything is listed, so every Tier-1 leaf is
				for _, p := range leafPaths(data) {
					if schema.IsTier1(p) {
						Expect(strings.Join(s.OutputFields, "\n")).To(ContainSubstring(p+": "), "seed %d", seed)
					}
				}
			}
		}
	})
})

var names = []string{"id", "name", "status", "amount", "note", "owner_id", "size", "kind", "email", "label", "url", "count", "meta"}

func randomObject(rng *rand.Rand, depth int) map[string]any {
	props := map[string]any{}
	n := 1 + rng.IntN(6)
	if depth == 0 {
		n = 1 + rng.IntN(12)
	}
	for i := range n {
		name := fmt.Sprintf("%s%d", names[rng.IntN(len(names))], i)
		if rng.IntN(3) == 0 {
			name = names[rng.IntN(len(names))]
		}
		switch r := rng.IntN(10); {
		case depth < 4 && r < 3:
			props[name] = map[string]any{"type": "object", "properties": randomObject(rng, depth+1)}
		case depth < 4 && r < 5:
			props[name] = map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": randomObject(rng, depth+1)}}
		case r == 5:
			props[name] = map[string]any{"type": "object", "additionalProperties": true}
		default:
			props[name] = map[string]any{"type": []string{"string", "integer", "boolean"}[rng.IntN(3)]}
		}
	}
	return props
}

// leafPaths lists the leaf paths of a generated schema (no refs, unions).
func leafPaths(data []byte) []string {
	var root map[string]any
	Expect(json.Unmarshal(data, &root)).To(Succeed())
	var out []string
	var walk func(path string, s map[string]any)
	walk = func(path string, s map[string]any) {
		switch {
		case s["type"] == "array":
			walk(path+"[]", s["items"].(map[string]any))
		case s["properties"] != nil:
			for k, v := range s["properties"].(map[string]any) {
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(p, v.(map[string]any))
			}
		case s["type"] != "object":
			out = append(out, path)
		}
	}
	walk("", root["properties"].(map[string]any)["data"].(map[string]any))
	return out
}

var _ = Describe("Inspect", func() {
	orders := load("shop-orders")

	It("returns the children and a flattened preview of orders[].line_items[]", func() {
		in, err := schema.Inspect(orders, "shopify.get_orders", "orders[].line_items[]", schema.InspectOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(in.NodeType).To(Equal("object"))
		Expect(in.TotalChildFields).To(Equal(28))
		Expect(in.Children[0]).To(Equal(schema.Child{Name: "id", Type: "integer"}))
		Expect(in.Children).To(ContainElement(schema.Child{Name: "tax_lines", Type: "array of object"}))
		Expect(in.FlattenedFields).To(ContainElement("variant.inventory_item.sku: string|null"))
		Expect(len(in.FlattenedFields)).To(BeNumerically("<=", 120))
	})

	It("treats the array and its items alike for children, and says which was asked", func() {
		arr, err := schema.Inspect(orders, "t", "orders", schema.InspectOptions{})
		Expect(err).NotTo(HaveOccurred())
		items, err := schema.Inspect(orders, "t", "orders[]", schema.InspectOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(arr.NodeType).To(Equal("array"))
		Expect(items.NodeType).To(Equal("object"))
		Expect(arr.Children).To(Equal(items.Children))
	})

	It("truncates at max_fields and marks containers past max_depth", func() {
		in, err := schema.Inspect(orders, "t", "orders[]", schema.InspectOptions{MaxFields: 10, MaxDepth: 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(in.Children).To(HaveLen(10))
		Expect(in.FlattenedFields).To(HaveLen(10))
		Expect(in.Truncated).To(BeTrue())
	})

	DescribeTable("names the path in its errors",
		func(path, want string) {
			_, err := schema.Inspect(orders, "t", path, schema.InspectOptions{})
			Expect(err).To(MatchError(want))
		},
		Entry("unknown field", "orders[].nope",
			`schema: inspect: bad field path: field_path "orders[].nope": no field "nope" in "orders[]" (fields: id, admin_graphql_api_id, name, order_number, number, email, contact_email, phone, created_at, updated_at, processed_at, closed_at, cancelled_at, cancel_reason, financial_status, fulfillment_status, confirmed, test, currency, presentment_currency, … 32 more)`),
		Entry("[] on an object", "orders[].customer[]", `schema: inspect: bad field path: field_path "orders[].customer[]": "orders[].customer" is object, not an array`),
		Entry("field of a leaf", "count.value", `schema: inspect: bad field path: field_path "count.value": "count" is integer, which has no field "value"`),
		Entry("array without []", "orders.id", `schema: inspect: bad field path: field_path "orders.id": "orders" is array, which has no field "id"`),
		Entry("bad brackets", "orders[0]", `schema: inspect: bad field path: field_path "orders[0]": segment "orders[0]": brackets must be a trailing [] (e.g. items[])`),
		Entry("empty segment", "orders[]..id", `schema: inspect: bad field path: field_path "orders[]..id": empty segment`),
	)

	It("walks arrays of arrays and root arrays", func() {
		in, err := schema.Inspect(load("array-of-arrays"), "t", "grid[][]", schema.InspectOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(in.FlattenedFields).To(Equal([]string{"x: integer", "y: integer", "label: string"}))
		in, err = schema.Inspect(load("root-array"), "t", "[]", schema.InspectOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(in.TotalChildFields).To(Equal(3))
	})
})

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
})
