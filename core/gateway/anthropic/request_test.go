package anthropic_test

import (
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
)

var _ = Describe("DecodeRequest", func() {
	tag := core.Tag{Site: core.SiteGatewayUpstream, Turn: 2}

	It("maps a recorded agent request: system blocks, tool_use, tool_result (string and blocks), tools, max_tokens, stream", func() {
		req, stream, err := anthropic.DecodeRequest(fixture("request.json"), tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(stream).To(BeTrue())
		Expect(req.Tag).To(Equal(tag))
		Expect(req.MaxOutputTokens).To(Equal(32000))
		Expect(req.Messages).To(HaveLen(6))
		Expect(req.Messages[0]).To(Equal(core.Message{Role: core.RoleSystem,
			Content: "You are a coding agent working in /repo.\nUse the tools to inspect files before editing them."}))
		Expect(req.Messages[1]).To(Equal(core.Message{Role: core.RoleUser, Content: "Why does the pool test fail?"}))
		asst := req.Messages[2]
		Expect(asst.Role).To(Equal(core.RoleAssistant))
		Expect(asst.Content).To(Equal("Let me run it."))
		Expect(asst.ToolCalls).To(HaveLen(2))
		Expect(asst.ToolCalls[0].ID).To(Equal("toolu_01VCZoWBnxPqWmuxA1sY2d8t"))
		Expect(asst.ToolCalls[0].Name).To(Equal("Bash"))
		Expect(string(asst.ToolCalls[0].Arguments)).To(Equal(`{"command":"go test ./internal/db/"}`))
		Expect(req.Messages[3]).To(Equal(core.Message{Role: core.RoleTool, ToolCallID: "toolu_01VCZoWBnxPqWmuxA1sY2d8t", Name: "Bash",
			Content: "--- FAIL: TestPool/reconnect (3.01s)\n    pool_test.go:88: dial tcp 10.0.3.9:5432: connect: connection refused\nFAIL"}))
		Expect(req.Messages[4]).To(Equal(core.Message{Role: core.RoleTool, ToolCallID: "toolu_01NRLabsLyVHZPKxbKvkfSMn", Name: "Read",
			Content: "File does not exist."}))
		Expect(req.Messages[5]).To(Equal(core.Message{Role: core.RoleUser, Content: "Also check the retry settings."}))
		Expect(req.Tools).To(HaveLen(3))
		Expect(req.Tools[0].Name).To(Equal("Bash"))
		Expect(req.Tools[0].Description).To(Equal("Runs a shell command and returns its output."))
		Expect(string(req.Tools[0].InputSchema)).To(HavePrefix(`{"type":"object","properties":{"command":`))
		Expect(req.Tools[1].Name).To(Equal("Read"))
		Expect(req.Tools[2]).To(Equal(core.Tool{Name: "web_search"}))
	})

	It("maps Claude Code's request: a role \"system\" message inside messages is a system message in its place, thinking, context_management, output_config, metadata and cache_control accepted", func() {
		req, stream, err := anthropic.DecodeRequest(fixture("claude-code/turn2.json"), tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(stream).To(BeTrue())
		Expect(req.MaxOutputTokens).To(Equal(128000))
		var roles []core.Role
		for _, m := range req.Messages {
			roles = append(roles, m.Role)
		}
		Expect(roles).To(Equal([]core.Role{core.RoleSystem, core.RoleUser, core.RoleSystem, core.RoleAssistant, core.RoleTool}))
		Expect(req.Messages[0].Content).To(HavePrefix("x-anthropic-billing-header: cc_version=2.1.332"), "the system blocks, joined by \"\\n\"")
		Expect(req.Messages[0].Content).To(ContainSubstring("\nYou are a Claude agent, built on Anthropic's Claude Agent SDK.\n"))
		Expect(req.Messages[1].Content).To(HaveSuffix("</system-reminder>\n\nHow many build steps are there? Use bash."))
		Expect(req.Messages[2].Content).To(HavePrefix("# Environment\nYou have been invoked in the following environment: \n"))
		Expect(req.Messages[3].ToolCalls).To(HaveLen(1))
		Expect(req.Messages[3].ToolCalls[0].Name).To(Equal("Bash"))
		Expect(req.Messages[4].Name).To(Equal("Bash"))
		Expect(req.Messages[4].Content).To(HavePrefix("build step 1\nbuild step 2\n"))
		Expect(req.Messages[4].Content).To(HaveLen(22892))
		var names []string
		for _, t := range req.Tools {
			names = append(names, t.Name)
		}
		Expect(names).To(Equal([]string{"Bash", "Read", "ToolSearch", "DeferredToolPlaceholder"}))
	})

	It("reads a system message's text blocks as the top-level system's (joined by \"\\n\", cache_control ignored), and leaves an empty one out", func() {
		req, _, err := anthropic.DecodeRequest(fixture("claude-code/turn1.json"), tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(req.Messages).To(HaveLen(3))
		Expect(req.Messages[2].Role).To(Equal(core.RoleSystem))
		Expect(req.Messages[2].Content).To(HavePrefix("# Environment\n"))
		body := `{"messages":[{"role":"user","content":"hi"},{"role":"system","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}},` +
			`{"type":"text","text":"b"}]},{"role":"system","content":""},{"role":"system","content":[]},{"role":"assistant","content":"ok"}],` +
			`"thinking":{"type":"enabled","budget_tokens":4000},"context_management":{"edits":[]},"output_config":{"effort":"low"},"metadata":{"user_id":"u"}}`
		req, _, err = anthropic.DecodeRequest([]byte(body), tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(req.Messages).To(Equal([]core.Message{
			{Role: core.RoleUser, Content: "hi"},
			{Role: core.RoleSystem, Content: "a\nb"},
			{Role: core.RoleAssistant, Content: "ok"},
		}))
	})

	It("reads Claude Code's request with budgeted thinking", func() {
		req, _, err := anthropic.DecodeRequest(fixture("claude-code/budgeted.json"), tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(req.Messages[len(req.Messages)-1].Role).To(Equal(core.RoleUser))
	})

	It("keeps block order: text before and after tool results makes user messages around the tool messages", func() {
		body := `{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"},
			{"tool_use_id":"t1","type":"tool_result"},{"type":"text","text":"c"}]}]}`
		req, stream, err := anthropic.DecodeRequest([]byte(body), tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(stream).To(BeFalse())
		Expect(req.Messages).To(Equal([]core.Message{
			{Role: core.RoleUser, Content: "a\nb"},
			{Role: core.RoleTool, ToolCallID: "t1"},
			{Role: core.RoleUser, Content: "c"},
		}))
	})

	It("names a tool message after the tool_use it answers in the message before, and leaves other names empty", func() {
		body := `{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"Old","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"1"}]},
			{"role":"assistant","content":[{"type":"text","text":"again"},{"type":"tool_use","id":"b","name":"New","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"b","content":"2"},{"type":"tool_result","tool_use_id":"a","content":"3"}]}]}`
		req, _, err := anthropic.DecodeRequest([]byte(body), tag)
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, m := range req.Messages {
			if m.Role == core.RoleTool {
				names = append(names, m.ToolCallID+"="+m.Name)
			}
		}
		Expect(names).To(Equal([]string{"a=Old", "b=New", "a="}))
	})

	It("keeps a turn whose blocks it does not map as an empty message, and a tool_use without input as {}", func() {
		body := `{"messages":[{"role":"user","content":[{"type":"image","source":{"type":"url","url":"https://x/y.png"}}]},
			{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"now"}]}]}`
		req, _, err := anthropic.DecodeRequest([]byte(body), tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(req.Messages).To(HaveLen(2))
		Expect(req.Messages[0]).To(Equal(core.Message{Role: core.RoleUser}))
		Expect(string(req.Messages[1].ToolCalls[0].Arguments)).To(Equal("{}"))
	})

	It("reads escapes, surrogate pairs and a type that comes after the other keys", func() {
		body := `{"messages":[{"content":[{"text":"caf\u00e9 \ud83d\ude00 \"q\" <b>","type":"text"}],"role":"user"}],"max_tokens":null}`
		req, _, err := anthropic.DecodeRequest([]byte(body), tag)
		Expect(err).NotTo(HaveOccurred())
		Expect(req.Messages[0].Content).To(Equal("café 😀 \"q\" <b>"))
	})

	DescribeTable("refuses a malformed request with a one-line error naming the position",
		func(body, want string) {
			_, _, err := anthropic.DecodeRequest([]byte(body), tag)
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(Equal(want))
			Expect(err.Error()).NotTo(ContainSubstring("\n"))
			var e *anthropic.Error
			Expect(errors.As(err, &e)).To(BeTrue())
			Expect(e.Input).To(Equal("request"))
		},
		func(body, want string) string { return want },
		Entry(nil, `{"messages": [}`, `anthropic: request: 1:15 (byte 14): messages[0]: want an object, got '}'`),
		Entry(nil, "{\n  \"messages\": [\n    {\"role\": \"user\", \"content\": \"hi\"\n  ]\n}",
			`anthropic: request: 4:3 (byte 57): messages[0]: want ',' or '}', got ']'`),
		Entry(nil, `[]`, `anthropic: request: 1:1 (byte 0): want an object, got an array`),
		Entry(nil, ``, `anthropic: request: 1:1 (byte 0): want an object, got the end of the input`),
		Entry(nil, `{"model":"m"}`, `anthropic: request: 1:1 (byte 0): no messages array`),
		Entry(nil, `{"Messages":[]}`, `anthropic: request: 1:1 (byte 0): no messages array`),
		Entry(nil, `{"messages":[]} x`, `anthropic: request: 1:17 (byte 16): data after the JSON value`),
		Entry(nil, "{\"messages\":[]}\x00", `anthropic: request: 1:16 (byte 15): data after the JSON value`), // found by FuzzDecodeRequest
		Entry(nil, "{\"messages\":\x00}", `anthropic: request: 1:13 (byte 12): messages: want an array, got byte 0x0`),
		Entry(nil, `{"messages":[],"messages":[{"role":"user","content":"x"}]}`,
			`anthropic: request: 1:16 (byte 15): messages: duplicate key "messages"`),
		Entry(nil, `{"messages":[{"role":"user","content":"x","role":"assistant"}]}`,
			`anthropic: request: 1:43 (byte 42): messages[0].role: duplicate key "role"`),
		Entry(nil, `{"messages":[{"role":"tool","content":"x"}]}`,
			`anthropic: request: 1:22 (byte 21): messages[0].role: want role "user", "assistant" or "system", got "tool"`),
		Entry(nil, `{"messages":[{"role":"system"}]}`, `anthropic: request: 1:14 (byte 13): messages[0]: message without content`),
		Entry(nil, `{"messages":[{"role":"system","content":null}]}`,
			`anthropic: request: 1:41 (byte 40): messages[0].content: want a string or an array of content blocks, got null`),
		Entry(nil, `{"messages":[{"role":"system","content":[{"type":"text","text":1}]}]}`,
			`anthropic: request: 1:64 (byte 63): messages[0].content[0].text: want a string, got a number`),
		Entry(nil, `{"messages":[{"role":"user","content":{}}]}`,
			`anthropic: request: 1:39 (byte 38): messages[0].content: want a string or an array of content blocks, got an object`),
		Entry(nil, `{"messages":[{"role":"user"}]}`, `anthropic: request: 1:14 (byte 13): messages[0]: message without content`),
		Entry(nil, `{"messages":[{"role":"user","content":[{"text":"x"}]}]}`,
			`anthropic: request: 1:40 (byte 39): messages[0].content[0]: content block without a type`),
		Entry(nil, `{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":[1]}]}]}`,
			`anthropic: request: 1:92 (byte 91): messages[0].content[0].input: want an object, got an array`),
		Entry(nil, `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":7}]}]}`,
			`anthropic: request: 1:90 (byte 89): messages[0].content[0].content: want a string or an array of content blocks, got a number`),
		Entry(nil, `{"max_tokens":-1,"messages":[]}`, `anthropic: request: 1:15 (byte 14): max_tokens: want a non-negative integer, got -1`),
		Entry(nil, `{"max_tokens":"1","messages":[]}`, `anthropic: request: 1:15 (byte 14): max_tokens: want an integer, got a string`),
		Entry(nil, `{"stream":"yes","messages":[]}`, `anthropic: request: 1:11 (byte 10): stream: want a boolean, got a string`),
		Entry(nil, `{"messages":[{"role":"user","content":"a`+"\x01"+`"}]}`,
			`anthropic: request: 1:41 (byte 40): messages[0].content: control character in a string`),
		Entry(nil, `{"messages":[{"role":"user","content":"\x"}]}`,
			`anthropic: request: 1:40 (byte 39): messages[0].content: invalid escape "\\x"`),
		Entry(nil, `{"messages":[{"role":"user","content":"abc`, `anthropic: request: 1:39 (byte 38): messages[0].content: unterminated string`),
		Entry(nil, `{"messages":[],"x":01}`, `anthropic: request: 1:21 (byte 20): want ',' or '}', got a number`),
		Entry(nil, `{"messages":[],"x":1.}`, `anthropic: request: 1:22 (byte 21): x: want a digit after '.'`),
		Entry(nil, `{"messages":[],"x":tru}`, `anthropic: request: 1:20 (byte 19): x: want a JSON value, got a boolean`),
	)

	It("refuses nesting deeper than 512 levels, even in a value it does not read", func() {
		body := `{"messages":[],"metadata":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`
		_, _, err := anthropic.DecodeRequest([]byte(body), tag)
		Expect(err).To(MatchError(ContainSubstring("nested more than 512 levels")))
	})

	It("stops at the first misplaced value of a huge body of tiny values, without building anything", func() {
		body := []byte(`{"messages":[` + strings.Repeat("0,", 1<<20) + `0]}`)
		_, _, err := anthropic.DecodeRequest(body, tag)
		Expect(err).To(MatchError(`anthropic: request: 1:14 (byte 13): messages[0]: want an object, got a number`))
	})
})
