package importer_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

// respCall is a line of a Responses log.
func respCall(request, response string) string {
	return `{"request":` + request + `,"response":` + response + `}`
}

// respSeeds are Responses logs, good and bad, for the fuzz targets.
var respSeeds = []string{
	respCall(`{"model":"m","instructions":"s","input":"q"}`, `{"id":"r1","object":"response","status":"completed","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}]}]}`),
	respCall(`{"input":[{"role":"user","content":"q"}]}`, `{"id":"r1","output":[{"type":"function_call","call_id":"c1","name":"t","arguments":"{}"}]}`) + "\n" +
		respCall(`{"previous_response_id":"r1","input":[{"type":"function_call_output","call_id":"c1","output":"`+strings.Repeat("row\\n", 4000)+`"}]}`,
			`{"status_code":200,"body":{"id":"r2","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}]}}`),
	respCall(`{"input":"q"}`, `{"status":"failed","output":[],"error":{"code":"server_error"}}`),
	respCall(`{"input":[{"role":"user","content":"q"},{"role":"assistant","content":"pre"}]}`, `{"output":[]}`),
	respCall(`{"previous_response_id":"r0","input":"q"}`, `{"output":[]}`),
	respCall(`{"input":"q"}`, `{"output":[{"type":"function_call_output","call_id":"c1","output":"x"}]}`),
	"[" + respCall(`{"input":"q"}`, `{"output":[{"type":"message","role":"assistant","content":"a"}]}`) + "]",
	respStreamCall(`{"input":"q"}`, "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r1\",\"output\":[]}}\n\n"+
		"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"<tool_call>{\\\"name\\\":\\\"t\\\",\\\"arguments\\\":{}}</tool_call>\"}]}}\n\n"+
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r1\",\"status\":\"completed\",\"output\":[]}}\n\n"),
	respStreamCall(`{"input":"q"}`, "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r1\",\"output\":[]}}\n\n"),
	respStreamCall(`{"input":"q"}`, "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r1\",\"output\":[]}}\n\nevent: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"output\":[{\"type\"::}]}}\n\n"),
	respStreamCall(`{"input":"q"}`, "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"output\":[{\"type\":\"message\",\"role\":\"user\",\"content\":\"x\"}]}}\n\n"),
}

// respStreamCall is a line of a Responses log whose response is the text
// of its event stream.
func respStreamCall(request, stream string) string {
	text, _ := json.Marshal(stream)
	return respCall(request, string(text))
}

var _ = Describe("Import of Responses API logs", func() {
	o := importer.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "t.jsonl", At: -1}
	testdata := func(name string) []byte {
		data, err := os.ReadFile("testdata/" + name)
		Expect(err).NotTo(HaveOccurred())
		return data
	}

	It("imports the Responses log of a codex exec run, responses whole, into the scenario its rollout imports into, but for the system text", func() {
		log := wholeLog(testdata("codex-responses-log.jsonl"))
		Expect(bytes.Count(log, []byte("\n"))).To(Equal(2))
		Expect(importer.Detect(log)).To(Equal(importer.FormatResponsesLog))
		got, err := importer.Import(log, o)
		Expect(err).NotTo(HaveOccurred())
		rollout := testdata("codex-rollout.jsonl")
		want, err := importer.Import(rollout, o)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(HaveLen(len(want)))
		for i := range want {
			Expect(got[i].Path).To(Equal(want[i].Path))
			if strings.HasSuffix(want[i].Path, ".system.txt") {
				// The rollout records the base instructions Codex resolved
				// when the session started (20,903 bytes); the request
				// carried 17,119 of them (without its "## Planning" section: the
				// request offers no update_plan tool), as a developer message;
				// then the developer and user messages (2,124 and 362 bytes,
				// 13 more once their home folders are redacted).
				Expect(len(want[i].Data)).To(Equal(20903 + len("\n\n") + 2124 + len("\n") + 362 + 13))
				Expect(len(got[i].Data)).To(Equal(17119 + len("\n\n") + 2124 + len("\n") + 362 + 13))
				Expect(string(got[i].Data[:4000])).To(Equal(string(want[i].Data[:4000])))
				continue
			}
			Expect(string(got[i].Data)).To(Equal(strings.Replace(string(want[i].Data), sha(string(rollout)), sha(string(log)), 1)))
		}
	})

	It("imports the Responses log of a codex exec run as captured, each response the event stream Codex read, into the scenario of its responses whole", func() {
		captured := testdata("codex-responses-log.jsonl")
		Expect(importer.Detect(captured)).To(Equal(importer.FormatResponsesLog))
		got, err := importer.Import(captured, o)
		Expect(err).NotTo(HaveOccurred())
		whole := wholeLog(captured)
		want, err := importer.Import(whole, o)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(HaveLen(len(want)))
		for i := range want {
			Expect(got[i].Path).To(Equal(want[i].Path))
			Expect(string(got[i].Data)).To(Equal(strings.Replace(string(want[i].Data), sha(string(whole)), sha(string(captured)), 1)))
		}
	})

	It("reads Codex 0.171.0's two captured requests and the streams they were answered with (core/gateway/responses/testdata/codex) as a log", func() {
		var log []byte
		for _, turn := range []string{"turn1", "turn2"} {
			req, err := os.ReadFile("../../core/gateway/responses/testdata/codex/" + turn + "-request.json")
			Expect(err).NotTo(HaveOccurred())
			stream, err := os.ReadFile("../../core/gateway/responses/testdata/codex/" + turn + "-response.sse")
			Expect(err).NotTo(HaveOccurred())
			var compact bytes.Buffer
			Expect(json.Compact(&compact, req)).To(Succeed())
			log = append(log, respStreamCall(compact.String(), string(stream))+"\n"...)
		}
		conv, err := importer.Conversation(log, importer.FormatAuto)
		Expect(err).NotTo(HaveOccurred())
		Expect(conv).To(HaveLen(7))
		Expect(conv[0]).To(HavePrefix(`system: "You are a coding agent running in the Codex CLI`))
		Expect(conv[3:]).To(Equal([]string{`user: "Run echo toolout-codex-check and tell me what it printed"`,
			`assistant: "" | call call_0 exec_command {"cmd":"echo toolout-codex-check"}`,
			`tool: "` + conv[5][len(`tool: "`):],
			`assistant: "The command printed toolout-codex-check."`}))
		Expect(conv[5]).To(And(ContainSubstring(`toolout-codex-check\n`), HaveSuffix(`" | answers call_0`)))
	})

	DescribeTable("maps each call's instructions, input and output onto chat messages",
		func(log string, want []string) {
			conv, err := importer.Conversation([]byte(log), importer.FormatAuto)
			Expect(err).NotTo(HaveOccurred())
			Expect(conv).To(Equal(want))
		},
		Entry("instructions are a first system message, an input string the user's message", respSeeds[0],
			[]string{`system: "s"`, `user: "q"`, `assistant: "<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"`}),
		Entry("a call that names its previous response continues that history; a response wrapped as {status_code, body}", respSeeds[1],
			[]string{`user: "q"`, `assistant: "" | call c1 t {}`, `tool: "` + strings.Repeat(`row\n`, 4000) + `" | answers c1`, `assistant: "done"`}),
		Entry("a JSON list of calls", respSeeds[6], []string{`user: "q"`, `assistant: "a"`}),
		Entry("the Batch API's lines: the request under body, the response wrapped",
			`{"custom_id":"1","method":"POST","url":"/v1/responses","body":{"input":"q"},"response":{"status_code":200,"body":{"output":[{"type":"message","role":"assistant","content":"a"}]}}}`,
			[]string{`user: "q"`, `assistant: "a"`}),
		Entry("a response as its event stream, its output rebuilt from output_item.done when the terminal event's is empty", respSeeds[7],
			[]string{`user: "q"`, `assistant: "<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"`}),
		Entry("the instructions of a call that names its previous response replace the earlier ones, as the API does",
			respCall(`{"instructions":"one","input":"q"}`, `{"id":"r1","output":[{"type":"message","role":"assistant","content":"a"}]}`)+"\n"+
				respCall(`{"instructions":"two","previous_response_id":"r1","input":"more"}`, `{"id":"r2","output":[{"type":"reasoning","summary":[]},{"type":"message","role":"assistant","content":"b"}]}`),
			[]string{`system: "two"`, `user: "q"`, `assistant: "a"`, `user: "more"`, `assistant: "b" | omitted reasoning`}),
	)

	DescribeTable("refuses a log on one line at the line:col of the problem",
		func(log, marker, want string) { expectRefusedAt(log, importer.FormatResponsesLog, marker, want) },
		Entry("a failed call", respSeeds[2], `"failed"`, `response.status: "failed": a log replays the calls that were answered`),
		Entry("a request that ends with the assistant's turn", respSeeds[3], `{"role":"assistant"`,
			`request.input[1]: the request ends with the assistant's turn, which its reply would continue: a log replays whole turns`),
		Entry("a previous_response_id the log does not hold", respSeeds[4], `"r0"`,
			`request.previous_response_id: "r0" names no response of an earlier call of the log: its history is held by the provider`),
		Entry("an output that is not the model's", respSeeds[5], `{"type":"function_call_output"`, `response.output[0]: a tool item in the output: a response holds the model's items`),
		Entry("a call whose input does not extend the one before it",
			respCall(`{"input":"q"}`, `{"output":[{"type":"message","role":"assistant","content":"a"}]}`)+"\n"+
				respCall(`{"input":[{"role":"user","content":"q"},{"role":"assistant","content":"b"},{"role":"user","content":"c"}]}`, `{"output":[{"type":"message","role":"assistant","content":"d"}]}`),
			`{"role":"assistant","content":"b"}`, `request.input[1] differs from line 1's reply: each call's request extends the one before it`),
		Entry("an input of another kind", respCall(`{"input":5}`, `{"output":[]}`), `5}`, `request.input: want a string or a list of items, got a number`),
		Entry("an event stream cut before its terminal event (at the string's end)", respSeeds[8], `t.jsonl:1:147: `,
			`response: the event stream: responses: stream: 4:1 (byte 94): the stream ended before response.completed (cut)`),
		Entry("an event whose data is not JSON", respSeeds[9], `:}]`,
			`response: the event stream: responses: stream: 5:66 (byte 185): event response.completed: data: invalid JSON: unexpected ":"`),
		Entry("an assembled response whose output is not the model's", respSeeds[10], `"event: `,
			`response (assembled from its event stream): response.output[0]: a user item in the output: a response holds the model's items`),
		Entry("a response without its output", respCall(`{"input":"q"}`, `{"id":"r"}`), `{"id"`, `response: field output: missing; want a list of items`),
	)
})
