package importer_test

import (
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

// rolloutLine is a line of a Codex rollout: {"timestamp", "type",
// "payload"}.
func rolloutLine(typ, payload string) string {
	return `{"timestamp":"2026-11-27T21:37:25.000Z","type":"` + typ + `","payload":` + payload + `}`
}

// rollout is a rollout file of a session_meta line with instructions, then
// a response_item line per item.
func rollout(instructions string, items ...string) string {
	lines := []string{rolloutLine("session_meta", `{"id":"s1","cli_version":"0.169.0","base_instructions":{"text":"`+instructions+`"}}`)}
	for _, it := range items {
		lines = append(lines, rolloutLine("response_item", it))
	}
	return strings.Join(lines, "\n") + "\n"
}

// rolloutSeeds are rollouts, good and bad, for the fuzz targets.
var rolloutSeeds = []string{
	rollout("You are Codex.", `{"type":"message","role":"user","content":[{"type":"input_text","text":"q"}]}`,
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}]}`),
	rollout("", `{"type":"message","role":"user","content":"patch it"}`, `{"type":"reasoning","summary":[],"encrypted_content":"gAAA"}`,
		`{"type":"custom_tool_call","call_id":"c1","name":"apply_patch","input":"*** Begin Patch\n*** End Patch"}`,
		`{"type":"custom_tool_call_output","call_id":"c1","output":"`+strings.Repeat("Done!\\n", 3000)+`"}`,
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"patched"}]}`),
	rollout("s", `{"type":"message","role":"user","content":"q"}`, `{"type":"local_shell_call","call_id":"c1","status":"completed","action":{"type":"exec","command":["ls"]}}`,
		`{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"`+strings.Repeat("a.go\\n", 3000)+`"}]}`),
	rollout("s", `{"type":"message","role":"user","content":"q"}`, `{"type":"function_call_output","call_id":"nope","output":"x"}`),
	rollout("s", `{"type":"message","role":"user","content":"q"}`, `{"type":"item_reference","id":"msg_1"}`),
	rollout("s", `{"type":"message","role":"user","content":[{"type":"input_audio"}]}`),
	rolloutLine("session_meta", `[]`) + "\n",
	rolloutLine("response_item", `{"type":"message","role":"user","content":"q"}`) + "\n{\"type\":\"response_item\",\"payload\":{\"type\":}}\n",
}

var _ = Describe("Import of Codex rollout files", func() {
	o := importer.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "t.jsonl", At: -1}
	real := func() []byte {
		data, err := os.ReadFile("testdata/codex-rollout.jsonl")
		Expect(err).NotTo(HaveOccurred())
		return data
	}

	It("reads Codex 0.169.0's rollout of a codex exec run: base instructions, developer and user messages, a call and its 14 KB output, the answer", func() {
		data := real()
		Expect(importer.Detect(data)).To(Equal(importer.FormatCodexRollout))
		conv, err := importer.Conversation(data, importer.FormatAuto)
		Expect(err).NotTo(HaveOccurred())
		Expect(conv).To(HaveLen(7))
		Expect(conv[0]).To(HavePrefix(`system: "You are a coding agent running in the Codex CLI`))
		Expect(conv[1]).To(HavePrefix(`system: "<skills_instructions>`))
		Expect(conv[2]).To(HavePrefix(`user: "<environment_context>`))
		Expect(conv[3:5]).To(Equal([]string{`user: "How many lines does seq 1 3000 print? Run it to check."`,
			`assistant: "" | call call_1 exec_command {"cmd":"seq 1 3000","max_output_tokens":8000} | omitted reasoning`}))
		Expect(conv[5]).To(And(HavePrefix(`tool: "Chunk ID: `), HaveSuffix(`2999\n3000\n" | answers call_1`)))
		Expect(conv[6]).To(Equal(`assistant: "The command printed 3000 lines, the numbers 1 to 3000."`))
	})

	It("imports it into a scenario whose long system text and output are files beside it, the same bytes on every import", func() {
		files, err := importer.Import(real(), o)
		Expect(err).NotTo(HaveOccurred())
		var paths []string
		for _, f := range files {
			paths = append(paths, f.Path)
		}
		Expect(paths).To(Equal([]string{"scenarios/regress/x.msg5.txt", "scenarios/regress/x.system.txt", "scenarios/regress/x.yaml"}))
		Expect(string(files[1].Data)).To(And(HavePrefix("You are a coding agent running in the Codex CLI"), ContainSubstring("\n\n<skills_instructions>")))
		sc := string(scenarioOf(files))
		Expect(sc).To(ContainSubstring("message 5 is a 13998-byte result of exec_command, over the 12288-byte cap"))
		Expect(sc).To(ContainSubstring("  omitted:\n    - reasoning x1\n"))
		Expect(sc).To(ContainSubstring("  user: How many lines does seq 1 3000 print? Run it to check.\n  system:\n    file: x.system.txt\n"))
		Expect(sc).To(ContainSubstring("          name: exec_command\n          args:\n            cmd: seq 1 3000\n            max_output_tokens: 8000\n"))
		Expect(sc).To(ContainSubstring("  report: The command printed 3000 lines, the numbers 1 to 3000.\n"))
		again, err := importer.Import(real(), o)
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(files))
	})

	It("scripts a custom_tool_call as a custom call whose input is its free text", func() {
		sc := string(scenarioOf(mustImport(rolloutSeeds[1], o)))
		Expect(sc).To(ContainSubstring("        - id: c1\n          name: apply_patch\n          custom: true\n          input: |-\n            *** Begin Patch\n            *** End Patch\n"))
		Expect(sc).To(ContainSubstring("message 2 is a 18000-byte result of apply_patch"))
		Expect(sc).To(ContainSubstring("  omitted:\n    - reasoning x1\n"))
	})

	DescribeTable("maps each item onto chat messages",
		func(items []string, want []string) {
			conv, err := importer.Conversation([]byte(rollout("", items...)), importer.FormatCodexRollout)
			Expect(err).NotTo(HaveOccurred())
			Expect(conv).To(Equal(want))
		},
		Entry("a developer message is a system message; a message without a type is a message; text parts of a user message one a line",
			[]string{`{"type":"message","role":"developer","content":[{"type":"input_text","text":"be brief"}]}`,
				`{"role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"},{"type":"input_image","image_url":"data:x"}]}`},
			[]string{`system: "be brief"`, `user: "a\nb\n[image not imported]" | omitted image`}),
		Entry("the assistant's items in a row are one turn: its commentary, its reasoning, its calls",
			[]string{`{"type":"message","role":"user","content":"q"}`,
				`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Let me look."}]}`,
				`{"type":"reasoning","summary":[],"encrypted_content":"gAAA"}`,
				`{"type":"function_call","call_id":"c1","name":"exec_command","arguments":"{\"cmd\":\"ls\"}"}`,
				`{"type":"custom_tool_call","call_id":"c2","name":"apply_patch","input":"*** Begin Patch"}`,
				`{"type":"function_call_output","call_id":"c1","output":"a.go"}`,
				`{"type":"custom_tool_call_output","call_id":"c2","output":"Done!"}`},
			[]string{`user: "q"`, `assistant: "Let me look." | call c1 exec_command {"cmd":"ls"} | call c2 apply_patch *** Begin Patch | omitted reasoning`,
				`tool: "a.go" | answers c1`, `tool: "Done!" | answers c2`}),
		Entry("other calls the agent runs are named by their type, their members the arguments; an output's parts or JSON is its text",
			[]string{`{"type":"message","role":"user","content":"q"}`,
				`{"type":"local_shell_call","id":"ls_1","call_id":"c1","status":"completed","action":{"type":"exec","command":["ls","-l"]}}`,
				`{"type":"shell_call","call_id":"c2","action":{"commands":["pwd"]}}`,
				`{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]}`,
				`{"type":"shell_call_output","call_id":"c2","output":[{"stdout":"/w\n","stderr":"","outcome":{"type":"exit","exit_code":0}}]}`},
			[]string{`user: "q"`, `assistant: "" | call c1 local_shell {"action":{"type":"exec","command":["ls","-l"]}} | call c2 shell {"action":{"commands":["pwd"]}}`,
				`tool: "ab" | answers c1`, `tool: "[{\"stdout\":\"/w\\n\",\"stderr\":\"\",\"outcome\":{\"type\":\"exit\",\"exit_code\":0}}]" | answers c2`}),
		Entry("the provider's own tool calls, compaction and ghost snapshots are counted, not replayed",
			[]string{`{"type":"message","role":"user","content":"q"}`,
				`{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search","query":"go"}}`,
				`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Found."},{"type":"output_text","text":" It is."}]}`,
				`{"type":"ghost_snapshot","ghost_commit":{"id":"abc"}}`, `{"type":"compaction","encrypted_content":"gAAA"}`,
				`{"type":"message","role":"user","content":"more"}`},
			[]string{`user: "q"`, `assistant: "Found. It is." | omitted web_search_call`, `user: "more" | omitted ghost_snapshot compaction`}),
	)

	It("skips what Codex showed or decided (event_msg, turn_context, other lines), and counts a compacted line on the next message", func() {
		trace := rolloutLine("session_meta", `{"instructions":"old"}`) + "\n" + rolloutLine("turn_context", `{"cwd":"/w"}`) + "\n\n" +
			rolloutLine("response_item", `{"type":"message","role":"user","content":"q"}`) + "\n" +
			rolloutLine("event_msg", `{"type":"agent_message","message":"hi"}`) + "\n" + `{"type":"world_state","payload":null}` + "\n" +
			rolloutLine("compacted", `{"message":"summary"}`) + "\n" +
			rolloutLine("response_item", `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}`) + "\n"
		conv, err := importer.Conversation([]byte(trace), importer.FormatAuto)
		Expect(err).NotTo(HaveOccurred())
		Expect(conv).To(Equal([]string{`system: "old"`, `user: "q"`, `assistant: "hi" | omitted compacted`}))
	})

	DescribeTable("refuses a rollout on one line at the line:col of the problem",
		func(trace, marker, want string) { expectRefusedAt(trace, importer.FormatCodexRollout, marker, want) },
		Entry("a line that is not JSON", rolloutSeeds[7], `t.jsonl:2:43: `, `unexpected '}'`),
		Entry("a payload that is not an object", rolloutSeeds[6], `[]}`, `line 1: field payload: want an object, got a list`),
		Entry("an output that answers no call", rolloutSeeds[3], `"nope"`, `payload.call_id: "nope" answers no call of an earlier item`),
		Entry("an item_reference", rolloutSeeds[4], `"item_reference"`, `payload.type: an item_reference names an item the provider stored, which the log does not hold`),
		Entry("a content part it does not read", rolloutSeeds[5], `"input_audio"`,
			`payload.content[0].type: content part "input_audio" is not imported (input_text, output_text and refusal are; input_image and input_file become placeholders)`),
		Entry("an unknown item type", rollout("", `{"type":"message","role":"user","content":"q"}`, `{"type":"hologram"}`), `"hologram"`,
			`payload.type: item type "hologram" is not imported (messages, *_call and *_call_output items are; reasoning, compaction and the provider's own tool calls are left out)`),
		Entry("a call without its call_id", rollout("", `{"type":"message","role":"user","content":"q"}`, `{"type":"function_call","name":"t","arguments":"{}"}`),
			`{"type":"function_call"`, `payload: field call_id: missing; want a string, the id its output answers`),
		Entry("a message of another role", rollout("", `{"type":"message","role":"tool","content":"q"}`), `"tool"`,
			`payload.role: want "user", "assistant", "developer" or "system", got "tool"`),
		Entry("a line without a type", rollout("")+`{"payload":{}}`+"\n", `{"payload"`, `line 2: field type: missing; want a string`),
		Entry("a rollout with no item", rollout(""), `{`, `no response_item line: a rollout's conversation is its response_item payloads`),
		Entry("a byte that is not UTF-8", rollout("", "{\"type\":\"message\",\"role\":\"user\",\"content\":\"q\xff\"}"), "\xff", `invalid UTF-8 (byte 0xff): a trace is UTF-8 JSON`),
	)
})
