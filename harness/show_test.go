package harness_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

var _ = Describe("what a mismatch shows", func() {
	long := strings.Repeat("a", 150) + strings.Repeat("é", 100) // 350 bytes

	DescribeTable("Show, ShowAt and Found",
		func(got, want string) { Expect(got).To(Equal(want)) },
		func(got, want string) string { return want },
		Entry(nil, harness.Show("short\n"), `"short\n"`),
		Entry(nil, harness.Show(strings.Repeat("x", harness.ShowBytes)), `"`+strings.Repeat("x", 200)+`"`),
		Entry(nil, harness.Show(long), `"`+strings.Repeat("a", 150)+strings.Repeat("é", 25)+`"… (150 more bytes)`),
		Entry(nil, harness.Show(strings.Repeat("a", 199)+"é"), `"`+strings.Repeat("a", 199)+`"… (2 more bytes)`),
		Entry(nil, harness.ShowAt("abc needle", 4), `at byte 4: "abc needle"`),
		Entry(nil, harness.ShowIndex(strings.Repeat("-", 100)+"needle", "needle"), `at byte 100: (60 bytes before) "`+strings.Repeat("-", 40)+`needle"`),
		Entry(nil, harness.ShowIndex("abc", "x"), ``),
		Entry(nil, harness.Found("tool results", nil), `found no tool results`),
		Entry(nil, harness.Found("tool results", []string{"a", "b"}), "found tool results (2):\n  [0] \"a\"\n  [1] \"b\""),
		Entry(nil, harness.Found("lines", strings.Split("0 1 2 3 4 5 6 7 8 9 10 11", " ")),
			"found lines (12):\n  [0] \"0\"\n  [1] \"1\"\n  [2] \"2\"\n  [3] \"3\"\n  [4] \"4\"\n  [5] \"5\"\n  [6] \"6\"\n  [7] \"7\"\n  [8] \"8\"\n  [9] \"9\"\n  … and 2 more"),
	)

	// run executes a scenario written under a new folder twice, without
	// its golden (Execute), and returns its failures.
	run := func(yaml string) []string {
		file := filepath.Join(GinkgoT().TempDir(), "x.yaml")
		Expect(os.WriteFile(file, []byte(yaml), 0o644)).To(Succeed())
		r := &harness.Runner{Registry: components.Default()}
		sc, err := r.Load(file)
		Expect(err).NotTo(HaveOccurred())
		res := r.Execute(context.Background(), sc)
		Expect(res.Passed()).To(BeFalse())
		first := r.Execute(context.Background(), sc)
		Expect(first.Failures).To(Equal(res.Failures), "the same message on every run")
		return res.Failures
	}

	DescribeTable("every expect kind names what it found",
		func(yaml string, want ...string) {
			failures := strings.Join(run(yaml), "\n")
			for _, w := range want {
				Expect(failures).To(ContainSubstring(w))
			}
		},
		func(yaml string, want ...string) string { return want[0] },
		Entry(nil, extractScenario+"expect: {strategy: truncate}\n", `expect.strategy: got "full-chunked", want "truncate"`),
		Entry(nil, extractScenario+"expect: {route: read-grep, chunks: 2}\n", `expect.route: got "full-chunked", want "read-grep"`, `expect.chunks: got 1, want 2`),
		Entry(nil, extractScenario+"expect: {reason: nowhere}\n", `expect.reason: got "`, `", want it to contain "nowhere"`),
		Entry(nil, extractScenario+"expect: {result: {contains: [nowhere]}}\n",
			`expect.result.contains: the result does not contain "nowhere"; it is "ABSTRACT FROM TOOL OUTPUT logs__query WITH HANDLE 00000000-0000-4000-8000-000000000002, STRATEGY:full-chunked:\n\nweb-2: 1 ERROR"`),
		Entry(nil, extractScenario+"expect: {result: {not_contains: [web-2]}}\n",
			`expect.result.not_contains: the result contains "web-2" at byte 112: (72 bytes before) "0-000000000002, STRATEGY:full-chunked:\n\nweb-2: 1 ERROR"`),
		Entry(nil, extractScenario+"expect: {result: {equals: other}}\n", `expect.result.equals: got "ABSTRACT FROM TOOL OUTPUT logs__query WITH HANDLE 00000000-0000-4000-8000-000000000002, STRATEGY:full-chunked:\n\nweb-2: 1 ERROR", want "other"`),
		Entry(nil, "component: finalreport\nconfig: {nonce: abc}\ninput: {text: '<ai-agent-abc-FINAL format=\"text\">v1</ai-agent-abc-FINAL>'}\nexpect: {content: v2, closed: false}\n",
			`expect.content: got "v1", want "v2"`, `expect.closed: got true, want false`),
		Entry(nil, sessionScenario+"expect: {results_contain: [nowhere]}\n",
			"expect.results_contain: no tool result contains \"nowhere\"; found tool results (1):\n  [0] \"blob: "),
		Entry(nil, sessionScenario+"expect: {stored: 0, report: other}\n",
			"expect.stored: got 1, want 0; found stored outputs (1):\n  [0] \"", " blob {} (513 bytes)\"", `expect.report: got "ok", want "other"`),
		Entry(nil, sessionScenario+"expect: {error: nowhere}\n", `expect.error: got "", want it to contain "nowhere"`),
		Entry(nil, "component: leaked\ninput: {text: '<tools>{\"name\": \"a\"}</tools>'}\nexpect: {calls: [{name: a}, {name: b}]}\n",
			"expect.calls: got 1 calls, want 2; found calls (1):\n  [0] \"a {}\""),
		Entry(nil, "component: leaked\ninput: {text: '<tools>{\"name\": \"a\"}</tools>'}\nexpect: {calls: [{name: b, arguments: {x: 1}}]}\n",
			`expect.calls: [0].name: got "a", want "b"`, `expect.calls: [0].arguments: got "{}", want "{\"x\":1}"`),
		Entry(nil, "component: leaked\ninput: {text: 'keep <tools>{\"name\": \"a\"}</tools>'}\nexpect: {identical: true, content: other}\n",
			`expect.identical: the content is not the input, byte for byte: it differs at byte 4: "keep"`, `expect.content: got "keep", want "other"`),
		Entry(nil, "component: leaked\ninput: {text: plain}\nexpect: {dropped: [{reason: x}], patterns: [\"<tools>\"]}\n",
			`expect.dropped: got 0 dropped, want 1; found no dropped reasons`, `expect.patterns: got [], want ["<tools>"]`),
		Entry(nil, llmScenario+"expect: {replies: [{text: x}, {text: y}]}\n",
			"expect.replies: got 1 replies, want 2; found replies (1):\n  [0] \"gateway.compress a b c\""),
		Entry(nil, llmScenario+"expect: {replies: [{text: x, error: boom}]}\n",
			`expect.replies: [0].text: got "a b c", want "x"`, `expect.replies: [0].error: got "", want it to contain "boom"`),
		Entry(nil, "component: schema\ninput: {schema: '{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}}'}\nexpect: {contains: [\"b: string\"], not_contains: [\"a: string\"]}\n",
			"expect.contains: no line is \"b: string\"; found lines (1):\n  [0] \"a: string\"", `expect.not_contains: line 0 is "a: string"`),
		Entry(nil, "component: schema\ninput: {schema: '{'}\nexpect: {error: nowhere}\n", `expect.error: got "schema: invalid JSON`),
		Entry(nil, "component: store\nconfig: {max_bytes: 0, remaining_tokens: 0}\ninput: {outputs: [{tool: quiet, output: \"\"}]}\nexpect: {stored: 1}\n",
			"expect.stored: got 0, want 1; found decisions (1):\n  [0] \"quiet: not stored"),
		Entry(nil, gatewayScenario+"expect: {requests: [{actions: [compressed], reasons: [nowhere]}, {}]}\n",
			`expect.requests.0.actions: got [passthrough], want [compressed]`,
			"expect.requests.0.reasons: output 0: want a reason that contains \"nowhere\"; found reasons (1):\n  [0] \"",
			`expect.requests.1: no such request: the run sent 1`),
		Entry(nil, gatewayScenario+"expect: {requests: [{forwarded_contains: [nowhere], forwarded_lacks: [logs__query]}]}\n",
			`expect.requests.0.forwarded_contains: the forwarded body does not contain "nowhere"; it is "{`,
			`expect.requests.0.forwarded_lacks: the body forwarded in round 1 contains "logs__query" at byte `),
	)

	It("bounds a long value and a long list", func() {
		failures := run(sessionScenario + "expect: {results_contain: [nowhere]}\n")
		Expect(failures[0]).To(MatchRegexp(`found tool results \(1\):\n  \[0\] "blob: Tool output is too large .*"… \(\d+ more bytes\)$`))
		Expect(len(failures[0])).To(BeNumerically("<", 400))
		failures = run(schemaScenario(12) + "expect: {contains: [nowhere]}\n")
		Expect(failures[0]).To(HaveSuffix("\n  [9] \"f09: string\"\n  … and 2 more"))
	})
})

// The scenarios the table above makes fail, each with the expectations
// appended.
const (
	extractScenario = `component: extract
config: {context_window: 1200, max_output_tokens: 100, buffer_tokens: 50, truncate_bytes: 300}
input:
  tool: {name: logs__query}
  extract: "Count the ERROR lines per host."
  output: {generate: {lines: 20, template: "ts={{.I}} host=web-{{mod .I 3}} level=INFO"}}
llm:
- match: {tag: extract.map, chunk: 1/1}
  respond: {final: "web-2: 1 ERROR"}
`
	sessionScenario = `component: session
config: {max_tool_response_bytes: 512, truncate_bytes: 120, max_turns: 4}
input:
  user: Fetch it.
  tools:
  - {name: blob, output: {generate: {repeat: x, bytes: 513}}}
llm:
- match: {tag: session.turn, turn: 1}
  respond: {tool_calls: [{name: blob, args: {}}]}
- match: {tag: session.turn, turn: 2}
  respond: {final: ok}
`
	llmScenario = `component: llm
input:
  requests:
  - {tag: gateway.compress, user: "a b c"}
llm:
- match: {tag: gateway.compress}
  respond: {oracle: {name: echo, wrap: none}}
`
)

// schemaScenario summarizes a schema of n string fields, f00 to f<n-1>.
func schemaScenario(n int) string {
	var props []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"f%02d": {"type": "string"}`, i))
	}
	return fmt.Sprintf("component: schema\ninput: {schema: %q}\n", `{"type": "object", "properties": {`+strings.Join(props, ", ")+`}}`)
}

// gatewayScenario sends one small OpenAI request through the gateway: its
// tool result passes through.
var gatewayScenario = fmt.Sprintf(`component: gateway
input:
  requests:
  - body: %q
`, `{"model": "m", "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c0", "type": "function", "function": {"name": "logs__query", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c0", "content": "short"}]}`)
