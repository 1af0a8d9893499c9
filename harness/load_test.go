package harness_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// The malformed scenario files under testdata must fail to load with exactly
// these positioned errors, all of them at once.
var _ = Describe("Load", func() {
	DescribeTable("reports every problem with its position",
		func(file string, want ...string) {
			_, err := harness.Load(components.Default(), file)
			Expect(err).To(HaveOccurred())
			Expect(err).To(BeAssignableToTypeOf(harness.ErrorList{}))
			Expect(strings.Split(err.Error(), "\n")).To(Equal(want))
		},
		func(file string, _ ...string) string { return file },
		Entry(nil, "testdata/bad-gateway.yaml",
			`testdata/bad-gateway.yaml:2:9: config: max_concurrent 4: a scenario compresses one result at a time, so that its transcript has one order`,
			`testdata/bad-gateway.yaml:2:61: config.original_ttl: duration "5 minutes": want e.g. 30s or 5m`,
			`testdata/bad-gateway.yaml:2:89: config.breaker_cooloff: duration "-1s": want 0 (the default) or more`,
			`testdata/bad-gateway.yaml:5:37: input.requests[0].advance: duration "6": want e.g. 30s or 5m`,
		),
		Entry(nil, "testdata/bad-extract.yaml",
			`testdata/bad-extract.yaml:4:18: config.truncate_with "chars": want bytes, head-tail or json-aware`,
		),
		Entry(nil, "testdata/bad-extract-knob.yaml",
			`testdata/bad-extract-knob.yaml:2:48: config.overlap_percent 50: must be 0 to 49`,
		),
		Entry(nil, "testdata/bad-session-extract.yaml",
			`testdata/bad-session-extract.yaml:3:65: config.extract.offer_modes.1 "summarize": want json-aware, head-tail or query`,
		),
		Entry(nil, "testdata/bad-generate.yaml",
			`testdata/bad-generate.yaml:4:20: generate: template, line 1: template: line:1:2: executing "line" at <.Missing>: can't evaluate field Missing in type struct { I int; N int }`,
		),
		Entry(nil, "testdata/bad-inputs.yaml",
			`testdata/bad-inputs.yaml:4:16: file: "../outside.txt": want a path relative to the scenario's folder, inside it`,
		),
		Entry(nil, "testdata/bad-policy.yaml",
			`testdata/bad-policy.yaml:3:3: config: max_tool_response_bytes and policy.max_bytes are both set: set the byte cap once`,
			`testdata/bad-policy.yaml:5:16: config.policy.max_bytes: -3: must be 0 (no byte rule) to 1099511627776`,
			`testdata/bad-policy.yaml:6:21: config.policy.context_factor: 1.5: must be 0 (no context rule) to 1`,
			`testdata/bad-policy.yaml:7:28: config.policy.recovery_tools.1: a tool name is empty`,
			`testdata/bad-policy.yaml:7:32: config.policy.recovery_tools.2: "Read" is listed twice`,
			`testdata/bad-policy.yaml:9:25: config.policy.tools.Read.max_bytes: Read is exempt (recovery tool Read): its output is never stored, so a byte cap decides nothing; its context_factor bounds where it is cut`,
			`testdata/bad-policy.yaml:10:30: config.policy.tools.logs.context_factor: -0.5: must be 0 (no context rule) to 1`,
			`testdata/bad-policy.yaml:10:36: config.policy.tools.logs: unknown field "max_btes" (did you mean "max_bytes"?)`,
			`testdata/bad-policy.yaml:11:30: config.policy.tools.tiny.context_factor: 1e-07: under one millionth, it would read as 0 (no context rule); write 0 for that`,
		),
		Entry(nil, "testdata/bad-stream.yaml",
			`testdata/bad-stream.yaml:2:46: config.upstream_timeout: duration "-5s": want 0 (the default) or more`,
			`testdata/bad-stream.yaml:8:32: llm[0].respond.stream: mid_event: goes with disconnect_after (the event the connection drops in)`,
			`testdata/bad-stream.yaml:12:13: llm[1].respond.stream: delay: after and for go together`,
			`testdata/bad-stream.yaml:12:50: llm[1].respond.stream.delay.every: duration "2 minutes": want e.g. 30s or 5m`,
			`testdata/bad-stream.yaml:17:7: llm[2].respond.stream: delay: after -1: must be zero or more; every 11m0s: want a duration from 0 to 10m0s`,
		),
		Entry(nil, "testdata/bad-round.yaml",
			`testdata/bad-round.yaml:5:12: llm[0].match: round -2: must not be negative`,
			`testdata/bad-round.yaml:7:22: llm[1].match: unknown field "rounds" (did you mean "round"?)`,
		),
		Entry(nil, "testdata/bad-text.yaml",
			`testdata/bad-text.yaml:3:13: input.requests: want a list, got "not-a-list"`,
			`testdata/bad-text.yaml:7:5: llm[0]: duplicate field "respond"`,
		),
		Entry(nil, "testdata/bad-types.yaml",
			`testdata/bad-types.yaml:2:9: config: nonce is required`,
			`testdata/bad-types.yaml:2:17: config.nonce: want a string, got a list`,
			`testdata/bad-types.yaml:3:15: text: want exactly one of text, file, generate, mcp`,
			`testdata/bad-types.yaml:4:17: expect.found: want true or false, got "yes"`,
			`testdata/bad-types.yaml:4:32: expect.closed: want true or false, got "1"`,
			`testdata/bad-types.yaml:5:14: description: want a string, got a mapping`,
		),
		Entry(nil, "testdata/empty.yaml",
			`testdata/empty.yaml:1:1: empty scenario file`,
		),
		Entry(nil, "testdata/llm-not-allowed.yaml",
			`testdata/llm-not-allowed.yaml:2:9: config: nonce is required`,
			`testdata/llm-not-allowed.yaml:4:1: llm: component "finalreport" makes no LLM calls`,
		),
		Entry(nil, "testdata/many-problems.yaml",
			`testdata/many-problems.yaml:2:14: labels[1]: "not ok": want letters, digits, '_', '.', '-'`,
			`testdata/many-problems.yaml:6:7: input.requests[0]: chunk "3/2": want i/n with 1 <= i <= n`,
			`testdata/many-problems.yaml:7:7: input.requests[1]: tag is required`,
			`testdata/many-problems.yaml:10:12: llm[0].match: chunk "0/2": want i/n with 1 <= i <= n`,
			`testdata/many-problems.yaml:10:43: llm[0].match: unknown field "turnn" (did you mean "turn"?)`,
			`testdata/many-problems.yaml:11:14: llm[0].respond: text and final are exclusive`,
			`testdata/many-problems.yaml:12:5: llm[1]: times -1: must not be negative`,
			`testdata/many-problems.yaml:12:5: llm[1]: duplicate step id "a"`,
			`testdata/many-problems.yaml:14:22: llm[1].respond.error: error kind "boom": want timeout, rate_limit or server_error`,
			`testdata/many-problems.yaml:15:23: llm[2].respond.oracle: oracle "grep-line": unknown (known: echo, grep-lines, grep-matches)`,
			`testdata/many-problems.yaml:16:28: llm[3].respond.tool_calls[0]: name is required`,
			`testdata/many-problems.yaml:18:23: expect.replies[0]: unknown field "eror" (did you mean "error"?)`,
		),
		Entry(nil, "testdata/wire-custom.yaml",
			`testdata/wire-custom.yaml:11:11: llm[0].respond.tool_calls[1]: custom: true: the openai wire has no custom tool calls (wire: responses has)`,
			`testdata/wire-custom.yaml:12:11: llm[0].respond.tool_calls[2]: input is a custom tool call's text: add custom: true (a function call takes args or raw)`,
		),
		Entry(nil, "testdata/wire-unknown.yaml", `testdata/wire-unknown.yaml:3:7: wire "grpc": want openai, anthropic or responses`),
		Entry(nil, "testdata/wire-gateway.yaml", `testdata/wire-gateway.yaml:3:7: wire: a gateway scenario's wire is its config.provider`),
		Entry(nil, "testdata/missing-component.yaml",
			`testdata/missing-component.yaml:1:1: missing field "component" (known: extract, finalreport, gateway, leaked, llm, schema, session, store)`,
		),
		Entry(nil, "testdata/missing-file.yaml",
			`testdata/missing-file.yaml:4:16: file: "no-such-file.txt": no such file or directory`,
		),
		Entry(nil, "testdata/syntax-error.yaml",
			`testdata/syntax-error.yaml:2:9: syntax error: did not find expected ',' or '}'`,
		),
		Entry(nil, "testdata/unknown-component.yaml",
			`testdata/unknown-component.yaml:1:12: component "finalreprot": unknown (did you mean "finalreport"?)`,
		),
		Entry(nil, "testdata/unknown-field.yaml",
			`testdata/unknown-field.yaml:5:1: unknown field "expct" (did you mean "expect"?)`,
		),
	)
})

var _ = Describe("Load of payload files", func() {
	It("refuses a payload that is not a regular file at once, at its file: position, instead of blocking on it", func() {
		dir := GinkgoT().TempDir()
		Expect(syscall.Mkfifo(filepath.Join(dir, "pipe.txt"), 0o644)).To(Succeed())
		file := filepath.Join(dir, "fifo.yaml")
		Expect(os.WriteFile(file, []byte("component: finalreport\nconfig: {nonce: abc}\ninput:\n  text: {file: pipe.txt}\n"), 0o644)).To(Succeed())
		done := make(chan error, 1)
		go func() {
			_, err := harness.Load(components.Default(), file)
			done <- err
		}()
		var err error
		Eventually(done).WithTimeout(time.Second).Should(Receive(&err), "Load blocked on a FIFO")
		Expect(err).To(MatchError(file + `:4:16: file: "pipe.txt": a named pipe (FIFO), not a regular file`))
	})
})
