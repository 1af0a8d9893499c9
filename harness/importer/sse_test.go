package importer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/harness/importer"
)

// streamed rewrites each call of a JSONL log with its response replaced
// by the event stream that restream makes of it, as a proxy that logs a
// streamed call captures it: the stream's text in a string.
func streamed(log []byte, restream func([]byte) ([]byte, error)) []byte {
	var out bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		var call struct {
			Request  json.RawMessage `json:"request"`
			Response json.RawMessage `json:"response"`
		}
		Expect(json.Unmarshal(line, &call)).To(Succeed())
		stream, err := restream(call.Response)
		Expect(err).NotTo(HaveOccurred())
		text, err := json.Marshal(string(stream))
		Expect(err).NotTo(HaveOccurred())
		fmt.Fprintf(&out, `{"request": %s, "response": %s}`+"\n", call.Request, text)
	}
	return out.Bytes()
}

// sseLine is a one-call log whose response is the stream text.
func sseLine(request, stream string) string {
	text, _ := json.Marshal(stream)
	return `{"request": ` + request + `, "response": ` + string(text) + `}`
}

// sseSeeds are logs whose responses are event streams, good and bad, for
// the fuzz targets.
var sseSeeds = []string{
	sseLine(`{"system": "s", "messages": [{"role": "user", "content": "q"}]}`, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n"+
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"+
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"<tool_call>{\\\"name\\\":\\\"t\\\",\\\"arguments\\\":{}}</tool_call>\"}}\n\n"+
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"+
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"),
	sseLine(`{"system": "s", "messages": [{"role": "user", "content": "q"}]}`, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n"+
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n"),
	sseLine(`{"system": "s", "messages": [{"role": "user", "content": "q"}]}`, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"type\"::}}\n\n"),
	sseLine(`{"messages": [{"role": "user", "content": "q"}]}`, "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"<tool_call>{\\\"name\\\":\"}}]}\n\n"+
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\\"t\\\",\\\"arguments\\\":{}}</tool_call>\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"),
	sseLine(`{"messages": [{"role": "user", "content": "q"}]}`, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"cut\"}}]}\n\n"),
	sseLine(`{"messages": [{"role": "user", "content": "q"}]}`, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}\n\ndata: {\"choices\":[{\"delta\"\n\n"),
	sseLine(`{"messages": [{"role": "user", "content": "q"}]}`, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"type\":\"message\",\"role\":\"user\",\"content\":[]}}\n\n"+
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"),
}

var _ = Describe("Import of logs whose responses are captured event streams", func() {
	o := importer.ImportOptions{Dir: "../../scenarios/regress", TraceName: "t.jsonl", At: -1}
	sample := func(name string) []byte {
		data, err := os.ReadFile("../../scenarios/regress/traces/" + name)
		Expect(err).NotTo(HaveOccurred())
		return data
	}

	DescribeTable("assembles each response's stream into the message the API would have sent, and imports the same scenario",
		func(trace, name, format string, restream func([]byte) ([]byte, error)) {
			plain := sample(trace)
			log := streamed(plain, restream)
			Expect(string(log)).To(ContainSubstring(`"response": "`))
			Expect(importer.Detect(log)).To(Equal(format))
			o := o
			o.Name = name
			want, err := importer.Import(plain, o)
			Expect(err).NotTo(HaveOccurred())
			got, err := importer.Import(log, o)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(HaveLen(len(want)))
			for i := range want {
				Expect(got[i].Path).To(Equal(want[i].Path))
				Expect(string(got[i].Data)).To(Equal(strings.Replace(string(want[i].Data), sha(string(plain)), sha(string(log)), 1)))
			}
		},
		Entry("Anthropic Messages: event:/data: lines from message_start to message_stop (text, thinking, redacted_thinking, tool_use)",
			"anthropic-messages.jsonl", "anthropic-messages-at3", importer.FormatAnthropicMessages, anthropic.StreamOf),
		Entry("Claude Code 2.1.332's log of two calls, as it streams them (a system message inside messages[], tool_use)",
			"claude-code.jsonl", "claude-code-at4", importer.FormatAnthropicMessages, anthropic.StreamOf),
		Entry("OpenAI Chat Completions: data: chunks and [DONE]", "chat-completions-log.jsonl", "chat-completions-log-at3",
			importer.FormatChatCompletionsLog, openai.Wire{}.Restream),
	)

	It("joins an OpenAI stream's deltas: content pieces, and a tool call's name and arguments in pieces", func() {
		conv, err := importer.Conversation([]byte(sseSeeds[3]), importer.FormatAuto)
		Expect(err).NotTo(HaveOccurred())
		Expect(conv).To(Equal([]string{`user: "q"`, `assistant: "<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"`}))
		stream := "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"get_\",\"arguments\":\"\"}}]}}]}\n\n" +
			"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"logs\",\"arguments\":\"{\\\"n\\\":\"}}]}}]}\n\n" +
			"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"1}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"
		conv, err = importer.Conversation([]byte(sseLine(`{"messages": [{"role": "user", "content": "q"}]}`, stream)), importer.FormatChatCompletionsLog)
		Expect(err).NotTo(HaveOccurred())
		Expect(conv).To(Equal([]string{`user: "q"`, `assistant: "" | call c1 get_logs {"n":1}`}))
	})

	// at is "t.jsonl:1:COL" of the first occurrence of marker in line.
	at := func(line, marker string) string {
		i := strings.Index(line, marker)
		Expect(i).To(BeNumerically(">=", 0), marker)
		return fmt.Sprintf("t.jsonl:1:%d: ", i+1)
	}
	DescribeTable("refuses a malformed stream on one line, at its place in the log",
		func(seed int, marker, want string) {
			_, err := importer.Conversation([]byte(sseSeeds[seed]), importer.FormatAuto)
			Expect(err).To(MatchError(at(sseSeeds[seed], marker) + want))
		},
		Entry("an Anthropic delta before its block starts", 1, `0,\"delta\"`,
			`response: the event stream: anthropic: stream: 5:45 (byte 185): event content_block_delta: index: content block 0 was not started`),
		Entry("an Anthropic event whose data is not JSON", 2, `:}}`,
			`response: the event stream: anthropic: stream: 2:49 (byte 69): event message_start: message.type: want a JSON value, got ':'`),
		Entry("an OpenAI stream cut before its finish_reason and [DONE]", 4, `"data: `,
			`response: the event stream: openai: stream: ended before a finish_reason or [DONE] (cut)`),
		Entry("an Anthropic message that is not the assistant's (told an Anthropic stream by its message_start)", 6, `"event: message_start`,
			`response (assembled from its event stream): response.role: want "assistant", got "user"`),
		Entry("an OpenAI chunk that is not JSON", 5, `{\"choices\":[{\"delta\"\n`,
			`response: the event stream, line 3: openai: stream chunk: unexpected end of JSON input`),
	)
})
