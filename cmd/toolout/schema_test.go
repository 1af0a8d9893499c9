package main

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("toolout schema", func() {
	const orders = "../../scenarios/schema/data/shop-orders.json"

	It("summarizes into output_fields and has_hidden_fields", func() {
		code, stdout, stderr := invoke("", "schema", "summarize", orders, "--max-fields", "5")
		Expect(stderr).To(BeEmpty())
		Expect(code).To(Equal(0))
		var s struct {
			OutputFields    []string `json:"output_fields"`
			HasHiddenFields bool     `json:"has_hidden_fields"`
		}
		Expect(json.Unmarshal([]byte(stdout), &s)).To(Succeed())
		Expect(s.OutputFields).To(HaveLen(5))
		Expect(s.HasHiddenFields).To(BeTrue())
	})

	It("inspects a field path", func() {
		code, stdout, _ := invoke("", "schema", "inspect", "--tool-id", "shopify.get_orders", "--field-path", "orders[].customer.default_address", orders)
		Expect(code).To(Equal(0))
		var in map[string]any
		Expect(json.Unmarshal([]byte(stdout), &in)).To(Succeed())
		Expect(in["tool_id"]).To(Equal("shopify.get_orders"))
		Expect(in["node_type"]).To(Equal("object"))
		Expect(in["total_child_fields"]).To(BeEquivalentTo(15))
		Expect(in).To(HaveKey("flattened_fields"))
		Expect(in).To(HaveKey("truncated"))
	})

	It("summarizes a tiny schema that panicked before, and lists its root keys", func() {
		code, stdout, stderr := invoke(`{"type":"object","properties":{"a":{"type":"array"},"b":{"properties":{"id":{"type":"string"}}}}}`, "schema", "summarize")
		Expect(stderr).To(BeEmpty())
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal(`{"output_fields":["a[]: any","b: object","b.id: string"],"has_hidden_fields":false}` + "\n"))
	})

	DescribeTable("rejects bad input in one line",
		func(stdin string, args []string, want string) {
			code, stdout, stderr := invoke(stdin, append([]string{"schema"}, args...)...)
			Expect(code).To(Equal(2))
			Expect(stdout).To(BeEmpty())
			Expect(stderr).To(Equal(want))
		},
		Entry("no subcommand", "", []string{}, "toolout schema: want a subcommand: summarize or inspect\n"),
		Entry("invalid JSON", `{"type":`, []string{"summarize"}, "toolout schema summarize: <stdin>: schema: invalid JSON at byte 8: unexpected end of input\n"),
		Entry("3,000,000 [", strings.Repeat("[", 3_000_000), []string{"summarize"}, "toolout schema summarize: <stdin>: schema: nesting deeper than 10000 levels at byte 10000\n"),
		Entry("no tool id", "{}", []string{"inspect"}, "toolout schema inspect: --tool-id is required; --max-depth and --max-fields must be at least 1\n"),
		Entry("unknown field", `{"type":"object","properties":{"a":{"type":"string"}}}`, []string{"inspect", "--tool-id", "t", "--field-path", "b"},
			"toolout schema inspect: <stdin>: tool \"t\": field_path \"b\": segment \"b\": no field \"b\" in the root (fields: a)\n"),
		Entry("path through a leaf", `{"type":"object","properties":{"a":{"type":"string"}}}`, []string{"inspect", "--tool-id", "t", "--field-path", "a.x"},
			"toolout schema inspect: <stdin>: tool \"t\": field_path \"a.x\": segment \"x\": \"a\" is string, which has no fields\n"),
		Entry("empty schema", `{}`, []string{"inspect", "--tool-id", "t"},
			"toolout schema inspect: <stdin>: tool \"t\": the output schema is empty (any): it declares no type and no fields\n"),
		Entry("no output schema", "", []string{"inspect", "--tool-id", "t"},
			"toolout schema inspect: <stdin>: tool \"t\": the tool has no output schema\n"),
		Entry("deep nesting", strings.Repeat("[", 3_000_000), []string{"inspect", "--tool-id", "t"},
			"toolout schema inspect: <stdin>: tool \"t\": output schema: nesting deeper than 10000 levels at byte 10000\n"),
	)
})
