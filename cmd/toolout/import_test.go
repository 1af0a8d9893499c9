package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/harness/importer"
)

// sha256Hex is the hex SHA-256 of b, as a scenario's provenance records
// its trace.
func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

var _ = Describe("toolout import", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	// importTrace writes the messages as a trace, one per line, and imports
	// it into dir.
	importTrace := func(msgs ...string) (code int, stdout, stderr, trace string) {
		trace = filepath.Join(dir, "trace.json")
		Expect(os.WriteFile(trace, []byte("[\n  "+strings.Join(msgs, ",\n  ")+"\n]\n"), 0o644)).To(Succeed())
		code, stdout, stderr = invoke("", "import", trace, "-o", filepath.Join(dir, "out", "x.yaml"))
		return code, stdout, stderr, trace
	}
	call := `{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "t", "arguments": "{}"}}]}`
	result := `{"role": "tool", "tool_call_id": "zz", "name": "t", "content": "` + strings.Repeat(`row\n`, 4000) + `"}`

	It("refuses a result whose tool_call_id matches no call, naming the trace as given and the line:col, and writes nothing", func() {
		code, stdout, stderr, trace := importTrace(`{"role": "user", "content": "q"}`, call, result, `{"role": "assistant", "content": "done"}`)
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout import: " + trace + `:4:36: message 2: tool_call_id "zz" matches no tool call of an earlier assistant message` + "\n"))
		Expect(filepath.Join(dir, "out")).NotTo(BeADirectory())
	})

	It("refuses a trace with no user message at its start", func() {
		code, _, stderr, trace := importTrace(`{"role": "system", "content": "s"}`,
			`{"role": "assistant", "content": "<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}`)
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout import: " + trace + ":1:1: no user message (other than TURN-FAILED retries): a session starts from the user's question\n"))
	})

	It("names the line:col of a JSON syntax error and of a byte that is not UTF-8", func() {
		code, _, stderr, trace := importTrace(`{"role": "user", "content": "q"},`)
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout import: " + trace + ":3:1: unexpected ']'\n"))
		code, _, stderr, trace = importTrace("{\"role\": \"user\", \"content\": \"caf\xe9\"}")
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout import: " + trace + ":2:35: invalid UTF-8 (byte 0xe9): a trace is UTF-8 JSON\n"))
	})
	It("reads at most --max-input of the trace, and refuses standard input", func() {
		_, _, _, trace := importTrace(`{"role": "user", "content": "q"}`, call, result)
		code, stdout, stderr := invoke("", "import", trace, "--max-input", "1KiB", "-o", filepath.Join(dir, "out", "x.yaml"))
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout import: " + trace + ": input exceeds the limit of 1KiB (1024 bytes); raise it with --max-input\n"))
		Expect(filepath.Join(dir, "out")).NotTo(BeADirectory())
		code, _, stderr = invoke("[]", "import", "-")
		Expect(code).To(Equal(2))
		Expect(stderr).To(HavePrefix("toolout import: want a TRACE.json file, not standard input"))
	})

	It("refuses a trace over the default 128 MiB from its size, before reading it, and leaves the runtime's memory limit as it was", func() {
		// A sparse file: 129 MiB that take no disk and, read, would take
		// 129 MiB of memory; refused from its size, they are never read.
		big := filepath.Join(dir, "big.json")
		Expect(os.WriteFile(big, nil, 0o644)).To(Succeed())
		Expect(os.Truncate(big, 129<<20)).To(Succeed())
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		code, stdout, stderr := invoke("", "import", big, "-o", filepath.Join(dir, "out", "x.yaml"))
		runtime.ReadMemStats(&after)
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout import: " + big + ": input exceeds the limit of 128MiB (134217728 bytes); raise it with --max-input\n"))
		Expect(after.TotalAlloc - before.TotalAlloc).To(BeNumerically("<", 16<<20))

		limit := debug.SetMemoryLimit(-1)
		code, _, stderr = invoke("", "import", "../../scenarios/regress/traces/leaked-tools.json", "--at", "3", "-o", filepath.Join(dir, "out", "x.yaml"))
		Expect(code).To(Equal(0), stderr)
		Expect(debug.SetMemoryLimit(-1)).To(Equal(limit))
	})

	It("reads a chat completions log, told from its content or named with --format, and names the line:col of a bad line", func() {
		line := `{"request": {"messages": [{"role": "user", "content": "q"}]}, "response": {"choices": [{"message": {"role": "assistant", "content": "<tool_call>{\"name\": \"t\", \"arguments\": {}}</tool_call>"}}]}}`
		trace := filepath.Join(dir, "log.jsonl")
		Expect(os.WriteFile(trace, []byte(line+"\n"+`{"request": {}}`+"\n"), 0o644)).To(Succeed())
		code, stdout, stderr := invoke("", "import", trace, "-o", filepath.Join(dir, "out", "x.yaml"))
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout import: " + trace + `:2:1: want an LLM call, {"request": ..., "response": ...}: no "response"` + "\n"))
		Expect(os.WriteFile(trace, []byte(line+"\n"), 0o644)).To(Succeed())
		code, _, stderr = invoke("", "import", trace, "--format", "messages", "-o", filepath.Join(dir, "out", "x.yaml"))
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout import: " + trace + ":1:1: want a list of messages, bare or under \"messages\"\n"))
		code, stdout, stderr = invoke("", "import", trace, "--format", "chat-completions-log", "-o", filepath.Join(dir, "out", "x.yaml"))
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("wrote " + filepath.Join(dir, "out", "x.yaml")))
		code, _, stderr = invoke("", "import", trace, "--format", "har")
		Expect(code).To(Equal(2))
		Expect(stderr).To(HavePrefix("toolout import: --format har: want one of " + strings.Join(importer.FormatNames(), ", ") + "\n"))
	})

	It("reads an Anthropic Messages log, told from its content or named with --format, and names the line:col of a bad block", func() {
		request := `{"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": "q"}]}`
		line := `{"request": ` + request + `, "response": {"type": "message", "role": "assistant", "content": [{"type": "thinking", "thinking": "t", "signature": "s"}, {"type": "text", "text": "<tool_call>{\"name\": \"t\", \"arguments\": {}}</tool_call>"}]}}`
		trace := filepath.Join(dir, "anthropic.jsonl")
		Expect(os.WriteFile(trace, []byte(line+"\n"), 0o644)).To(Succeed())
		out := filepath.Join(dir, "out", "x.yaml")
		code, stdout, stderr := invoke("", "import", trace, "-o", out)
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(Equal("wrote " + out + "\nwrote " + filepath.Join(dir, "out", "x-leaked.yaml") + "\n"))
		written, err := os.ReadFile(out)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(written)).To(ContainSubstring("  omitted:\n    - thinking x1\n"))
		code, stdout, _ = invoke("", "import", trace, "--format", "anthropic-messages", "-o", out)
		Expect(code).To(Equal(0))
		Expect(stdout).To(HavePrefix("unchanged " + out + "\n"))
		code, _, stderr = invoke("", "import", trace, "--format", "chat-completions-log", "-o", out)
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout import: " + trace + ":1:125: field response.choices: missing\n"))

		bad := strings.Replace(line, `{"type": "thinking"`, `{"type": "server_tool_use"`, 1)
		Expect(os.WriteFile(trace, []byte(line+"\n"+bad+"\n"), 0o644)).To(Succeed())
		code, stdout, stderr = invoke("", "import", trace, "-o", filepath.Join(dir, "bad", "x.yaml"))
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(HavePrefix("toolout import: " + trace + `:2:187: response.content[0].type: block type "server_tool_use" is not imported`))
		Expect(filepath.Join(dir, "bad")).NotTo(BeADirectory())
	})

	It("reads OpenTelemetry GenAI spans, told from the content or named with --format, and names the line:col inside the JSON a string holds", func() {
		out := filepath.Join(dir, "out", "o.yaml")
		for _, format := range []string{"auto", "otel-genai"} {
			code, stdout, stderr := invoke("", "import", "../../scenarios/regress/traces/otel-genai.json", "--format", format, "-o", out)
			Expect(code).To(Equal(0), stderr)
			Expect(stdout).To(HaveSuffix("o.yaml\n"))
			data, err := os.ReadFile(out)
			Expect(err).NotTo(HaveOccurred())
			committed, err := os.ReadFile("../../scenarios/regress/otel-genai-at3.yaml")
			Expect(err).NotTo(HaveOccurred())
			Expect(string(data)).To(Equal(strings.ReplaceAll(string(committed), "otel-genai-at3.msg3.txt", "o.msg3.txt")))
		}
		trace := filepath.Join(dir, "spans.json")
		Expect(os.WriteFile(trace, []byte(`{"resourceSpans": [{"scopeSpans": [{"spans": [{"attributes": [`+"\n"+
			`{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}}, {"key": "gen_ai.output.messages", "value": {"stringValue": "[]"}},`+"\n"+
			`{"key": "gen_ai.input.messages", "value": {"stringValue": "[{\"role\": \"user\", \"parts\": [{\"type\": \"text\", \"content\": \"\\u00e9t\\u00e9\"}}]"}}]}]}]}]}`), 0o644)).To(Succeed())
		code, stdout, stderr := invoke("", "import", trace, "-o", out+".x.yaml")
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout import: " + trace + ":3:148: gen_ai.input.messages: the JSON in the string: want ',' or ']'\n"))
	})

	It("writes a long system prompt and user message beside the scenario, which loads them and passes", func() {
		system, user := strings.Repeat("You are an agent. ", 300), "Count the rows. "+strings.Repeat("Context line. ", 400)
		code, _, stderr, _ := importTrace(`{"role": "system", "content": "`+system+`"}`, `{"role": "user", "content": "`+user+`"}`, call,
			strings.Replace(result, `"zz"`, `"c1"`, 1), `{"role": "assistant", "content": "done"}`)
		Expect(code).To(Equal(0), stderr)
		scenario, err := os.ReadFile(filepath.Join(dir, "out", "x.yaml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(scenario)).To(ContainSubstring("  user:\n    file: x.msg1.txt\n  system:\n    file: x.system.txt\n"))
		Expect(os.ReadFile(filepath.Join(dir, "out", "x.system.txt"))).To(Equal([]byte(system)))
		// its first run writes its golden (--update: CI=true, as .ci/run
		// sets it, creates none), the next compares with it
		code, stdout, stderr := invoke("", "test", "--update", filepath.Join(dir, "out", "x.yaml"))
		Expect(code).To(Equal(0), stdout+stderr)
		code, stdout, stderr = invoke("", "test", filepath.Join(dir, "out", "x.yaml"))
		Expect(code).To(Equal(0), stdout+stderr)
	})

	DescribeTable("imports an instrumentation's un-parented trace, spans and logs in two files, into a scenario that passes on its first run",
		func(inst string) {
			spans, logs := "../../harness/importer/testdata/otel-"+inst+"-spans.json", "../../harness/importer/testdata/otel-"+inst+"-logs.json"
			out := filepath.Join(dir, "scenarios", "regress", inst+".yaml")
			code, stdout, stderr := invoke("", "import", spans, logs, "-o", out, "--update")
			Expect(code).To(Equal(0), stdout+stderr)
			Expect(stdout).To(Equal("wrote " + filepath.Join(dir, "scenarios", "regress", inst+".msg3.txt") + "\nwrote " + out + "\n" +
				"ok   regress/" + inst + "\n     created golden/regress/" + inst + ".txtar\n1 passed, 0 failed\n"))
			scenario, err := os.ReadFile(out)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(scenario)).To(ContainSubstring("  trace: otel-" + inst + "-spans.json, otel-" + inst + "-logs.json\n"))
			code, stdout, stderr = invoke("", "test", out)
			Expect(code).To(Equal(0), stdout+stderr)
			Expect(stdout).To(Equal("ok   regress/" + inst + "\n1 passed, 0 failed\n"))
		},
		Entry("@opentelemetry/instrumentation-openai 0.22.0", "official"),
		Entry("@traceloop/node-server-sdk 0.27.0", "traceloop"),
		Entry("@arizeai/openinference-instrumentation-openai 4.2.7", "openinference"),
	)

	It("imports Claude Code's log with its responses as the event streams it reads, into a scenario that passes on its first run", func() {
		plain, err := os.ReadFile("../../scenarios/regress/traces/claude-code.jsonl")
		Expect(err).NotTo(HaveOccurred())
		var log []byte
		for _, line := range bytes.Split(bytes.TrimSpace(plain), []byte("\n")) {
			var call struct{ Request, Response json.RawMessage }
			Expect(json.Unmarshal(line, &call)).To(Succeed())
			stream, err := anthropic.StreamOf(call.Response)
			Expect(err).NotTo(HaveOccurred())
			text, err := json.Marshal(string(stream))
			Expect(err).NotTo(HaveOccurred())
			log = append(log, []byte(`{"request":`+string(call.Request)+`,"response":`+string(text)+"}\n")...)
		}
		trace := filepath.Join(dir, "streamed", "claude-code.jsonl")
		Expect(os.MkdirAll(filepath.Dir(trace), 0o755)).To(Succeed())
		Expect(os.WriteFile(trace, log, 0o644)).To(Succeed())
		out := filepath.Join(dir, "scenarios", "regress", "cc.yaml")
		code, stdout, stderr := invoke("", "import", trace, "-o", out, "--update")
		Expect(code).To(Equal(0), stdout+stderr)
		Expect(stdout).To(HaveSuffix("ok   regress/cc\n     created golden/regress/cc.txtar\n1 passed, 0 failed\n"))
		code, stdout, stderr = invoke("", "import", "../../scenarios/regress/traces/claude-code.jsonl", "-o", filepath.Join(dir, "plain", "cc.yaml"))
		Expect(code).To(Equal(0), stderr)
		streamed, err := os.ReadFile(out)
		Expect(err).NotTo(HaveOccurred())
		same, err := os.ReadFile(filepath.Join(dir, "plain", "cc.yaml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(streamed)).To(Equal(strings.Replace(string(same), sha256Hex(plain), sha256Hex(log), 1)))
	})

	DescribeTable("imports a real Codex run, its rollout file and its Responses log, into scenarios that pass on their first run and the next",
		func(name string, rewrite func([]byte) []byte) {
			data, err := os.ReadFile("../../harness/importer/testdata/" + name)
			Expect(err).NotTo(HaveOccurred())
			trace := filepath.Join(dir, name)
			Expect(os.WriteFile(trace, rewrite(data), 0o644)).To(Succeed())
			reg := filepath.Join(dir, "scenarios", "regress")
			out := filepath.Join(reg, "codex.yaml")
			code, stdout, stderr := invoke("", "import", trace, "-o", out, "--update")
			Expect(code).To(Equal(0), stdout+stderr)
			Expect(stdout).To(Equal("wrote " + filepath.Join(reg, "codex.msg5.txt") + "\nwrote " + filepath.Join(reg, "codex.system.txt") + "\nwrote " + out + "\n" +
				"ok   regress/codex\n     created golden/regress/codex.txtar\n1 passed, 0 failed\n"))
			scenario, err := os.ReadFile(out)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(scenario)).To(ContainSubstring("message 5 is a 13998-byte result of exec_command"))
			Expect(string(scenario)).To(ContainSubstring("  omitted:\n    - reasoning x1\n"))
			code, stdout, stderr = invoke("", "test", out)
			Expect(code).To(Equal(0), stdout+stderr)
			Expect(stdout).To(Equal("ok   regress/codex\n1 passed, 0 failed\n"))
		},
		Entry("the rollout Codex 0.169.0 wrote", "codex-rollout.jsonl", func(b []byte) []byte { return b }),
		Entry("the Responses log as captured, each response the event stream Codex read", "codex-responses-log.jsonl", func(b []byte) []byte { return b }),
		Entry("the Responses log, responses whole", "codex-responses-log.jsonl", wholeResponses),
	)

	It("imports a rollout's custom tool call (Codex's apply_patch) as a custom call, into a scenario that passes on its first run", func() {
		line := func(typ, payload string) string {
			return `{"timestamp": "2026-11-27T21:37:25.000Z", "type": "` + typ + `", "payload": ` + payload + "}\n"
		}
		trace := filepath.Join(dir, "rollout.jsonl")
		Expect(os.WriteFile(trace, []byte(line("session_meta", `{"base_instructions": {"text": "You are Codex."}}`)+
			line("response_item", `{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Fix the typo."}]}`)+
			line("response_item", `{"type": "custom_tool_call", "call_id": "call_1", "name": "apply_patch", "input": "*** Begin Patch\n*** Update File: a.txt\n-teh\n+the\n*** End Patch"}`)+
			line("response_item", `{"type": "custom_tool_call_output", "call_id": "call_1", "output": "`+strings.Repeat(`Success. Updated the following files:\nM a.txt\n`, 400)+`"}`)+
			line("response_item", `{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Fixed."}]}`)), 0o644)).To(Succeed())
		out := filepath.Join(dir, "scenarios", "regress", "patch.yaml")
		code, stdout, stderr := invoke("", "import", trace, "-o", out, "--update")
		Expect(code).To(Equal(0), stdout+stderr)
		Expect(stdout).To(HaveSuffix("ok   regress/patch\n     created golden/regress/patch.txtar\n1 passed, 0 failed\n"))
		scenario, err := os.ReadFile(out)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(scenario)).To(ContainSubstring("          name: apply_patch\n          custom: true\n          input: |-\n            *** Begin Patch\n"))
	})

	It("names the line:col of a rollout's or a Responses log's problem, told from the content or with --format", func() {
		trace := filepath.Join(dir, "rollout.jsonl")
		meta := `{"timestamp": "2026-11-27T21:37:25.000Z", "type": "session_meta", "payload": {"base_instructions": {"text": "s"}}}`
		item := `{"timestamp": "2026-11-27T21:37:25.000Z", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c9", "output": "x"}}`
		Expect(os.WriteFile(trace, []byte(meta+"\n"+item+"\n"), 0o644)).To(Succeed())
		code, stdout, stderr := invoke("", "import", trace, "-o", filepath.Join(dir, "out", "x.yaml"))
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout import: " + trace + `:2:123: payload.call_id: "c9" answers no call of an earlier item` + "\n"))
		code, _, stderr = invoke("", "import", trace, "--format", "responses-log", "-o", filepath.Join(dir, "out", "x.yaml"))
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout import: " + trace + ":1:1: line 1: field request: missing; want an object\n"))
		log := filepath.Join(dir, "responses.jsonl")
		Expect(os.WriteFile(log, []byte(`{"request": {"input": "q"}, "response": {"status": "failed", "output": []}}`+"\n"), 0o644)).To(Succeed())
		code, _, stderr = invoke("", "import", log, "--format", "responses-log", "-o", filepath.Join(dir, "out", "x.yaml"))
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout import: " + log + `:1:52: response.status: "failed": a log replays the calls that were answered` + "\n"))
	})

	It("lists the conversations of a trace that holds several, and imports the one --trace-id names", func() {
		spans := "../../harness/importer/testdata/otel-official-spans.json"
		other := filepath.Join(dir, "other-spans.json")
		data, err := os.ReadFile("../../harness/importer/testdata/otel-traceloop-spans.json")
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(other, []byte(strings.ReplaceAll(string(data), "Count ERROR", "Count INFO")), 0o644)).To(Succeed())
		code, stdout, stderr := invoke("", "import", spans, "../../harness/importer/testdata/otel-official-logs.json", other, "-o", filepath.Join(dir, "x.yaml"))
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(HavePrefix("toolout import: " + spans + ", ../../harness/importer/testdata/otel-official-logs.json, " + other + ": 2 conversations: traceId "))
		Expect(stderr).To(HaveSuffix(`2 chat spans, from "Count INFO lines per host."); import one with --trace-id ID` + "\n"))
		code, stdout, stderr = invoke("", "import", other, "--trace-id", "9f7ac2c62e35b90eeee9e2bffa278e75", "-o", filepath.Join(dir, "x.yaml"))
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("wrote " + filepath.Join(dir, "x.yaml")))
	})

	It("names each import point after its message by default", func() {
		Expect(defaultTarget("traces/prod-2026.json", "", 3)).To(Equal(filepath.Join("scenarios", "regress", "prod-2026-at3.yaml")))
		Expect(defaultTarget("x", "", 12)).To(Equal(filepath.Join("scenarios", "regress", "x-at12.yaml")))
		Expect(defaultTarget("spans.json", "982c22f2e902690fea3e9336958ac12d", 3)).To(Equal(filepath.Join("scenarios", "regress", "spans-982c22f2-at3.yaml")))
	})

	It("leaves files with the same bytes alone, and overwrites other contents only with --force", func() {
		out := filepath.Join(dir, "t.yaml")
		trace := "../../scenarios/regress/traces/leaked-tools.json"
		code, stdout, _ := invoke("", "import", trace, "--at", "3", "-o", out)
		Expect(code).To(Equal(0))
		Expect(stdout).To(HavePrefix("wrote "))
		code, stdout, _ = invoke("", "import", trace, "--at", "3", "-o", out)
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal("unchanged " + out + "\nunchanged " + filepath.Join(dir, "t-leaked.yaml") + "\n"))

		Expect(os.WriteFile(out, []byte("# mine\n"), 0o644)).To(Succeed())
		code, stdout, stderr := invoke("", "import", trace, "--at", "3", "-o", out)
		Expect(code).To(Equal(1))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout import: " + out + " exists with other contents (1 file(s) in all: " + out + "); --force overwrites, or choose another -o or --at\n"))
		Expect(os.ReadFile(out)).To(Equal([]byte("# mine\n")))

		code, stdout, _ = invoke("", "import", trace, "--at", "3", "-o", out, "--force")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal("wrote " + out + "\nunchanged " + filepath.Join(dir, "t-leaked.yaml") + "\n"))
	})

	It("puts back what a failed --update found: new files removed, old contents restored", func() {
		scenario, golden, payload := filepath.Join(dir, "s.yaml"), filepath.Join(dir, "g.txtar"), filepath.Join(dir, "p.txt")
		Expect(os.WriteFile(scenario, []byte("old scenario"), 0o644)).To(Succeed())
		w := &importWrite{}
		w.snapshot([]importer.ImportedFile{{Path: scenario, Data: []byte("new scenario")}, {Path: payload, Data: []byte("payload")}}, nil)
		w.paths, w.before[golden] = append(w.paths, golden), nil // as snapshot records a scenario's golden
		var stdout, stderr strings.Builder
		Expect(w.check(true, &stderr)).To(Equal(exitOK))
		Expect(w.write([]importer.ImportedFile{{Path: scenario, Data: []byte("new scenario")}, {Path: payload, Data: []byte("payload")}}, &stdout, &stderr)).To(Equal(exitOK))
		Expect(os.WriteFile(golden, []byte("written by the run"), 0o644)).To(Succeed())
		w.restore(&stderr)
		Expect(os.ReadFile(scenario)).To(Equal([]byte("old scenario")))
		Expect(payload).NotTo(BeAnExistingFile())
		Expect(golden).NotTo(BeAnExistingFile())
		Expect(stderr.String()).To(Equal("toolout import: the imported scenarios fail; removed what the import wrote (" + payload + ", " + golden + ") and put back what was there\n"))
	})
})

// wholeResponses rewrites a Responses log whose responses are event
// streams with each response whole: the response of its
// response.completed event, as a client that does not stream gets it.
func wholeResponses(log []byte) []byte {
	var out bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		var call struct {
			Request  json.RawMessage `json:"request"`
			Response string          `json:"response"`
		}
		Expect(json.Unmarshal(line, &call)).To(Succeed())
		for _, l := range strings.Split(call.Response, "\n") {
			var ev struct {
				Type     string          `json:"type"`
				Response json.RawMessage `json:"response"`
			}
			if data, ok := strings.CutPrefix(l, "data: "); ok && json.Unmarshal([]byte(data), &ev) == nil && ev.Type == "response.completed" {
				out.WriteString(`{"request": ` + string(call.Request) + `, "response": ` + string(ev.Response) + "}\n")
			}
		}
	}
	return out.Bytes()
}
