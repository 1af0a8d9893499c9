package importer_test

import (
	"bytes"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

var _ = Describe("Import of a chat completions log", func() {
	opts := func(format string) importer.ImportOptions {
		return importer.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "t.jsonl", At: -1, Format: format}
	}
	// call is one line of a log: a request with msgs, a response with reply.
	call := func(reply string, msgs ...string) string {
		return `{"request": {"model": "gpt-4o", "messages": [` + strings.Join(msgs, ", ") +
			`]}, "response": {"object": "chat.completion", "choices": [{"index": 0, "message": ` + reply + `}]}}`
	}
	user := `{"role": "user", "content": "Why did the export fail?"}`
	hello := `{"role": "assistant", "content": "Let me check."}`
	more := `{"role": "user", "content": "Go ahead."}`
	leak := `{"role": "assistant", "content": "<tool_call>{\"name\": \"get_logs\", \"arguments\": {}}</tool_call>"}`
	log := call(hello, user) + "\n" + call(leak, user, hello, more) + "\n"

	It("takes the last request's messages and its reply as the conversation", func() {
		files := mustImport(log, opts(""))
		Expect(string(files[0].Data)).To(ContainSubstring("message 3 leaked 1 tool call(s)"))
		Expect(string(files[0].Data)).To(ContainSubstring("user: Go ahead."))
		forced := mustImport(log, opts(importer.FormatChatCompletionsLog))
		Expect(forced).To(Equal(files))
	})

	It(`accepts the request under "body" and the response wrapped as {"body": ...}`, func() {
		wrapped := strings.NewReplacer(`{"request": `, `{"custom_id": "c1", "body": `,
			`"response": {"object"`, `"response": {"status_code": 200, "body": {"object"`, "]}}\n", "]}}}\n").Replace(log)
		Expect(wrapped).NotTo(Equal(log))
		files := mustImport(wrapped, opts(""))
		plain := mustImport(log, opts(""))
		Expect(files[0].Data).To(Equal(bytes.Replace(plain[0].Data, []byte(sha(log)), []byte(sha(wrapped)), 1)))
	})

	DescribeTable("tells the format from the content, or takes --format",
		func(trace, format, want string) { expectImport(trace, opts(format), want) },
		Entry("a log", log, "", ""),
		Entry("a list of messages", "["+user+", "+leak+"]", "auto", ""),
		Entry("messages under \"messages\"", `{"messages": [`+user+", "+leak+"]}", "", ""),
		Entry("a log read as messages", log, "messages", "t.jsonl:2:1: data after the value"),
		Entry("messages read as a log", "[\n"+user+", "+leak+"\n]", "chat-completions-log", "t.jsonl:1:2: unexpected end of input"),
		Entry("an empty log", "\n\n", "chat-completions-log", `t.jsonl:1:1: no LLM call: a chat completions log holds one {"request": ..., "response": ...} a line`),
		Entry("an unknown format", log, "har", `t.jsonl: format "har": want one of `+strings.Join(importer.FormatNames(), ", ")),
	)

	DescribeTable("names the line:col of a bad log, in one line",
		func(want string, lines ...string) {
			_, err := importer.Import([]byte(strings.Join(lines, "\n")+"\n"), opts(""))
			Expect(err).To(MatchError(want))
		},
		Entry("bad JSON on line 3", `t.jsonl:3:45: unexpected '}'`,
			call(hello, user), call(leak, user, hello, more), `{"request": {"model": "gpt-4o", "messages": }}`),
		Entry("a line without a request", `t.jsonl:2:1: want an LLM call, {"request": ..., "response": ...}: no "request" (or "body")`,
			call(hello, user), `{"response": {"choices": [{"message": `+leak+`}]}}`),
		Entry("a line without a response", `t.jsonl:2:1: want an LLM call, {"request": ..., "response": ...}: no "response"`,
			call(hello, user), `{"request": {"messages": [`+user+`]}}`),
		Entry("a line that is not an object", `t.jsonl:2:1: want an LLM call, {"request": ..., "response": ...}, got a list`,
			call(hello, user), `[]`),
		Entry("a request that does not extend the earlier one", `t.jsonl:2:46: message 0 differs from line 1's request: each call's request extends the one before it`,
			call(hello, user), call(leak, more, hello, more)),
		Entry("a request without the earlier reply", `t.jsonl:2:103: message 1 differs from line 1's reply: each call's request extends the one before it`,
			call(hello, user), call(leak, user, more)),
		Entry("a request shorter than the earlier one", `t.jsonl:2:45: the request holds 1 messages, not the 2 of line 1's request and reply before its own: each call's request extends the one before it`,
			call(hello, user), call(leak, user)),
		Entry("a reply that is not the assistant's", `t.jsonl:1:192: message 1: the response's message: role "user", want assistant`,
			call(more, user)),
		Entry("no choices", `t.jsonl:1:129: field response.choices: empty; want the reply in choices[0].message`,
			`{"request": {"model": "gpt-4o", "messages": [`+user+`]}, "response": {"choices": []}}`),
		Entry("a bad message field", `t.jsonl:1:46: message 0: field role: missing`,
			call(hello, `{"content": "q"}`)),
	)
})
