package wireparse_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/internal/wireparse"
	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/internal/junit"
)

func TestWireparse(t *testing.T) { junit.RunSpecs(t, "wireparse", "core-gateway-wireparse") }

var _ = DescribeTable("ResultText reads a content's text as sent, and whether that is all of it",
	func(content string, wantText string, wantWhole bool) {
		n, err := jsonspan.Parse([]byte(content))
		Expect(err).NotTo(HaveOccurred())
		text, whole := wireparse.ResultText(n, "text", "input_text")
		Expect(text).To(Equal(wantText))
		Expect(whole).To(Equal(wantWhole))
	},
	Entry("a string", `"a\nb"`, "a\nb", true),
	Entry("null", `null`, "", true),
	Entry("text parts, joined with nothing", `[{"type":"text","text":"ab"},{"type":"input_text","text":"cd"}]`, "abcd", true),
	Entry("an empty list", `[]`, "", true),
	Entry("an image part: left out, not whole", `[{"type":"text","text":"ab"},{"type":"image","source":{}}]`, "ab", false),
	Entry("a text part whose text is not a string", `[{"type":"text","text":1},{"type":"text","text":"x"}]`, "x", false),
	Entry("a type not asked for", `[{"type":"output_text","text":"ab"}]`, "", false),
)

var _ = Describe("ReadConversation", func() {
	tools := func(root *jsonspan.Node) ([]gateway.ToolOutput, []*jsonspan.Node) {
		var outs []gateway.ToolOutput
		var nodes []*jsonspan.Node
		for i, m := range root.Get("messages").Items() {
			if m.Get("role").Text() == "tool" {
				c := m.Get("content")
				outs = append(outs, gateway.ToolOutput{Index: i, Content: c.Text()})
				nodes = append(nodes, c)
			}
		}
		return outs, nodes
	}

	It("reads the outputs, the last user text and stream in one parse", func() {
		body := []byte(`{"messages":[{"role":"user","content":"first"},{"role":"tool","content":"out"},` +
			`{"role":"user","content":[{"type":"image_url"}]},{"role":"user","content":"last"}],"stream":true}`)
		c, err := wireparse.ReadConversation(body, "test request", gateway.Bounds{}, []byte(`{}`), tools)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Outputs).To(HaveLen(1))
		Expect(c.Outputs[0].Content).To(Equal("out"))
		Expect(c.Query).To(Equal("last"))
		Expect(c.Stream).To(BeTrue())
	})

	It("refuses what is not an object, a body past its bounds, and messages that are not a list", func() {
		_, err := wireparse.ReadConversation([]byte(`[1]`), "test request", gateway.Bounds{}, nil, tools)
		Expect(err).To(MatchError("test request: the body must be a JSON object"))
		_, err = wireparse.ReadConversation([]byte(`{"messages":[[[[1]]]]}`), "test request", gateway.Bounds{MaxNesting: 3}, nil, tools)
		var le *gateway.LimitError
		Expect(err).To(BeAssignableToTypeOf(le))
		_, err = wireparse.ParseMessages([]byte(`{"messages":{}}`), "test request")
		Expect(err).To(MatchError("test request: no messages array"))
	})
})

var _ = DescribeTable("ShadowArg reads the shadow_id of a call's arguments",
	func(args, want string) { Expect(wireparse.ShadowArg([]byte(args))).To(Equal(want)) },
	Entry("present", `{"shadow_id":"shadow_1"}`, "shadow_1"),
	Entry("absent", `{}`, ""),
	Entry("not JSON", `{"shadow_id":`, ""),
	Entry("not a string", `{"shadow_id":1}`, ""),
)
