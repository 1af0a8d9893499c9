package importer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

var _ = Describe("Import", func() {
	load := func(name string) []byte {
		data, err := os.ReadFile("../../scenarios/regress/traces/" + name)
		Expect(err).NotTo(HaveOccurred())
		return data
	}
	opts := func(at int) importer.ImportOptions {
		return importer.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "t.json", At: at}
	}

	DescribeTable("gives the same bytes when importing the same trace twice, equal to the committed scenarios",
		func(trace string, at int, emails bool) {
			name := fmt.Sprintf("%s-at%d", strings.TrimSuffix(trace, filepath.Ext(trace)), at)
			o := importer.ImportOptions{Dir: "../../scenarios/regress", Name: name, TraceName: trace, At: at, RedactEmails: emails}
			a, err := importer.Import(load(trace), o)
			Expect(err).NotTo(HaveOccurred())
			b, err := importer.Import(load(trace), o)
			Expect(err).NotTo(HaveOccurred())
			Expect(a).To(Equal(b))
			for _, f := range a {
				committed, err := os.ReadFile(f.Path)
				Expect(err).NotTo(HaveOccurred())
				Expect(string(f.Data)).To(Equal(string(committed)), f.Path)
			}
		},
		Entry(nil, "leaked-tools.json", 1, false),
		Entry(nil, "leaked-tools.json", 3, false),
		Entry(nil, "oversized-secrets.json", 3, true),
		Entry("a leaked call, at the leak", "leaked-oversized.json", 2, false),
		Entry("a leaked call, at its oversized result", "leaked-oversized.json", 3, false),
		Entry("a chat completions log of three calls, at its oversized result", "chat-completions-log.jsonl", 3, false),
		Entry("an Anthropic Messages log of three calls, at its oversized result", "anthropic-messages.jsonl", 3, false),
		Entry("Claude Code's log of two calls (a system message inside messages), at its oversized Bash result", "claude-code.jsonl", 4, false),
		Entry("OTel GenAI spans of an agent's three chat calls, at its oversized result", "otel-genai.json", 3, false),
		Entry("OTel GenAI span events (before 1.37) of two chat calls, at the leaked call", "otel-genai-events.jsonl", 2, false),
		Entry("an MCP tool's result as the client kept it (content, structuredContent), kept so", "mcp-result.json", 2, false),
	)

	It("keeps a tool's own JSON that has a content member as text: only an MCP result's members make one", func() {
		own := `{"content": "a page", "author": "x"}`
		call := `{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "t", "arguments": "{}"}}]}`
		trace := "[" + strings.Join([]string{`{"role": "user", "content": "q"}`, call,
			`{"role": "tool", "tool_call_id": "c1", "content": ` + quote(own+strings.Repeat(" ", 13000)) + `}`,
			`{"role": "assistant", "content": "done"}`}, ",") + "]"
		files := mustImport(trace, opts(2))
		for _, f := range files {
			Expect(f.Path).NotTo(HaveSuffix(".mcp.json"))
		}
	})

	It("redacts keys, bearer tokens, URL passwords and, on request, e-mails, with stable numbered placeholders", func() {
		o := importer.ImportOptions{Dir: "../../scenarios/regress", Name: "oversized-secrets-at3", TraceName: "oversized-secrets.json", At: -1, RedactEmails: true}
		files, err := importer.Import(load("oversized-secrets.json"), o)
		Expect(err).NotTo(HaveOccurred())
		for _, f := range files {
			text := string(f.Data)
			for _, secret := range []string{"sk-proj-", "sk-live-", "eyJhbGci", "Pa55w0rd", "@example.com"} {
				Expect(text).NotTo(ContainSubstring(secret), f.Path)
			}
			committed, err := os.ReadFile(f.Path)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(committed)).To(Equal(text), f.Path)
		}
		Expect(string(files[len(files)-1].Data)).To(ContainSubstring("Bearer <REDACTED_BEARER_1>"))
	})

	It("redacts home folders, so that a trace from a developer's machine names no user", func() {
		trace := `[{"role": "system", "content": "cwd: /home/alice/src/app, also /Users/alice.b/x and /home/alice"},
			{"role": "user", "content": "list /home/bob"}, {"role": "assistant", "content": null,
			"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
			{"role": "tool", "tool_call_id": "c1", "content": "` + strings.Repeat("/home/alice/src/app/f.go ", 600) + `"}]`
		files, err := importer.Import([]byte(trace), opts(-1))
		Expect(err).NotTo(HaveOccurred())
		for _, f := range files {
			Expect(string(f.Data)).NotTo(MatchRegexp(`/(home|Users)/[a-z]`), f.Path)
		}
		all := ""
		for _, f := range files {
			all += string(f.Data)
		}
		Expect(all).To(ContainSubstring("cwd: <REDACTED_HOME_1>/src/app, also <REDACTED_HOME_2>/x and <REDACTED_HOME_1>"))
		Expect(all).To(ContainSubstring("list <REDACTED_HOME_3>"))
		Expect(all).To(ContainSubstring("<REDACTED_HOME_1>/src/app/f.go "))
	})

	It("asks for --at when several messages qualify, and refuses a non-candidate", func() {
		_, err := importer.Import(load("leaked-tools.json"), opts(-1))
		Expect(err).To(MatchError("t.json: several messages could be imported: 1 (leaked), 3 (leaked); choose one with --at"))
		_, err = importer.Import(load("leaked-tools.json"), opts(2))
		Expect(err).To(MatchError("t.json: --at 2: message 2 is not a candidate (candidates: 1 (leaked), 3 (leaked))"))
	})

	DescribeTable("names the line:col, the message and the field of a bad trace",
		func(trace, want string) {
			_, err := importer.Import([]byte(trace), opts(-1))
			Expect(err).To(MatchError(want))
		},
		Entry("not a list", `"hello"`, `t.json:1:1: want a JSON list of messages, bare or under "messages", got a string`),
		Entry("no messages key", ` {"msgs": []}`, `t.json:1:2: want a list of messages, bare or under "messages"`),
		Entry("missing role", `[{"content": "x"}]`, `t.json:1:2: message 0: field role: missing`),
		Entry("bad role", "[{\"role\": \"user\", \"content\": \"x\"},\n {\"role\": \"robot\"}]", `t.json:2:11: message 1: field role: "robot" is not system, user, assistant or tool`),
		Entry("bad content", `[{"role": "user", "content": 3}]`, `t.json:1:30: message 0: field content: want a string, null or a list of text parts`),
		Entry("tool call without name", `[{"role": "assistant", "tool_calls": [{"id": "a", "function": {}}]}]`, `t.json:1:39: message 0: field tool_calls[0].function.name: missing`),
		Entry("tool message without id", `[{"role": "tool", "content": "x"}]`, `t.json:1:2: message 0: field tool_call_id: missing on a tool message`),
		Entry("wrong type", `[{"role": "assistant", "tool_calls": {"id": 1}}]`, `t.json:1:38: message 0: field tool_calls: want a list, got object`),
		Entry("nothing to import", `[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]`, `t.json: no message to import: no assistant message with leaked tool calls and no tool result over 12288 bytes`),
	)

	// The traces the importer used to accept, writing a scenario that only
	// failed when run (or ran a conversation that never happened).
	call := `{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "t", "arguments": "{}"}}]}`
	result := func(id string) string {
		return `{"role": "tool", "tool_call_id": "` + id + `", "name": "t", "content": "` + strings.Repeat("row\\n", 4000) + `"}`
	}
	DescribeTable("rejects an inconsistent trace at the message, with its line:col",
		func(want string, msgs ...string) {
			_, err := importer.Import([]byte("[\n  "+strings.Join(msgs, ",\n  ")+"\n]\n"), opts(-1))
			Expect(err).To(MatchError(want))
		},
		Entry("a result whose tool_call_id matches no call", `t.json:4:36: message 2: tool_call_id "zz" matches no tool call of an earlier assistant message`,
			`{"role": "user", "content": "q"}`, call, result("zz")),
		Entry("a result before its call", `t.json:3:36: message 1: tool_call_id "c1": the call with that id comes later, in message 2; a result follows its call`,
			`{"role": "user", "content": "q"}`, result("c1"), call),
		Entry("a call answered twice", `t.json:5:36: message 3: tool_call_id "c1": that call was already answered by message 2`,
			`{"role": "user", "content": "q"}`, call, result("c1"), result("c1")),
		Entry("no user message", `t.json:1:1: no user message (other than TURN-FAILED retries): a session starts from the user's question`,
			`{"role": "system", "content": "s"}`, `{"role": "assistant", "content": "<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}`),
		Entry("only TURN-FAILED user messages", `t.json:1:1: no user message (other than TURN-FAILED retries): a session starts from the user's question`,
			`{"role": "user", "content": "TURN-FAILED: retry"}`, `{"role": "assistant", "content": "<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}`),
		Entry("no user message before the cut", `t.json:3:3: message 1: no user message before it to start the session from`,
			`{"role": "system", "content": "s"}`, `{"role": "assistant", "content": "<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}`,
			`{"role": "user", "content": "q"}`),
	)

	It("accepts call ids reused by later turns, each result answering the latest open call", func() {
		trace := "[" + strings.Join([]string{`{"role": "user", "content": "q"}`, call, result("c1"), call, result("c1"),
			`{"role": "assistant", "content": "done"}`}, ",") + "]"
		mustImport(trace, opts(4))
	})

	It("names the line:col of a byte that is not UTF-8", func() {
		_, err := importer.Import([]byte("[{\"role\": \"user\",\n  \"content\": \"é\xff\"}]"), opts(-1))
		Expect(err).To(MatchError("t.json:2:16: invalid UTF-8 (byte 0xff): a trace is UTF-8 JSON"))
	})

})
