package importer_test

import (
	"bytes"
	"fmt"
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
				// request offers no update_plan tool), as a developer message.
				Expect(len(want[i].Data)).To(Equal(20903 + len("\n\n") + 2124 + len("\n") + 362))
				Expect(len(got[i].Data)).To(Equal(17119 + len("\n\n") + 2124 + len("\n") + 362))
				Expect(string(got[i].Data[:4000])).To(Equal(string(want[i].Data[:4000])))
				continue
			}
			Expect(string(got[i].Data)).To(Equal(strings.Replace(string(want[i].Data), sha(string(rollout)), sha(string(log)), 1)))
		}
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
		Entry("the instructions of a call that names its previous response replace the earlier ones, as the API does",
			respCall(`{"instructions":"one","input":"q"}`, `{"id":"r1","output":[{"type":"message","role":"assistant","content":"a"}]}`)+"\n"+
				respCall(`{"instructions":"two","previous_response_id":"r1","input":"more"}`, `{"id":"r2","output":[{"type":"reasoning","summary":[]},{"type":"message","role":"assistant","content":"b"}]}`),
			[]string{`system: "two"`, `user: "q"`, `assistant: "a"`, `user: "more"`, `assistant: "b" | omitted reasoning`}),
	)

	at := func(log, marker string) string {
		i := strings.Index(log, marker)
		Expect(i).To(BeNumerically(">=", 0), marker)
		line := strings.Count(log[:i], "\n") + 1
		return fmt.Sprintf("t.jsonl:%d:%d: ", line, i-strings.LastIndex(log[:i], "\n"))
	}
	DescribeTable("refuses a log on one line at the line:col of the problem",
		func(log, marker, want string) {
			_, err := importer.Conversation([]byte(log), importer.FormatResponsesLog)
			Expect(err).To(MatchError(at(log, marker) + want))
		},
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
		Entry("a response without its output", respCall(`{"input":"q"}`, `{"id":"r"}`), `{"id"`, `response: field output: missing; want a list of items`),
	)
})
