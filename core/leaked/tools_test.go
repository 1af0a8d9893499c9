package leaked_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/leaked"
)

var _ = Describe("ParseTools", func() {
	parse := func(data string) leaked.Tools {
		GinkgoHelper()
		t, err := leaked.ParseTools([]byte(data))
		Expect(err).NotTo(HaveOccurred())
		return t
	}

	DescribeTable("reads each wire's shape",
		func(data string) {
			t := parse(data)
			Expect(t.Len()).To(Equal(1))
			Expect(t.Declares("get_weather")).To(BeTrue())
			Expect(t.Type("get_weather", "days")).To(Equal("integer"))
			Expect(t.Type("get_weather", "city")).To(Equal("string"))
			Expect(t.Type("get_weather", "other")).To(Equal(""))
			Expect(t.Type("other", "days")).To(Equal(""))
		},
		Entry("OpenAI Chat Completions",
			`[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}}}}}]`),
		Entry("Responses",
			`[{"type":"function","name":"get_weather","parameters":{"properties":{"city":{"type":"string"},"days":{"type":"integer"}}}}]`),
		Entry("Anthropic",
			`[{"name":"get_weather","description":"d","input_schema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}}}}]`),
		Entry("MCP",
			`[{"name":"get_weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}}}}]`),
		Entry("a request body with tools",
			`{"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"properties":{"city":{"type":"string"},"days":{"type":"integer"}}}}}]}`),
		Entry("white space around, and a type in upper case",
			" \n[{\"name\":\"get_weather\",\"input_schema\":{\"properties\":{\"city\":{\"type\":\"String\"},\"days\":{\"type\":\" integer \"}}}}]\n"),
	)

	DescribeTable("types from lists and alternatives",
		func(schema, want string) {
			t := parse(`[{"name":"t","input_schema":{"properties":{"p":` + schema + `}}}]`)
			Expect(t.Type("t", "p")).To(Equal(want))
		},
		Entry("one type besides null", `{"type":["integer","null"]}`, "integer"),
		Entry("null first", `{"type":["null","object"]}`, "object"),
		Entry("two types: untyped", `{"type":["string","integer"]}`, ""),
		Entry("anyOf with null (an Optional[int] of Pydantic)", `{"anyOf":[{"type":"integer"},{"type":"null"}]}`, "integer"),
		Entry("oneOf of two types: untyped", `{"oneOf":[{"type":"string"},{"type":"array"}]}`, ""),
		Entry("an alternative without a type: untyped", `{"anyOf":[{"type":"integer"},{"$ref":"#/x"}]}`, ""),
		Entry("no type: untyped", `{"description":"d"}`, ""),
		Entry("a schema that is not an object: untyped, the others kept", `true`, ""),
		Entry("only null", `{"type":"null"}`, "null"),
	)

	It("keeps the other properties beside one it cannot read", func() {
		t := parse(`[{"name":"t","input_schema":{"properties":{"a":true,"b":{"type":"number"}}}}]`)
		Expect(t.Type("t", "b")).To(Equal("number"))
	})

	It("declares a tool without parameters, and skips entries that are not tools", func() {
		t := parse(`[{"name":"get_time"},{"type":"function","function":{"name":"now","parameters":null}},{"description":"no name"},{"name":"  "},1,"x",{"function":"str"}]`)
		Expect(t.Len()).To(Equal(2))
		Expect(t.Declares("get_time")).To(BeTrue())
		Expect(t.Declares("now")).To(BeTrue())
		Expect(t.Declares("no name")).To(BeFalse())
	})

	It("takes an empty list as no list", func() {
		for _, data := range []string{`[]`, `{"tools":[]}`, `[{"no":"name"}]`} {
			t := parse(data)
			Expect(t.Len()).To(BeZero())
			Expect(t).To(Equal(leaked.Tools{}), data)
		}
	})

	DescribeTable("a bad list is an error with its byte offset",
		func(data string, offset int64, msg string) {
			_, err := leaked.ParseTools([]byte(data))
			var te *leaked.ToolsError
			Expect(errors.As(err, &te)).To(BeTrue(), "%v", err)
			Expect(te.Offset).To(Equal(offset))
			Expect(err.Error()).To(HavePrefix("leaked: parse tools: byte "))
			Expect(te.Msg).To(ContainSubstring(msg))
		},
		Entry("bad JSON: the offending byte is the offset-th", `[{"name":"a",}]`, int64(14), "invalid JSON: invalid character '}'"),
		Entry("cut short", `[{"name":"a"`, int64(12), "invalid JSON: unexpected end of JSON input"),
		Entry("empty", ``, int64(0), "invalid JSON: unexpected end of JSON input"),
		Entry("a string", `  "tools"`, int64(2), `want a JSON array of tools or an object with a "tools" array`),
		Entry("an object without tools", `{"name":"a"}`, int64(0), `the object has no "tools"`),
		Entry("tools that are not an array", `{"tools": {"name":"a"}}`, int64(11), `"tools" is not an array`),
	)
})
