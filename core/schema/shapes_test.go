package schema_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/schema"
)

// field wraps the schema of one field f in an object root.
func field(s string) string { return fmt.Sprintf(`{"type":"object","properties":{"f":%s}}`, s) }

const obj1 = `{"type":"object","properties":{"a":{"type":"string"}}}`

// Every shape the issue lists, and every other one we could think of, gets
// a defined summary and never a panic. The first group are the shapes that
// panicked before (a nil items node).
// When nothing is hidden, only the leaves have lines: a container's
// leaves' paths show it, so there is no "f: object" or "f: union"
// line.
var _ = DescribeTable("Summarize on every shape",
	func(schemaJSON string, want []string, hidden bool) {
		s, err := schema.Summarize([]byte(schemaJSON), schema.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.OutputFields).To(Equal(want))
		Expect(s.HasHiddenFields).To(Equal(hidden))
	},
	func(schemaJSON string, _ []string, _ bool) string { return schemaJSON },
	// Panicked with a nil-pointer dereference before.
	Entry(nil, field(`{"type":"array"}`), []string{"f[]: any"}, false),
	Entry(nil, `{"type":"array"}`, []string{"[]: any"}, false),
	Entry(nil, field(`{"type":"array","items":{"type":"array"}}`), []string{"f[][]: any"}, false),
	Entry(nil, field(`{"type":"array","items":3}`), []string{"f[]: any"}, false),
	Entry(nil, field(`{"type":"array","items":"x"}`), []string{"f[]: any"}, false),
	// List-valued type.
	Entry(nil, field(`{"type":["string","null"]}`), []string{"f: string|null"}, false),
	Entry(nil, field(`{"type":["integer","string"]}`), []string{"f: integer|string"}, false),
	Entry(nil, field(`{"type":["integer","number"]}`), []string{"f: number"}, false),
	Entry(nil, field(`{"type":["object","array"],"properties":{"a":{"type":"string"}},"items":{"type":"string"}}`), []string{"f.a: string"}, false),
	Entry(nil, field(`{"type":["object","null"],"properties":{"a":{"type":"string"}}}`), []string{"f.a: string"}, false),
	Entry(nil, field(`{"type":["array","null"],"items":{"type":"string"}}`), []string{"f[]: string"}, false),
	Entry(nil, field(`{"type":[]}`), []string{"f: any"}, false),
	Entry(nil, field(`{"type":["null"]}`), []string{"f: null"}, false),
	Entry(nil, field(`{"type":5}`), []string{"f: any"}, false),
	Entry(nil, field(`{"type":"bogus type!"}`), []string{"f: any"}, false),
	Entry(nil, field(`{"type":"date"}`), []string{"f: date"}, false),
	// enum and const without type.
	Entry(nil, field(`{"enum":["x","y"]}`), []string{"f: string"}, false),
	Entry(nil, field(`{"enum":["x",1,null]}`), []string{"f: string|integer|null"}, false),
	Entry(nil, field(`{"enum":[1,2.5]}`), []string{"f: number"}, false),
	Entry(nil, field(`{"enum":[]}`), []string{"f: never"}, false),
	Entry(nil, field(`{"enum":"x"}`), []string{"f: any"}, false),
	Entry(nil, field(`{"const":5}`), []string{"f: integer"}, false),
	Entry(nil, field(`{"const":{"a":1}}`), []string{"f: object (unknown keys; inspect_tool_output(..., field_path=\"f\"))"}, true),
	// anyOf / oneOf.
	Entry(nil, field(`{"anyOf":[{"type":"string"},{"type":"integer"}]}`), []string{"f: string|integer"}, false),
	Entry(nil, field(`{"anyOf":[{"type":"string"},{"type":"null"}]}`), []string{"f: string|null"}, false),
	Entry(nil, field(`{"anyOf":[`+obj1+`,{"type":"null"}]}`), []string{"f.a: string"}, false),
	Entry(nil, field(`{"oneOf":[`+obj1+`,{"properties":{"b":{"type":"string"},"a":{"type":"integer"}}}]}`), []string{"f.a: string", "f.b: string"}, false),
	Entry(nil, field(`{"anyOf":[{"type":"string"},`+obj1+`]}`), []string{"f.a: string"}, false),
	Entry(nil, field(`{"anyOf":[{"type":"string"},{}]}`), []string{"f: any"}, false),
	Entry(nil, field(`{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"}]}`), []string{"f: array|string"}, false),
	Entry(nil, field(`{"anyOf":[{"type":"null"}]}`), []string{"f: null"}, false),
	Entry(nil, field(`{"anyOf":[]}`), []string{"f: any"}, false),
	Entry(nil, field(`{"anyOf":{}}`), []string{"f: any"}, false),
	Entry(nil, field(`{"anyOf":[false]}`), []string{"f: never"}, false),
	Entry(nil, field(`{"anyOf":[true,false,{"type":"null"}]}`), []string{"f: any"}, false),
	Entry(nil, field(`{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"properties":{"b":{"type":"integer"}}},{"properties":{"c":{"type":"integer"}}}]}`),
		[]string{"f.a: string", "f.b: integer", "f.c: integer"}, false),
	// Arrays.
	Entry(nil, field(`{"type":"array","items":{"properties":{"x":{"type":"string"}}}}`), []string{"f[].x: string"}, false),
	Entry(nil, field(`{"type":"array","items":{"type":"array","items":{"type":"integer"}}}`), []string{"f[][]: integer"}, false),
	Entry(nil, field(`{"type":"array","items":{"type":"array","items":`+obj1+`}}`), []string{"f[][].a: string"}, false),
	Entry(nil, field(`{"type":"array","items":true}`), []string{"f[]: any"}, false),
	Entry(nil, field(`{"type":"array","items":false}`), []string{"f[]: never"}, false),
	Entry(nil, field(`{"type":"array","items":{}}`), []string{"f[]: any"}, false),
	Entry(nil, field(`{"type":"array","prefixItems":[{"type":"integer"},{"type":"string"}]}`), []string{"f[]: integer"}, false),
	Entry(nil, field(`{"type":"array","items":[{"type":"boolean"}]}`), []string{"f[]: boolean"}, false),
	Entry(nil, field(`{"type":"array","items":[]}`), []string{"f[]: any"}, false),
	Entry(nil, field(`{"items":{"type":"string"}}`), []string{"f[]: string"}, false),
	Entry(nil, `{"type":"array","items":{"type":"array","items":{"type":"string"}}}`, []string{"[][]: string"}, false),
	// Objects.
	Entry(nil, field(`{"properties":{"a":{"type":"string"}}}`), []string{"f.a: string"}, false),
	Entry(nil, field(`{"type":"object"}`), []string{`f: object (unknown keys; inspect_tool_output(..., field_path="f"))`}, true),
	Entry(nil, field(`{"type":"object","additionalProperties":{"type":"string"}}`), []string{`f: object (unknown keys; inspect_tool_output(..., field_path="f"))`}, true),
	Entry(nil, field(`{"type":"object","patternProperties":{"^x":{}},"additionalProperties":false}`), []string{`f: object (unknown keys; inspect_tool_output(..., field_path="f"))`}, true),
	Entry(nil, field(`{"type":"object","additionalProperties":false}`), []string{"f: object"}, false),
	Entry(nil, field(`{"type":"object","properties":[]}`), []string{`f: object (unknown keys; inspect_tool_output(..., field_path="f"))`}, true),
	Entry(nil, field(`{"type":"object","nullable":true,"properties":{"a":{"type":"string"}}}`), []string{"f.a: string"}, false),
	Entry(nil, field(`{"type":"string","nullable":true}`), []string{"f: string|null"}, false),
	Entry(nil, `{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}}}`, []string{"a: integer"}, false),
	// Boolean schemas and values that are not schemas.
	Entry(nil, field(`true`), []string{"f: any"}, false),
	Entry(nil, field(`false`), []string{"f: never"}, false),
	Entry(nil, field(`3`), []string{"f: any"}, false),
	Entry(nil, field(`"string"`), []string{"f: any"}, false),
	Entry(nil, field(`null`), []string{"f: any"}, false),
	Entry(nil, field(`[]`), []string{"f: any"}, false),
	Entry(nil, `{}`, []string{".: any"}, false),
	Entry(nil, `true`, []string{".: any"}, false),
	Entry(nil, `false`, []string{".: never"}, false),
	Entry(nil, `[1,2]`, []string{".: any"}, false),
	Entry(nil, `"x"`, []string{".: any"}, false),
	// A root with unknown keys is named "data", the envelope's field (REFERENCE).
	Entry(nil, `{"type":"object"}`, []string{`data: object (unknown keys; inspect_tool_output(..., field_path=""))`}, true),
	Entry(nil, `{"type":"object","properties":{"data":{"type":"object","additionalProperties":true}}}`, []string{`data: object (unknown keys; inspect_tool_output(..., field_path=""))`}, true),
	Entry(nil, `{"additionalProperties":{"type":"integer"}}`, []string{`data: object (unknown keys; inspect_tool_output(..., field_path=""))`}, true),
	Entry(nil, `{"type":"object","properties":{"data":{}}}`, []string{".: any"}, false),
	// allOf.
	Entry(nil, field(`{"allOf":[{"type":"string"},{"minLength":1}]}`), []string{"f: string"}, false),
	Entry(nil, field(`{"allOf":[{"properties":{"a":{"type":"string"}}},{"properties":{"b":{"type":"string"}}}],"properties":{"c":{"type":"string"}}}`),
		[]string{"f.c: string", "f.a: string", "f.b: string"}, false),
	Entry(nil, field(`{"allOf":[false,{"type":"string"}]}`), []string{"f: never"}, false),
	Entry(nil, field(`{"allOf":"x","type":"integer"}`), []string{"f: integer"}, false),
	Entry(nil, `{"$defs":{"A":{"allOf":[{"$ref":"#/$defs/A"},{"properties":{"q":{"type":"string"}}}]}},"properties":{"f":{"$ref":"#/$defs/A"}}}`,
		[]string{"f.q: string"}, false),
	// $ref.
	Entry(nil, field(`{"$ref":"#/nope"}`), []string{"f: any"}, false),
	Entry(nil, field(`{"$ref":"other.json#/x"}`), []string{"f: any"}, false),
	Entry(nil, field(`{"$ref":"#nope"}`), []string{"f: any"}, false),
	Entry(nil, field(`{"$ref":5,"type":"string"}`), []string{"f: string"}, false),
	Entry(nil, `{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/C"},"C":{"type":"string"}},"properties":{"f":{"$ref":"#/$defs/A"}}}`, []string{"f: string"}, false),
	Entry(nil, `{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}},"properties":{"f":{"$ref":"#/$defs/A"}}}`, []string{"f: any"}, false),
	Entry(nil, `{"$defs":{"l":[{"type":"boolean"},{"type":"integer"}]},"properties":{"f":{"$ref":"#/$defs/l/1"}}}`, []string{"f: integer"}, false),
	Entry(nil, `{"$defs":{"a/b":{"type":"boolean"},"c~d":{"type":"integer"}},"properties":{"f":{"$ref":"#/$defs/a~1b"},"g":{"$ref":"#/$defs/c~0d"}}}`, []string{"f: boolean", "g: integer"}, false),
	Entry(nil, `{"$defs":{"A":{"type":"array","items":{"$ref":"#/$defs/A"}}},"properties":{"f":{"$ref":"#/$defs/A"}}}`, []string{"f[]: array"}, false),
	Entry(nil, `{"type":"object","properties":{"id":{"type":"string"},"self":{"$ref":"#"}}}`,
		[]string{"id: string", `self: object (contains 2 sub-fields; inspect_tool_output(..., field_path="self"))`}, true),
	Entry(nil, `{"type":"object","properties":{"id":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#"}}}}`,
		[]string{"id: string", `kids[]: object (contains 2 sub-fields; inspect_tool_output(..., field_path="kids[]"))`}, true),
)

var _ = DescribeTable("Inspect on every shape",
	func(schemaJSON, path, nodeType string, children []schema.Child, note bool) {
		in, err := schema.Inspect([]byte(schemaJSON), "t", path, schema.InspectOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(in.NodeType).To(Equal(nodeType))
		Expect(in.Children).To(Equal(children))
		Expect(in.Note != "").To(Equal(note))
		Expect(in.Truncated).To(BeFalse())
	},
	func(schemaJSON, path string, _ string, _ []schema.Child, _ bool) string {
		return path + " of " + schemaJSON
	},
	Entry(nil, field(`{"type":"array"}`), "f", "array", []schema.Child{}, true),
	Entry(nil, field(`{"type":"array"}`), "f[]", "any", []schema.Child{}, true),
	Entry(nil, field(`{"type":"array","items":{"type":"array","items":`+obj1+`}}`), "f", "array", []schema.Child{{Name: "a", Type: "string"}}, false),
	Entry(nil, field(`{"type":"array","items":{"type":"array","items":`+obj1+`}}`), "f[]", "array", []schema.Child{{Name: "a", Type: "string"}}, false),
	Entry(nil, field(`{"type":"array","items":{"type":"array","items":`+obj1+`}}`), "f[][]", "object", []schema.Child{{Name: "a", Type: "string"}}, false),
	Entry(nil, field(`{"anyOf":[{"type":"string"},`+obj1+`]}`), "f", "union", []schema.Child{{Name: "a", Type: "string"}}, false),
	Entry(nil, field(`{"type":["array","null"],"items":`+obj1+`}`), "f[]", "object", []schema.Child{{Name: "a", Type: "string"}}, false),
	Entry(nil, field(`{"type":"string"}`), "f", "string", []schema.Child{}, false),
	Entry(nil, field(`{}`), "f", "any", []schema.Child{}, true),
	Entry(nil, field(`{"type":"object"}`), "f", "object", []schema.Child{}, true),
	Entry(nil, field(`{"type":"object","additionalProperties":false}`), "f", "object", []schema.Child{}, false),
	Entry(nil, `{"type":"object","properties":{"m":{"type":"array","items":{"type":"array","items":{"type":"number"}}}}}`, "",
		"object", []schema.Child{{Name: "m", Type: "array of array of number"}}, false),
)
