package importer_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/harness/importer"
)

// anthCall is one line of an Anthropic Messages log: a request with the
// system prompt and the messages given, a response with the content given.
func anthCall(system, reply string, msgs ...string) string {
	sys := ""
	if system != "" {
		sys = `, "system": ` + system
	}
	return `{"request": {"model": "claude-sonnet-4-5", "max_tokens": 1024` + sys + `, "messages": [` + strings.Join(msgs, ", ") +
		`]}, "response": {"id": "msg_1", "type": "message", "role": "assistant", "content": ` + reply + `, "stop_reason": "end_turn"}}`
}

var _ = Describe("Import of an Anthropic Messages log", func() {
	opts := func(format string, at int) importer.ImportOptions {
		return importer.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "t.jsonl", At: at, Format: format}
	}
	const anth = importer.FormatAnthropicMessages
	user := `{"role": "user", "content": "Why is checkout slow?"}`
	useBlocks := `[{"type": "thinking", "thinking": "Check the logs.", "signature": "c2ln"}, {"type": "text", "text": "Let me "}, {"type": "text", "text": "look."}, ` +
		`{"type": "tool_use", "id": "toolu_1", "name": "query_logs", "input": {"until": "14:07", "since": "14:04"}}]`
	use := `{"role": "assistant", "content": ` + useBlocks + `}`
	rows := strings.Repeat(`ts=14:05 level=ERROR pool exhausted\n`, 400)
	result := `{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "` + rows + `"}]}`
	done := `[{"type": "text", "text": "The pool is exhausted."}]`
	log := anthCall("", useBlocks, user) + "\n" + anthCall("", done, user, use, result) + "\n"

	It("maps every block type: text joined, tool_use as calls, tool_result as tool messages, thinking and media counted", func() {
		system := `[{"type": "text", "text": "You are on call."}, {"type": "text", "text": "Times are UTC.", "cache_control": {"type": "ephemeral"}}]`
		asked := `{"role": "user", "content": [{"type": "text", "text": "Why is checkout slow?"}, ` +
			`{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}, {"type": "text", "text": "Screenshot above."}]}`
		calls := `{"role": "assistant", "content": [{"type": "thinking", "thinking": "Logs and deploys.", "signature": "c2ln"}, {"type": "text", "text": "Let me "}, {"type": "text", "text": "look."}, ` +
			`{"type": "tool_use", "id": "toolu_1", "name": "query_logs", "input": {"until": "14:07", "since": "14:04"}}, ` +
			`{"type": "tool_use", "id": "toolu_2", "name": "get_deploys", "input": { "service" : "checkout", "n": 1.50 }}]}`
		answers := `{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2", "content": "no deploy today", "is_error": true}, ` +
			`{"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "line 1\n"}, {"type": "text", "text": "line 2\n"}, ` +
			`{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "x"}}]}, {"type": "text", "text": "Anything else?"}]}`
		plain := `{"role": "assistant", "content": "Nothing else."}`
		alone := `{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_3"}]}`
		reply := `[{"type": "redacted_thinking", "data": "ZW5j"}, {"type": "text", "text": "Done."}, {"type": "tool_use", "id": "toolu_4", "name": "query_logs", "input": {}}]`
		third := `{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_3", "name": "get_deploys"}]}`
		empty := `{"role": "user", "content": []}`
		conv, err := importer.Conversation([]byte(anthCall(system, reply, asked, calls, answers, plain, third, alone, empty)), anth)
		Expect(err).NotTo(HaveOccurred())
		Expect(conv).To(Equal([]string{
			`system: "You are on call.\nTimes are UTC."`,
			`user: "Why is checkout slow?\n[image not imported]\nScreenshot above." | omitted image`,
			`assistant: "Let me look." | call toolu_1 query_logs {"until":"14:07","since":"14:04"} | call toolu_2 get_deploys {"service":"checkout","n":1.50} | omitted thinking`,
			`tool: "no deploy today" | answers toolu_2 | omitted is_error`,
			`tool: "line 1\nline 2\n[document not imported]" | answers toolu_1 | omitted document`,
			`user: "Anything else?"`,
			`assistant: "Nothing else."`,
			`assistant: "" | call toolu_3 get_deploys {}`,
			`tool: "" | answers toolu_3`,
			`user: ""`,
			`assistant: "Done." | call toolu_4 query_logs {} | omitted redacted_thinking`,
		}))
	})

	It("reads a system message inside messages (Claude Code's environment) as a system message in its place: a string, or text blocks with cache_control", func() {
		env := `{"role": "system", "content": [{"type": "text", "text": "# Environment", "cache_control": {"type": "ephemeral"}}, {"type": "text", "text": "cwd: /repo"}], "output_config": {"effort": "medium"}}`
		again := `{"role": "system", "content": "# Environment\ncwd: /repo"}`
		first := anthCall(`"You are Claude Code."`, useBlocks, user, env)
		second := anthCall(`"You are Claude Code."`, done, user, again, use, result)
		conv, err := importer.Conversation([]byte(first+"\n"+second+"\n"), anth)
		Expect(err).NotTo(HaveOccurred(), "the second request sends the system message as a string: the same text, so it extends the first")
		Expect(conv[:3]).To(Equal([]string{
			`system: "You are Claude Code."`,
			`user: "Why is checkout slow?"`,
			`system: "# Environment\ncwd: /repo"`,
		}))
		Expect(conv[3]).To(HavePrefix(`assistant: "Let me look."`))
	})

	It("imports Claude Code's log: the system text is the top-level system, then each system message before the cut, in order", func() {
		trace, err := os.ReadFile("../../scenarios/regress/traces/claude-code.jsonl")
		Expect(err).NotTo(HaveOccurred())
		Expect(importer.Detect(trace)).To(Equal(anth))
		conv, err := importer.Conversation(trace, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(conv).To(HaveLen(6))
		Expect(conv[2]).To(HavePrefix(`system: "# Environment\nYou have been invoked in the following environment: \n`))
		files := mustImport(string(trace), opts("", -1))
		var sc struct {
			Input struct {
				User   string `yaml:"user"`
				System string `yaml:"system"`
			} `yaml:"input"`
		}
		Expect(yaml.Unmarshal(scenarioOf(files), &sc)).To(Succeed())
		Expect(sc.Input.User).To(HaveSuffix("</system-reminder>\n\nHow many build steps are there? Use bash."))
		Expect(sc.Input.System).To(HavePrefix("x-anthropic-billing-header: cc_version=2.1.332"))
		Expect(sc.Input.System).To(ContainSubstring("[trimmed for toolout testdata]\n\n# Environment\nYou have been invoked"),
			"the environment follows the top-level system, as the imported systems are joined")
	})

	It("takes the last request and its reply as the conversation, and counts the blocks left out in the provenance", func() {
		files := mustImport(log, opts("", -1))
		scenario := string(files[len(files)-1].Data)
		Expect(scenario).To(ContainSubstring("message 2 is a 14400-byte result of query_logs"))
		Expect(scenario).To(ContainSubstring("  omitted:\n    - thinking x1\n"))
		Expect(scenario).To(ContainSubstring("      text: Let me look.\n"))
		forced := mustImport(log, opts(anth, -1))
		Expect(forced).To(Equal(files))
	})

	It("accepts a request that sends a reply's tool input again re-encoded, or without the thinking of an earlier turn, keeping the count", func() {
		again := strings.NewReplacer(`{"until": "14:07", "since": "14:04"}`, `{"since":"14:04","until":"14:07"}`,
			`{"type": "thinking", "thinking": "Check the logs.", "signature": "c2ln"}, `, ``).Replace(use)
		Expect(again).NotTo(Equal(use))
		conv, err := importer.Conversation([]byte(anthCall("", useBlocks, user)+"\n"+anthCall("", done, user, again, result)), anth)
		Expect(err).NotTo(HaveOccurred())
		Expect(conv[1]).To(Equal(`assistant: "Let me look." | call toolu_1 query_logs {"since":"14:04","until":"14:07"} | omitted thinking`))
	})

	It("reads one call pretty-printed, or a JSON list of calls, as the same conversation", func() {
		want := mustImport(log, opts("", -1))
		var calls []any
		for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
			var v any
			Expect(json.Unmarshal([]byte(line), &v)).To(Succeed())
			calls = append(calls, v)
		}
		pretty, err := json.MarshalIndent(calls[1], "", "  ")
		Expect(err).NotTo(HaveOccurred())
		list, err := json.MarshalIndent(calls, "", "  ")
		Expect(err).NotTo(HaveOccurred())
		for _, trace := range [][]byte{pretty, list} {
			got, err := importer.Import(trace, opts("", -1))
			Expect(err).NotTo(HaveOccurred())
			Expect(got[len(got)-1].Data).To(Equal(bytes.Replace(want[len(want)-1].Data, []byte(sha(log)), []byte(sha(string(trace))), 1)))
		}
	})

	ok := anthCall("", useBlocks, user)
	blk := func(b string) string { return anthCall("", done, `{"role": "user", "content": [`+b+`]}`) }
	ablk := func(b string) string { return anthCall("", `[`+b+`]`, user) }

	DescribeTable("names the line:col of a bad log, in one line, at the offending value",
		func(want string, lines ...string) {
			_, err := importer.Import([]byte(strings.Join(lines, "\n")+"\n"), opts(anth, -1))
			Expect(err).To(MatchError(want))
		},
		Entry("bad JSON on line 2", `t.jsonl:2:27: unexpected '}'`,
			ok, `{"request": {"messages": [}}`),
		Entry("not UTF-8", `t.jsonl:2:59: invalid UTF-8 (byte 0xe9): a trace is UTF-8 JSON`,
			ok, "{\"request\": {\"messages\": [{\"role\": \"user\", \"content\": \"caf\xe9\"}]}}"),
		Entry("not an object", `t.jsonl:2:1: want an LLM call, {"request": ..., "response": ...}, got a list`,
			ok, `[1, 2]`),
		Entry("no request", `t.jsonl:1:1: want an LLM call, {"request": ..., "response": ...}: no "request"`,
			`{"response": {"type": "message", "content": []}}`),
		Entry("no response", `t.jsonl:1:1: want an LLM call, {"request": ..., "response": ...}: no "response"`,
			`{"request": {"system": "s", "messages": []}}`),
		Entry("messages missing", `t.jsonl:1:13: field request.messages: missing`,
			`{"request": {"system": "s"}, "response": {"type": "message", "content": []}}`),
		Entry("messages not a list", `t.jsonl:1:41: field request.messages: want a list, got an object`,
			`{"request": {"system": "s", "messages": {}}, "response": {"type": "message", "content": []}}`),
		Entry("message not an object", `t.jsonl:1:77: request.messages[0]: want an object, got a string`,
			anthCall("", done, `"hi"`)),
		Entry("role missing", `t.jsonl:1:77: request.messages[0].role: missing`,
			anthCall("", done, `{"content": "q"}`)),
		Entry("role tool", `t.jsonl:1:86: request.messages[0].role: want "user", "assistant" or "system", got "tool"`,
			anthCall("", done, `{"role": "tool", "content": "q"}`)),
		Entry("system message without content", `t.jsonl:1:77: request.messages[0].content: missing`,
			anthCall("", done, `{"role": "system"}`)),
		Entry("system message content number", `t.jsonl:1:107: request.messages[0].content: want a string or a list of text blocks, got a number`,
			anthCall("", done, `{"role": "system", "content": 7}`)),
		Entry("system message block image", `t.jsonl:1:117: request.messages[0].content[0].type: want a text block, got type "image"`,
			anthCall("", done, `{"role": "system", "content": [{"type": "image", "source": {}}]}`)),
		Entry("role wrong type", `t.jsonl:1:86: request.messages[0].role: want a string, got number`,
			anthCall("", done, `{"role": 1, "content": "q"}`)),
		Entry("content missing", `t.jsonl:1:77: request.messages[0].content: missing`,
			anthCall("", done, `{"role": "user"}`)),
		Entry("content number", `t.jsonl:1:105: request.messages[0].content: want a string or a list of content blocks, got a number`,
			anthCall("", done, `{"role": "user", "content": 5}`)),
		Entry("block not an object", `t.jsonl:1:106: request.messages[0].content[0]: want an object, got a string`,
			blk(`"text"`)),
		Entry("block type missing", `t.jsonl:1:106: request.messages[0].content[0].type: missing`,
			blk(`{"text": "q"}`)),
		Entry("unknown block", `t.jsonl:1:115: request.messages[0].content[0].type: block type "search_result" is not imported (text, tool_use and tool_result are; thinking is left out; image and document become placeholders)`,
			blk(`{"type": "search_result", "source": "s", "title": "t", "content": []}`)),
		Entry("text without text", `t.jsonl:1:106: request.messages[0].content[0].text: missing`,
			blk(`{"type": "text"}`)),
		Entry("text not a string", `t.jsonl:1:131: request.messages[0].content[0].text: want a string, got array`,
			blk(`{"type": "text", "text": ["q"]}`)),
		Entry("tool_use in user", `t.jsonl:1:115: request.messages[0].content[0].type: a tool_use block in a user message: the assistant calls tools`,
			blk(`{"type": "tool_use", "id": "a", "name": "n", "input": {}}`)),
		Entry("thinking in user", `t.jsonl:1:115: request.messages[0].content[0].type: a thinking block in a user message`,
			blk(`{"type": "thinking", "thinking": "t", "signature": "s"}`)),
		Entry("tool_result no id", `t.jsonl:1:106: request.messages[0].content[0].tool_use_id: missing`,
			blk(`{"type": "tool_result", "content": "x"}`)),
		Entry("tool_result content number", `t.jsonl:1:161: request.messages[0].content[0].content: want a string or a list of content blocks, got a number`,
			blk(`{"type": "tool_result", "tool_use_id": "a", "content": 1}`)),
		Entry("tool_result content block", `t.jsonl:1:171: request.messages[0].content[0].content[0].type: want a text, image or document block in a tool_result, got type "tool_reference"`,
			blk(`{"type": "tool_result", "tool_use_id": "a", "content": [{"type": "tool_reference", "tool_name": "x"}]}`)),
		Entry("tool_result is_error string", `t.jsonl:1:162: request.messages[0].content[0].is_error: want bool, got string`,
			blk(`{"type": "tool_result", "tool_use_id": "a", "is_error": "yes"}`)),
		Entry("tool_result answers nothing", `t.jsonl:1:145: request.messages[0].content[0].tool_use_id: "toolu_9" answers no tool_use of an earlier assistant message`,
			blk(`{"type": "tool_result", "tool_use_id": "toolu_9", "content": "x"}`)),
		Entry("tool_result answers twice", `t.jsonl:1:15426: request.messages[4].content[0].tool_use_id: "toolu_1": that tool_use was already answered`,
			anthCall("", done, user, use, result, `{"role": "assistant", "content": "ok"}`, result)),
		Entry("tool_use without id", `t.jsonl:1:213: response.content[0].id: missing`,
			ablk(`{"type": "tool_use", "name": "n", "input": {}}`)),
		Entry("tool_use without name", `t.jsonl:1:213: response.content[0].name: missing`,
			ablk(`{"type": "tool_use", "id": "a", "input": {}}`)),
		Entry("tool_use input list", `t.jsonl:1:267: response.content[0].input: want an object, got a list`,
			ablk(`{"type": "tool_use", "id": "a", "name": "n", "input": [1]}`)),
		Entry("tool_result in assistant", `t.jsonl:1:222: response.content[0].type: a tool_result block in an assistant message: the user answers calls`,
			ablk(`{"type": "tool_result", "tool_use_id": "a"}`)),
		Entry("image in assistant", `t.jsonl:1:222: response.content[0].type: an image block in an assistant message`,
			ablk(`{"type": "image", "source": {}}`)),
		Entry("system number", `t.jsonl:1:74: request.system: want a string or a list of text blocks, got a number`,
			anthCall(`5`, done, user)),
		Entry("system block image", `t.jsonl:1:115: request.system[1].type: want a text block, got type "image"`,
			anthCall(`[{"type": "text", "text": "a"}, {"type": "image", "source": {}}]`, done, user)),
		Entry("response type error", `t.jsonl:1:104: response.type: want "message", got "error": a log replays the calls that were answered`,
			`{"request": {"messages": [`+user+`]}, "response": {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}}`),
		Entry("response role user", `t.jsonl:1:123: response.role: want "assistant", got "user"`,
			`{"request": {"messages": [`+user+`]}, "response": {"type": "message", "role": "user", "content": []}}`),
		Entry("response content missing", `t.jsonl:1:95: response.content: missing`,
			`{"request": {"messages": [`+user+`]}, "response": {"type": "message"}}`),
		Entry("pretty then another", `t.jsonl:5:1: data after the value`,
			"{\n  \"request\": {\"messages\": []},\n  \"response\": {\"type\": \"message\", \"content\": []}\n}\n{\"request\": {}}"),
		Entry("list element", `t.jsonl:3:2: want an LLM call, {"request": ..., "response": ...}, got a number`,
			"[\n"+ok+",\n 7]"),
		Entry("empty", `t.jsonl:1:1: no LLM call: an Anthropic Messages log holds {"request": ..., "response": ...} calls, one a line`,
			"\n \n"),
		Entry("deep", `t.jsonl:1:2808: nested too deeply`,
			ablk(`{"type": "tool_use", "id": "a", "name": "n", "input": `+strings.Repeat(`{"a":`, 10001)+`1`+strings.Repeat(`}`, 10001)+`}`)),
		Entry("a prefill", `t.jsonl:1:140: request.messages[1].role: the request ends with an assistant message, a prefill its reply continues: a log replays whole turns`,
			anthCall("", done, user, `{"role": "assistant", "content": "The cause is"}`)),
		Entry("changed message", `t.jsonl:2:105: request.messages[0].content differs from line 1's request: each call's request extends the one before it`,
			ok, anthCall("", done, `{"role": "user", "content": "Why is checkout fast?"}`, use, result)),
		Entry("no reply", `t.jsonl:2:160: request.messages[1].content[0] differs from line 1's reply: each call's request extends the one before it`,
			ok, anthCall("", done, user, result)),
		Entry("retry", `t.jsonl:2:76: the request ends before line 1's request and reply do: each call's request extends the one before it`,
			ok, ok),
		Entry("changed input", `t.jsonl:2:164: request.messages[1].content differs from line 1's reply: each call's request extends the one before it`,
			ok, anthCall("", done, user, strings.Replace(use, `"14:07"`, `"14:08"`, 1), result)),
		Entry("changed system", `t.jsonl:2:74: request.system differs from line 1's request: each call's request extends the one before it`,
			anthCall(`"a"`, useBlocks, user), anthCall(`"b"`, done, user, use, result)),
		Entry("dropped system", `t.jsonl:2:86: request.messages[0].role differs from line 1's request: each call's request extends the one before it`,
			anthCall(`"a"`, useBlocks, user), anthCall(``, done, user, use, result)),
	)

	DescribeTable("tells the format from the content",
		func(trace, want string) {
			Expect(importer.Detect([]byte(trace))).To(Equal(want))
		},
		Entry("an Anthropic log", log, anth),
		Entry("an Anthropic call pretty-printed", "{\n  "+anthCall("", done, user)[1:], anth),
		Entry("a list of Anthropic calls", "["+anthCall("", done, user)+"]", anth),
		Entry("a response without a type, with content and no choices", `{"request": {"messages": []}, "response": {"content": []}}`, anth),
		Entry(`a response of "type": "error"`, `{"request": {"messages": []}, "response": {"type": "error", "error": {}}}`, anth),
		Entry("no response, a request with a top-level system", `{"request": {"system": "s", "messages": []}}`, anth),
		Entry("an OpenAI chat completions log", `{"request": {"messages": []}, "response": {"object": "chat.completion", "choices": []}}`, importer.FormatChatCompletionsLog),
		Entry("a response with choices and content, no type", `{"request": {"messages": []}, "response": {"choices": [], "content": []}}`, importer.FormatChatCompletionsLog),
		Entry("a response of another type", `{"request": {"messages": []}, "response": {"type": "chat.completion", "content": []}}`, importer.FormatChatCompletionsLog),
		Entry("a Batch API response wrapped in body", `{"body": {"messages": []}, "response": {"status_code": 200, "body": {"choices": []}}}`, importer.FormatChatCompletionsLog),
		Entry("an Anthropic response wrapped in body", `{"request": {"messages": []}, "response": {"body": {"type": "message", "content": []}}}`, anth),
		Entry("no response, a request without system", `{"request": {"messages": []}}`, importer.FormatChatCompletionsLog),
		Entry("a list of messages", `[{"role": "user", "content": "q"}]`, importer.FormatMessages),
		Entry("messages beside a request", `{"messages": [], "request": {"system": "s"}, "response": {"type": "message"}}`, importer.FormatMessages),
		Entry("an empty list", `[]`, importer.FormatMessages),
		Entry("bad JSON after a top-level system", `{"request": {"system": `, anth),
		Entry("bad JSON before any fact", `{"request": {"messages": [`, importer.FormatChatCompletionsLog),
		Entry("cut after a key: request", `{"request"`, importer.FormatChatCompletionsLog),
		Entry("cut after a key: response", `{"response"`, importer.FormatChatCompletionsLog),
		Entry("cut after a key: response.type", `{"response": {"type"`, importer.FormatChatCompletionsLog),
		Entry("cut after a key: response.body", `{"response": {"body"`, importer.FormatChatCompletionsLog),
	)

	It("reads a reply of 10^5 blocks and a request of 10^4 tool results, as the benchmark does (linear: see BenchmarkImportAnthropicAdversarial)", func() {
		conv, err := importer.Conversation(adversarialAnthropic(27*100000, "blocks"), anth)
		Expect(err).NotTo(HaveOccurred())
		Expect(conv).To(HaveLen(2))
		Expect(conv[1]).To(HavePrefix(`assistant: "` + strings.Repeat("x", 100000) + `<tool_call>`))
		conv, err = importer.Conversation(adversarialAnthropic(110*10000, "results"), anth)
		Expect(err).NotTo(HaveOccurred())
		Expect(conv).To(HaveLen(3 + 10000))
		Expect(conv[10001]).To(Equal(`tool: "ok" | answers toolu_9999`))
	})

	It("gives the committed scenario of the sample log on every import", func() {
		trace, err := os.ReadFile("../../scenarios/regress/traces/anthropic-messages.jsonl")
		Expect(err).NotTo(HaveOccurred())
		Expect(importer.Detect(trace)).To(Equal(anth))
		conv, err := importer.Conversation(trace, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(conv).To(HaveLen(7))
		Expect(conv[2]).To(HaveSuffix("| omitted thinking"))
		Expect(conv[4]).To(HaveSuffix("| omitted thinking redacted_thinking"))
		Expect(conv[5]).To(HaveSuffix("| answers toolu_01Gm6YcT2pW9kLr4VxB8nQsE"))
	})
})
