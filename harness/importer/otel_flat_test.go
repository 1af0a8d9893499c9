package importer_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

// kv is one span attribute: a string value is a stringValue; an
// anyValue is written as it is.
type kv struct {
	key   string
	value any
}

type anyValue string

// flatSpan is a span of trace 7f3a starting at start with the attributes
// kvs, in their order.
func flatSpan(start string, kvs ...kv) string {
	var attrs []string
	for _, a := range kvs {
		v, ok := a.value.(anyValue)
		if !ok {
			v = anyValue(`{"stringValue": ` + quote(a.value.(string)) + `}`)
		}
		attrs = append(attrs, `{"key": `+quote(a.key)+`, "value": `+string(v)+`}`)
	}
	return `{"traceId": "7f3a", "spanId": "f` + start + `", "name": "openai.chat", "startTimeUnixNano": "` + start +
		`", "attributes": [` + strings.Join(attrs, ", ") + `]}`
}

// flatMsg is a chat message as the flat conventions' attributes write it.
type flatMsg struct {
	role, content, toolCallID, name string
	calls                           [][3]string // id, name, arguments
}

// ollm writes m as OpenLLMetry's attributes of message i under prefix
// (gen_ai.prompt or gen_ai.completion).
func ollm(prefix string, i int, m flatMsg) []kv {
	p := fmt.Sprintf("%s.%d.", prefix, i)
	out := []kv{{p + "role", m.role}}
	if m.content != "" {
		out = append(out, kv{p + "content", m.content})
	}
	if m.toolCallID != "" {
		out = append(out, kv{p + "tool_call_id", m.toolCallID})
	}
	for j, c := range m.calls {
		q := fmt.Sprintf("%stool_calls.%d.", p, j)
		out = append(out, kv{q + "id", c[0]}, kv{q + "name", c[1]}, kv{q + "arguments", c[2]})
	}
	return out
}

// oinf writes m as OpenInference's attributes of message i under prefix
// (llm.input_messages or llm.output_messages).
func oinf(prefix string, i int, m flatMsg) []kv {
	p := fmt.Sprintf("%s.%d.message.", prefix, i)
	out := []kv{{p + "role", m.role}}
	if m.content != "" {
		out = append(out, kv{p + "content", m.content})
	}
	if m.name != "" {
		out = append(out, kv{p + "name", m.name})
	}
	if m.toolCallID != "" {
		out = append(out, kv{p + "tool_call_id", m.toolCallID})
	}
	for j, c := range m.calls {
		q := fmt.Sprintf("%stool_calls.%d.tool_call.", p, j)
		out = append(out, kv{q + "id", c[0]}, kv{q + "function.name", c[1]}, kv{q + "function.arguments", c[2]})
	}
	return out
}

// colOf is where marker, which trace holds once, starts in it, as
// "t.json:1:col" (the column in characters).
func colOf(trace, marker string) string {
	GinkgoHelper()
	Expect(strings.Count(trace, marker)).To(Equal(1), marker)
	return fmt.Sprintf("t.json:1:%d", utf8.RuneCountInString(trace[:strings.Index(trace, marker)])+1)
}

var _ = Describe("Import of OpenLLMetry and OpenInference chat spans", func() {
	opts := importer.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "t.json", At: -1}
	big := strings.Repeat("ts=1 level=INFO msg=\"batch ok\"\n", 500)
	sys := flatMsg{role: "system", content: "You are the on-call assistant."}
	user := flatMsg{role: "user", content: "Why is the export slow?"}
	call := flatMsg{role: "assistant", content: "Looking.", calls: [][3]string{{"c1", "get_logs", `{"job": "export", "lines": 200}`}}}
	result := flatMsg{role: "tool", content: big, toolCallID: "c1", name: "get_logs"}
	answer := flatMsg{role: "assistant", content: "Batch 7 retried 40 times."}
	// spans writes the calls (input, output) in one convention: write
	// maps a message to its attributes under a prefix; marker is the
	// span's marker attribute.
	spans := func(write func(prefix string, i int, m flatMsg) []kv, in, out string, marker kv, calls ...[]flatMsg) []string {
		var out2 []string
		for k, msgs := range calls {
			attrs := []kv{marker}
			for i, m := range msgs[:len(msgs)-1] {
				attrs = append(attrs, write(in, i, m)...)
			}
			attrs = append(attrs, write(out, 0, msgs[len(msgs)-1])...)
			out2 = append(out2, flatSpan(fmt.Sprint(k+1), attrs...))
		}
		return out2
	}
	calls := [][]flatMsg{{sys, user, call}, {sys, user, call, result, answer}}
	openLLMetry := spans(ollm, "gen_ai.prompt", "gen_ai.completion", kv{"llm.request.type", "chat"}, calls...)
	openInference := spans(oinf, "llm.input_messages", "llm.output_messages", kv{"openinference.span.kind", "LLM"}, calls...)
	want := []string{`system: "You are the on-call assistant."`, `user: "Why is the export slow?"`,
		`assistant: "Looking." | call c1 get_logs {"job": "export", "lines": 200}`, fmt.Sprintf("tool: %q | answers c1", big),
		`assistant: "Batch 7 retried 40 times."`}
	// The same conversation as the conventions from 1.37 record it.
	parts := func(ms ...string) string { return "[" + strings.Join(ms, ", ") + "]" }
	gUser := `{"role": "user", "parts": [{"type": "text", "content": "Why is the export slow?"}]}`
	gCall := `{"role": "assistant", "parts": [{"type": "text", "content": "Looking."}, {"type": "tool_call", "id": "c1", "name": "get_logs", "arguments": "{\"job\": \"export\", \"lines\": 200}"}]}`
	gResult := `{"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": ` + quote(big) + `}]}`
	gAnswer := `{"role": "assistant", "parts": [{"type": "text", "content": "Batch 7 retried 40 times."}]}`
	gSys := `[{"type": "text", "content": "You are the on-call assistant."}]`
	semconv := []string{chatSpan("1", gSys, parts(gUser), parts(gCall)), chatSpan("2", gSys, parts(gUser, gCall, gResult), parts(gAnswer))}

	DescribeTable("maps each convention's messages: system, text, tool calls, tool results; the scenario is the one the conventions from 1.37 make",
		func(trace string) {
			Expect(importer.Detect([]byte(trace))).To(Equal(importer.FormatOTelGenAI))
			Expect(importer.Conversation([]byte(trace), importer.FormatOTelGenAI)).To(Equal(want))
			files := mustImport(trace, opts)
			ref := otlp(semconv...)
			Expect(string(scenarioOf(files))).To(Equal(strings.Replace(string(scenarioOf(mustImport(ref, opts))), sha(ref), sha(trace), 1)))
			Expect(mustImport(trace, opts)).To(Equal(files))
		},
		Entry("OpenLLMetry", otlp(openLLMetry...)),
		Entry("OpenInference", otlp(openInference...)),
		Entry("a trace that mixes them span by span, with the conventions from 1.37", otlp(openInference[0], openLLMetry[1])),
		Entry("the same, the other way round", otlp(semconv[0], openInference[1])),
	)

	It("reads OpenLLMetry's content parts (JSON in a string), a refusal, the older llm.prompts prefix, and keeps a JSON result as text", func() {
		trace := otlp(flatSpan("1",
			kv{"gen_ai.prompt.0.role", "user"},
			kv{"gen_ai.prompt.0.content", `[{"type": "text", "text": "Compare these."}, {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBO"}}]`},
			kv{"gen_ai.prompt.1.role", "assistant"},
			kv{"gen_ai.prompt.1.tool_calls.0.id", "a"}, kv{"gen_ai.prompt.1.tool_calls.0.name", "t"},
			kv{"gen_ai.prompt.1.tool_calls.0.arguments", "not json {"},
			kv{"gen_ai.prompt.1.tool_calls.1.id", "b"}, kv{"gen_ai.prompt.1.tool_calls.1.name", "t"},
			kv{"gen_ai.prompt.1.tool_calls.1.arguments", anyValue(structured(`{"n": [1, 2]}`))},
			kv{"gen_ai.prompt.2.role", "tool"}, kv{"gen_ai.prompt.2.tool_call_id", "a"}, kv{"gen_ai.prompt.2.content", `[{"type": "deploy", "id": 7}]`},
			kv{"gen_ai.prompt.3.role", "tool"}, kv{"gen_ai.prompt.3.tool_call_id", "b"}, kv{"gen_ai.prompt.3.content", `[{"type": "text", "text": "rows"}]`},
			kv{"gen_ai.completion.0.finish_reason", "stop"}, kv{"gen_ai.completion.0.refusal", "I can't help with that."}))
		Expect(importer.Conversation([]byte(trace), "")).To(Equal([]string{
			`user: "Compare these.\n[image not imported]" | omitted image`,
			`assistant: "" | call a t not json { | call b t {"n":[1,2]}`,
			`tool: "[{\"type\": \"deploy\", \"id\": 7}]" | answers a`,
			`tool: "rows" | answers b`,
			`assistant: "I can't help with that."`,
		}))
		older := strings.NewReplacer("gen_ai.prompt.", "llm.prompts.", "gen_ai.completion.", "llm.completions.").Replace(trace)
		Expect(importer.Conversation([]byte(older), "")).To(Equal(must2(importer.Conversation([]byte(trace), ""))))
	})

	It("reads OpenInference's contents parts, a tool message's name, and takes the first output message", func() {
		trace := otlp(flatSpan("1",
			kv{"openinference.span.kind", "LLM"},
			kv{"llm.input_messages.0.message.role", "user"},
			kv{"llm.input_messages.0.message.contents.0.message_content.type", "text"},
			kv{"llm.input_messages.0.message.contents.0.message_content.text", "What is on this chart?"},
			kv{"llm.input_messages.0.message.contents.1.message_content.type", "image"},
			kv{"llm.input_messages.0.message.contents.1.message_content.image.image.url", "https://x/y.png"},
			kv{"llm.input_messages.0.message.contents.2.message_content.text", "Be brief."},
			kv{"llm.tools.0.tool.json_schema", `{"type": "function", "function": {"name": "t"}}`},
			kv{"llm.output_messages.1.message.content", "a second choice"},
			kv{"llm.output_messages.0.message.content", "Latency."}))
		Expect(importer.Conversation([]byte(trace), "")).To(Equal([]string{
			`user: "What is on this chart?\n[image not imported]\nBe brief." | omitted image`, `assistant: "Latency."`}))
	})

	It("takes sparse indexes in their order, whatever the order of the attributes in the file, up to index 99999", func() {
		trace := otlp(flatSpan("1",
			kv{"gen_ai.completion.0.content", "done"},
			kv{"gen_ai.prompt.99999.role", "user"}, kv{"gen_ai.prompt.99999.content", "third"},
			kv{"gen_ai.prompt.7.content", "second"}, kv{"gen_ai.prompt.7.role", "assistant"},
			kv{"gen_ai.prompt.0.role", "user"}, kv{"gen_ai.prompt.0.content", "first"}))
		Expect(importer.Conversation([]byte(trace), "")).To(Equal([]string{`user: "first"`, `assistant: "second"`, `user: "third"`, `assistant: "done"`}))
	})

	// bad is a one-span OpenLLMetry trace with the attributes kvs besides a
	// user question and a reply.
	bad := func(kvs ...kv) string {
		base := []kv{{"gen_ai.prompt.0.role", "user"}, {"gen_ai.prompt.0.content", "q"}, {"gen_ai.completion.0.content", "a"}}
		return otlp(flatSpan("1", append(base, kvs...)...))
	}
	DescribeTable("refuses what it cannot read at the attribute's line:col, naming it",
		func(trace, marker, want string) {
			_, err := importer.Import([]byte(trace), opts)
			Expect(err).To(MatchError(colOf(trace, marker) + ": " + want))
		},
		Entry("a huge index", bad(kv{"gen_ai.prompt.4294967296.role", "robot"}), `{"stringValue": "robot"}`,
			"gen_ai.prompt.4294967296.role: index 4294967296: want an index from 0 to 99999 without leading zeros (a list holds at most 100000 items)"),
		Entry("an index past uint64", bad(kv{"gen_ai.prompt.1.tool_calls.99999999999999999999999.id", "x"}), `{"stringValue": "x"}`,
			"gen_ai.prompt.1.tool_calls.99999999999999999999999.id: index 99999999999999999999999: want an index from 0 to 99999 without leading zeros (a list holds at most 100000 items)"),
		Entry("an index with a leading zero", bad(kv{"gen_ai.prompt.01.role", "zero"}), `{"stringValue": "zero"}`,
			"gen_ai.prompt.01.role: index 01: want an index from 0 to 99999 without leading zeros (a list holds at most 100000 items)"),
		Entry("a role that is not a chat role", bad(kv{"gen_ai.prompt.1.role", "robot"}), `"robot"`,
			`gen_ai.prompt.1: role "robot" is not system, user, assistant or tool`),
		Entry("a role that is not a string", bad(kv{"gen_ai.prompt.1.role", anyValue(`{"intValue": "3"}`)}), `"3"`,
			`gen_ai.prompt.1.role: want a string, got a number`),
		Entry("a message without a role", bad(kv{"gen_ai.prompt.1.content", "lost"}), `{"stringValue": "lost"}`,
			"gen_ai.prompt.1: field role: missing; want a string (gen_ai.prompt.1.role)"),
		Entry("a tool call without a name", bad(kv{"gen_ai.prompt.1.role", "assistant"}, kv{"gen_ai.prompt.1.tool_calls.0.id", "c9"}), `{"stringValue": "c9"}`,
			"gen_ai.prompt.1.tool_calls.0: field name: missing; want a string (gen_ai.prompt.1.tool_calls.0.name)"),
		Entry("a tool message without tool_call_id", bad(kv{"gen_ai.prompt.1.role", "tool"}, kv{"gen_ai.prompt.1.content", "out"}), `{"stringValue": "tool"}`,
			"gen_ai.prompt.1: no tool_call_id: a tool message names the call it answers"),
		Entry("a value that other attributes extend", bad(kv{"gen_ai.prompt.0.content.0.text", "x"}), `{"stringValue": "x"}`,
			"gen_ai.prompt.0.content.0.text: gen_ai.prompt.0.content is a value, not a list or an object"),
		Entry("a name among indexes", bad(kv{"gen_ai.prompt.last.role", "named"}), `{"stringValue": "named"}`,
			`gen_ai.prompt.last.role: segment "last" among indexes under gen_ai.prompt`),
		Entry("a key of more than 12 segments", bad(kv{"gen_ai.prompt.1" + strings.Repeat(".a", 12), "deep"}), `{"stringValue": "deep"}`,
			"gen_ai.prompt.1"+strings.Repeat(".a", 12)+": 13 segments under gen_ai.prompt, over the 12 a message attribute has"),
		Entry("content that is neither text nor parts", bad(kv{"gen_ai.prompt.1.role", "user"}, kv{"gen_ai.prompt.1.content", anyValue(`{"intValue": "5"}`)}), `"5"`,
			"gen_ai.prompt.1.content: want a string or a list of content parts, got a number"),
		Entry("a reply that is a tool result", otlp(flatSpan("1", kv{"gen_ai.prompt.0.role", "user"}, kv{"gen_ai.completion.0.role", "tool"},
			kv{"gen_ai.completion.0.tool_call_id", "c"})), `{"stringValue": "tool"}`,
			`gen_ai.completion.0: role "tool", want the model's reply: assistant text and tool calls`),
		Entry("an OpenInference message without its message attributes", otlp(flatSpan("1", kv{"llm.input_messages.0.role", "user"},
			kv{"llm.output_messages.0.message.content", "a"})), `{"stringValue": "user"}`,
			"llm.input_messages.0: want llm.input_messages.0.message.role, .content, ...: no message attributes"),
		Entry("an OpenInference tool call without a function name", otlp(flatSpan("1", kv{"llm.input_messages.0.message.role", "user"},
			kv{"llm.output_messages.0.message.tool_calls.0.tool_call.id", "c"})), `{"stringValue": "c"}`,
			"llm.output_messages.0.message.tool_calls.0.tool_call: field function.name: missing; want a string (llm.output_messages.0.message.tool_calls.0.tool_call.function.name)"),
		Entry("an LLM span without messages", otlp(flatSpan("1", kv{"openinference.span.kind", "LLM"})), `{"traceId"`,
			"chat span 1: no gen_ai.output.messages attribute and no gen_ai.choice event: a chat span records its input and its output (turn on the capture of message content; "+
				"when the events are log records in a file of their own, give it too: toolout import t.json LOGS.json)"),
		Entry("an output without an input", otlp(flatSpan("1", kv{"gen_ai.completion.0.content", "a"})), `{"traceId"`,
			"chat span 1: no gen_ai.prompt.N attributes: a chat span records its input and its output"),
		Entry("an input without an output", otlp(flatSpan("1", kv{"llm.request.type", "chat"}, kv{"gen_ai.prompt.0.role", "user"})), `{"traceId"`,
			"chat span 1: no gen_ai.completion.N attributes: a chat span records its input and its output (turn on the capture of message content)"),
		Entry("bad JSON in content parts is text, but bad JSON in a span's input differs from the span before", otlp(
			flatSpan("1", kv{"gen_ai.prompt.0.role", "user"}, kv{"gen_ai.prompt.0.content", "q"}, kv{"gen_ai.completion.0.content", "a"}),
			flatSpan("2", kv{"gen_ai.prompt.0.role", "user"}, kv{"gen_ai.prompt.0.content", "[q]"}, kv{"gen_ai.prompt.1.role", "assistant"},
				kv{"gen_ai.prompt.1.content", "a"}, kv{"gen_ai.completion.0.content", "b"})), `{"stringValue": "user"}}, {"key": "gen_ai.prompt.0.content", "value": {"stringValue": "[q]"}}`,
			"message 0 differs from chat span 1's input: each chat span's input extends the one before it, with its output"),
	)

	It("imports the committed samples, one chat span of each convention per call", func() {
		for name, want := range map[string][]string{
			"otel-openllmetry.json":   {"system", "user", "assistant", "tool", "assistant", "tool", "assistant"},
			"otel-openinference.json": {"system", "user", "assistant", "tool", "assistant", "tool", "assistant"},
		} {
			data, err := os.ReadFile("../../scenarios/regress/traces/" + name)
			Expect(err).NotTo(HaveOccurred())
			Expect(importer.Detect(data)).To(Equal(importer.FormatOTelGenAI))
			conv, err := importer.Conversation(data, "")
			Expect(err).NotTo(HaveOccurred())
			var roles []string
			for _, line := range conv {
				roles = append(roles, line[:strings.Index(line, ":")])
			}
			Expect(roles).To(Equal(want), name)
			cut, err := importer.Cut(data, importer.ImportOptions{TraceName: name, At: -1})
			Expect(err).NotTo(HaveOccurred())
			Expect(cut).To(Equal(3))
			Expect(bytes.Count(data, []byte(`"openai.chat"`)) + bytes.Count(data, []byte(`"ChatOpenAI"`))).To(Equal(3))
		}
	})
})

func must2[T any](v T, err error) T {
	Expect(err).NotTo(HaveOccurred())
	return v
}
