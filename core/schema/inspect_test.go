package schema_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/schema"
)

func inspect(data []byte, path string, opts schema.InspectOptions) schema.Inspection {
	GinkgoHelper()
	in, err := schema.Inspect(data, "t", path, opts)
	Expect(err).NotTo(HaveOccurred())
	return in
}

var _ = Describe("Inspect", func() {
	orders := load("shop-orders")
	customer := load("customer")

	It("returns the children and a flattened preview of orders[].line_items[]", func() {
		in := inspect(orders, "orders[].line_items[]", schema.InspectOptions{})
		Expect(in.NodeType).To(Equal("object"))
		Expect(in.TotalChildFields).To(Equal(28))
		Expect(in.Children[0]).To(Equal(schema.Child{Name: "id", Type: "integer"}))
		Expect(in.Children).To(ContainElement(schema.Child{Name: "tax_lines", Type: "array of object"}))
		Expect(in.FlattenedFields).To(ContainElement("variant.inventory_item.sku: string|null"))
		Expect(len(in.FlattenedFields)).To(BeNumerically("<=", 120))
	})

	It("lists an array's items' properties as its children, and says which was asked", func() {
		arr := inspect(orders, "orders", schema.InspectOptions{})
		items := inspect(orders, "orders[]", schema.InspectOptions{})
		Expect(arr.NodeType).To(Equal("array"))
		Expect(items.NodeType).To(Equal("object"))
		Expect(arr.Children).To(HaveLen(52))
		Expect(arr.Children).To(Equal(items.Children))
		Expect(arr.FlattenedFields).To(Equal(items.FlattenedFields))
	})

	It("lists the cells' fields as children of an array of arrays, at every level", func() {
		for _, path := range []string{"grid", "grid[]", "grid[][]"} {
			in := inspect(load("array-of-arrays"), path, schema.InspectOptions{})
			Expect(in.Children).To(Equal([]schema.Child{{Name: "x", Type: "integer"}, {Name: "y", Type: "integer"}, {Name: "label", Type: "string"}}), path)
		}
	})

	Describe("truncated", func() {
		It("is false when nothing is cut, even with unknown-keys markers in the preview", func() {
			in := inspect(customer, "", schema.InspectOptions{})
			Expect(in.FlattenedFields).To(ContainElement(`metafields: object (unknown keys; inspect_tool_output(..., field_path="metafields"))`))
			Expect(in.Truncated).To(BeFalse())
		})

		It("is false for a node whose keys are unknown, which has a note instead", func() {
			in := inspect(orders, "orders[].metafields", schema.InspectOptions{})
			Expect(in.Children).To(BeEmpty())
			Expect(in.Note).NotTo(BeEmpty())
			Expect(in.Truncated).To(BeFalse())
		})

		It("is false when max_fields equals what there is", func() {
			in := inspect(customer, "loyalty", schema.InspectOptions{MaxFields: 3})
			Expect(in.Children).To(HaveLen(3))
			Expect(in.FlattenedFields).To(HaveLen(3))
			Expect(in.Truncated).To(BeFalse())
		})

		It("is false for a recursion fold: nothing a cap could show was left out", func() {
			in := inspect(load("ref-cycle"), "root.children[]", schema.InspectOptions{})
			Expect(in.FlattenedFields).To(ContainElement(`children[]: object (contains 4 sub-fields; inspect_tool_output(..., field_path="root.children[].children[]"))`))
			Expect(in.Truncated).To(BeFalse())
		})

		It("is true when max_fields cuts the children", func() {
			in := inspect(customer, "customer", schema.InspectOptions{MaxFields: 4})
			Expect(in.TotalChildFields).To(Equal(12))
			Expect(in.Children).To(HaveLen(4))
			Expect(in.Truncated).To(BeTrue())
		})

		It("is true when max_fields cuts the preview but not the children", func() {
			in := inspect(customer, "recent_orders[]", schema.InspectOptions{MaxFields: 6})
			Expect(in.Children).To(HaveLen(6))
			Expect(in.FlattenedFields).To(HaveLen(6))
			Expect(in.Truncated).To(BeTrue())
		})

		It("is true when max_depth folds a container in the preview", func() {
			in := inspect(customer, "recent_orders[]", schema.InspectOptions{MaxDepth: 1})
			Expect(in.FlattenedFields).To(ContainElement(`line_items[]: object (contains 6 sub-fields; inspect_tool_output(..., field_path="recent_orders[].line_items[]"))`))
			Expect(in.Truncated).To(BeTrue())
		})

		It("is true when max_depth folds, false when it does not, on the same node", func() {
			Expect(inspect(customer, "marketing", schema.InspectOptions{MaxDepth: 1}).Truncated).To(BeTrue())
			Expect(inspect(customer, "marketing", schema.InspectOptions{MaxDepth: 2}).Truncated).To(BeFalse())
		})
	})

	DescribeTable("fails, naming the path segment, when the path does not resolve",
		func(data []byte, path, want string) {
			_, err := schema.Inspect(data, "t", path, schema.InspectOptions{})
			Expect(err).To(MatchError(want))
		},
		Entry("unknown field", orders, "orders[].nope",
			`schema: inspect: field_path "orders[].nope": segment "nope": no field "nope" in "orders[]" (fields: id, admin_graphql_api_id, name, order_number, number, email, contact_email, phone, created_at, updated_at, processed_at, closed_at, cancelled_at, cancel_reason, financial_status, fulfillment_status, confirmed, test, currency, presentment_currency, … 32 more)`),
		Entry("[] on an object", orders, "orders[].customer[]", `schema: inspect: field_path "orders[].customer[]": segment "customer[]": "orders[].customer" is object, not an array`),
		Entry("field of a leaf", orders, "count.value", `schema: inspect: field_path "count.value": segment "value": "count" is integer, which has no fields`),
		Entry("array without []", orders, "orders.id", `schema: inspect: field_path "orders.id": segment "id": "orders" is array, which has no fields (its items' fields are under "orders[].id")`),
		Entry("bad brackets", orders, "orders[0]", `schema: inspect: field_path "orders[0]": segment "orders[0]": brackets must be a trailing [] (e.g. items[])`),
		Entry("empty segment", orders, "orders[]..id", `schema: inspect: field_path "orders[]..id": segment "": empty segment`),
		Entry("into unknown keys", orders, "orders[].metafields.x", `schema: inspect: field_path "orders[].metafields.x": segment "x": "orders[].metafields" declares no fields (unknown keys)`),
		Entry("into an array without items", []byte(field(`{"type":"array"}`)), "f[].x", `schema: inspect: field_path "f[].x": segment "x": "f[]" is any, which has no fields`),
		Entry("[] on the root object", customer, "[]", `schema: inspect: field_path "[]": segment "[]": the root is object, not an array`),
	)

	DescribeTable("fails on a schema with nothing to inspect",
		func(data string, want string) {
			_, err := schema.Inspect([]byte(data), "t", "", schema.InspectOptions{})
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("empty schema", `{}`, "the output schema is empty (any)"),
		Entry("true", `true`, "the output schema is empty (any)"),
		Entry("false", `false`, "the output schema is empty (never)"),
		Entry("empty data", `{"type":"object","properties":{"data":{}}}`, "the output schema is empty (any)"),
		Entry("no bytes", ``, "the tool has no output schema"),
		Entry("JSON null", ` null `, "the tool has no output schema"),
		Entry("invalid JSON", `{"type":`, "output schema: invalid JSON at byte 8: unexpected end of input"),
	)

	It("walks root arrays", func() {
		in := inspect(load("root-array"), "[]", schema.InspectOptions{})
		Expect(in.TotalChildFields).To(Equal(3))
		Expect(inspect(load("root-array"), "", schema.InspectOptions{}).NodeType).To(Equal("array"))
	})
})
