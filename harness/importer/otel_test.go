package importer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

// otlp wraps spans as an OTLP JSON export of one resource and scope.
func otlp(spans ...string) string {
	return `{"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [{"scope": {"name": "t"}, "spans": [` +
		strings.Join(spans, ", ") + `]}]}]}`
}

// chatSpan is a chat span of trace 7f..., starting at start, whose input
// and output messages are the JSON texts in and out, written as
// stringValues; sys, when not empty, is its gen_ai.system_instructions.
func chatSpan(start, sys, in, out string) string {
	return spanOf("7f3a", start, map[string]string{"gen_ai.input.messages": in, "gen_ai.output.messages": out, "gen_ai.system_instructions": sys})
}

// spanOf is a chat span of trace whose attributes are the JSON texts of
// attrs, as stringValues, in a fixed order (empty ones left out).
func spanOf(trace, start string, attrs map[string]string) string {
	list := []string{`{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}}`}
	for _, k := range []string{"gen_ai.system_instructions", "gen_ai.input.messages", "gen_ai.output.messages"} {
		if attrs[k] != "" {
			list = append(list, `{"key": "`+k+`", "value": {"stringValue": `+quote(attrs[k])+`}}`)
		}
	}
	return `{"traceId": "` + trace + `", "spanId": "s` + start + `", "name": "chat gpt-4.1", "startTimeUnixNano": "` + start +
		`", "attributes": [` + strings.Join(list, ", ") + `]}`
}

// structured rewrites a JSON text as the AnyValue that holds it
// structured (kvlistValue, arrayValue, ...), members in their order.
func structured(text string) string {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var value func() string
	value = func() string {
		tok, err := dec.Token()
		Expect(err).NotTo(HaveOccurred())
		switch v := tok.(type) {
		case json.Delim:
			var items []string
			for dec.More() {
				if v == '[' {
					items = append(items, value())
					continue
				}
				key, err := dec.Token()
				Expect(err).NotTo(HaveOccurred())
				items = append(items, `{"key": `+quote(key.(string))+`, "value": `+value()+`}`)
			}
			_, _ = dec.Token()
			if v == '[' {
				return `{"arrayValue": {"values": [` + strings.Join(items, ", ") + `]}}`
			}
			return `{"kvlistValue": {"values": [` + strings.Join(items, ", ") + `]}}`
		case string:
			return `{"stringValue": ` + quote(v) + `}`
		case json.Number:
			if strings.ContainsAny(string(v), ".eE") {
				return `{"doubleValue": ` + string(v) + `}`
			}
			return `{"intValue": "` + string(v) + `"}`
		case bool:
			return fmt.Sprintf(`{"boolValue": %v}`, v)
		}
		return `{}`
	}
	return value()
}

var _ = Describe("Import of OpenTelemetry GenAI spans", func() {
	opts := func(format string) importer.ImportOptions {
		return importer.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "t.json", At: -1, Format: format}
	}
	user := `{"role": "user", "parts": [{"type": "text", "content": "Why is the export slow?"}]}`
	call := `{"role": "assistant", "parts": [{"type": "reasoning", "content": "Check the logs."}, {"type": "text", "content": "Looking."}, ` +
		`{"type": "tool_call", "id": "c1", "name": "get_logs", "arguments": {"job": "export", "lines": 200}}], "finish_reason": "tool_call"}`
	big := strings.Repeat("ts=1 level=INFO msg=\"batch ok\"\n", 500)
	result := `{"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": ` + quote(big) + `}]}`
	answer := `{"role": "assistant", "parts": [{"type": "text", "content": "Batch 7 retried 40 times."}], "finish_reason": "stop"}`
	sys := `[{"type": "text", "content": "You are the on-call assistant."}]`
	list := func(msgs ...string) string { return "[" + strings.Join(msgs, ", ") + "]" }
	two := otlp(chatSpan("1795600000000000000", sys, list(user), list(call)),
		chatSpan("1795600002000000000", sys, list(user, call, result), list(answer)))

	It("reads the chat spans of a trace as one conversation: the last input and its output", func() {
		files := mustImport(two, opts(""))
		sc := string(scenarioOf(files))
		Expect(sc).To(ContainSubstring("message 3 is a 15500-byte result of get_logs"))
		Expect(sc).To(ContainSubstring("system: You are the on-call assistant.\n"))
		Expect(sc).To(ContainSubstring("text: Looking.\n"))
		Expect(sc).To(ContainSubstring("job: export\n            lines: 200\n"))
		Expect(sc).To(ContainSubstring("  omitted:\n    - reasoning x1\n"))
		Expect(sc).To(ContainSubstring("final: Batch 7 retried 40 times."))
		again := mustImport(two, opts(importer.FormatOTelGenAI))
		Expect(again).To(Equal(files))
	})

	It("takes the spans in the order they started, whatever their order in the file, and one export a line", func() {
		spans := strings.SplitN(strings.TrimSuffix(strings.TrimPrefix(two, otlp("")[:len(otlp(""))-len(`]}]}]}`)]), `]}]}]}`), `}, {"traceId"`, 2)
		Expect(spans).To(HaveLen(2))
		swapped := otlp(`{"traceId"`+spans[1], spans[0]+"}")
		lines := otlp(spans[0]+"}") + "\n\n" + otlp(`{"traceId"`+spans[1]) + "\n"
		want := mustImport(two, opts(""))
		for _, trace := range []string{swapped, lines} {
			files := mustImport(trace, opts(""))
			Expect(scenarioOf(files)).To(Equal(bytes.Replace(scenarioOf(want), []byte(sha(two)), []byte(sha(trace)), 1)))
		}
	})

	It("reads messages written structured (kvlistValue, arrayValue) as it reads them written as JSON in a string", func() {
		trace := strings.NewReplacer(
			`{"stringValue": `+quote(list(user))+`}`, structured(list(user)),
			`{"stringValue": `+quote(list(call))+`}`, structured(list(call)),
			`{"stringValue": `+quote(list(user, call, result))+`}`, structured(list(user, call, result)),
			`{"stringValue": `+quote(list(answer))+`}`, structured(list(answer)),
			`{"stringValue": `+quote(sys)+`}`, structured(sys)).Replace(two)
		Expect(trace).To(ContainSubstring(`"kvlistValue"`))
		Expect(trace).NotTo(ContainSubstring(`Why is the export slow?\"`))
		files := mustImport(trace, opts(""))
		want := mustImport(two, opts(""))
		Expect(scenarioOf(files)).To(Equal(bytes.Replace(scenarioOf(want), []byte(sha(two)), []byte(sha(trace)), 1)))
	})

	It("maps each part: text lines, tool calls with object or string arguments, each tool_call_response a tool message, other parts counted as not replayed", func() {
		asked := `{"role": "user", "parts": [{"type": "text", "content": "Compare these."}, {"type": "blob", "modality": "image", "content": "iVBORw0K"}, ` +
			`{"type": "uri", "modality": "picture", "uri": "https://x/y.png"}]}`
		calls := `{"role": "assistant", "parts": [{"type": "tool_call", "id": "a", "name": "t", "arguments": "{\"n\": 1}"}, ` +
			`{"type": "tool_call", "id": "b", "name": "t", "arguments": null}]}`
		results := `{"role": "tool", "parts": [{"type": "tool_call_response", "id": "a", "response": {"rows": [1, 2]}}, ` +
			`{"type": "tool_call_response", "id": "b", "response": ` + quote(big) + `}]}`
		trace := otlp(chatSpan("1", "", list(asked, calls, results), list(answer)))
		files := mustImport(trace, opts(""))
		sc := string(scenarioOf(files))
		Expect(sc).To(ContainSubstring("message 3 is a 15500-byte result of t"))
		Expect(sc).To(ContainSubstring("- id: a\n          name: t\n          args:\n            \"n\": 1\n        - id: b\n          name: t\n"))
		Expect(sc).To(ContainSubstring("user: |-\n    Compare these.\n    [image not imported]\n    [uri not imported]\n"))
		Expect(sc).To(ContainSubstring(`- '{"rows":[1,2]}'`))
		Expect(sc).To(ContainSubstring("  omitted:\n    - image x1\n    - uri x1\n"))
	})

	// The two calls of two as the events of the conventions before 1.37: a
	// span's events, each a name, a time and its fields (a JSON object).
	type event struct{ name, time, fields string }
	toolCalls := `[{"id": "c1", "type": "function", "function": {"name": "get_logs", "arguments": "{\"job\":\"export\",\"lines\":200}"}}]`
	sysEv := event{"gen_ai.system.message", "1", `{"content": "You are the on-call assistant."}`}
	userEv := event{"gen_ai.user.message", "1", `{"content": "Why is the export slow?"}`}
	calls := [][]event{
		{sysEv, userEv, {"gen_ai.choice", "2", `{"index": 0, "finish_reason": "tool_calls", "message": {"content": "Looking.", "tool_calls": ` + toolCalls + `}}`}},
		{sysEv, userEv, {"gen_ai.assistant.message", "1", `{"content": "Looking.", "tool_calls": ` + toolCalls + `}`},
			{"gen_ai.tool.message", "1", `{"id": "c1", "content": ` + quote(big) + `}`},
			{"gen_ai.choice", "3", `{"index": 1, "message": {"content": "another choice"}}`},
			{"gen_ai.choice", "2", `{"message": {"role": "assistant", "content": "Batch 7 retried 40 times."}}`}},
	}
	eventSpan := func(k int, events ...string) string {
		return `{"traceId": "7f3a", "spanId": "e` + fmt.Sprint(k) + `", "name": "chat gpt-4.1", "startTimeUnixNano": "` + fmt.Sprint(k+1) +
			`", "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}}], "events": [` + strings.Join(events, ", ") + `]}`
	}
	// asAttributes writes an event's fields as its attributes, a
	// structured one as JSON in a string, as span events hold them.
	asAttributes := func(e event) string {
		var fields map[string]json.RawMessage
		Expect(json.Unmarshal([]byte(e.fields), &fields)).To(Succeed())
		var attrs []string
		for _, k := range []string{"content", "id", "index", "finish_reason", "tool_calls", "message"} {
			v, ok := fields[k]
			switch {
			case !ok:
			case k == "index":
				attrs = append(attrs, `{"key": "index", "value": {"intValue": "`+string(v)+`"}}`)
			case v[0] == '"':
				attrs = append(attrs, `{"key": "`+k+`", "value": {"stringValue": `+string(v)+`}}`)
			default:
				attrs = append(attrs, `{"key": "`+k+`", "value": {"stringValue": `+quote(string(v))+`}}`)
			}
		}
		return `{"name": "` + e.name + `", "timeUnixNano": "` + e.time + `", "attributes": [` + strings.Join(attrs, ", ") + `]}`
	}
	encodings := map[string]func() string{
		"span events, the fields as attributes": func() string {
			var spans []string
			for k, evs := range calls {
				var out []string
				for _, e := range evs {
					out = append(out, asAttributes(e))
				}
				spans = append(spans, eventSpan(k, out...))
			}
			return otlp(spans...)
		},
		"span events, the fields as JSON in gen_ai.event.content": func() string {
			var spans []string
			for k, evs := range calls {
				var out []string
				for _, e := range evs {
					out = append(out, `{"name": "`+e.name+`", "timeUnixNano": "`+e.time+`", "attributes": [{"key": "gen_ai.event.content", "value": {"stringValue": `+quote(e.fields)+`}}]}`)
				}
				spans = append(spans, eventSpan(k, out...))
			}
			return otlp(spans...)
		},
		"log records with a body, on the line after their spans": func() string {
			var records []string
			for k, evs := range calls {
				for _, e := range evs {
					records = append(records, `{"timeUnixNano": "`+e.time+`", "eventName": "`+e.name+`", "spanId": "e`+fmt.Sprint(k)+`", "body": `+structured(e.fields)+`}`)
				}
			}
			return otlp(eventSpan(0), eventSpan(1)) + "\n" + `{"resourceLogs": [{"scopeLogs": [{"logRecords": [` + strings.Join(records, ", ") + `]}]}]}` + "\n"
		},
	}
	DescribeTable("reads the per-message events of the conventions before 1.37 as it reads the attributes",
		func(encoding string) {
			trace := encodings[encoding]()
			files := mustImport(trace, opts(""))
			want := mustImport(two, opts(""))
			// The same scenario, but for the reasoning part, which the events do not record.
			noReasoning := strings.Replace(string(scenarioOf(want)), "  omitted:\n    - reasoning x1\n", "", 1)
			Expect(string(scenarioOf(files))).To(Equal(strings.Replace(noReasoning, sha(two), sha(trace), 1)))
		},
		Entry(nil, "span events, the fields as attributes"),
		Entry(nil, "span events, the fields as JSON in gen_ai.event.content"),
		Entry(nil, "log records with a body, on the line after their spans"),
	)

	It("refuses a GenAI log record whose spanId names no span of the file, at the record", func() {
		trace := otlp(eventSpan(0)) + "\n" + `{"resourceLogs": [{"scopeLogs": [{"logRecords": [{"timeUnixNano": "1", "attributes": ` +
			`[{"key": "event.name", "value": {"stringValue": "gen_ai.user.message"}}], "spanId": "f00d", "body": {"kvlistValue": {"values": []}}}]}]}]}` + "\n"
		_, err := importer.Import([]byte(trace), opts(""))
		Expect(err).To(MatchError(`t.json:2:50: log record gen_ai.user.message: spanId "f00d" names no span of the files: export the spans with their events, or give the spans' file too: toolout import SPANS.json t.json`))
		Expect(strings.Split(trace, "\n")[1][49:]).To(HavePrefix(`{"timeUnixNano"`))
	})

	It("refuses a span whose input does not extend the one before it, at the message that differs", func() {
		other := `{"role": "user", "parts": [{"type": "text", "content": "Why is the import slow?"}]}`
		trace := otlp(chatSpan("1", "", list(user), list(call)), chatSpan("2", "", list(other, call, result), list(answer)))
		_, err := importer.Import([]byte(trace), opts(""))
		Expect(err).To(MatchError(MatchRegexp(`^t\.json:1:\d+: message 0 differs from chat span 1's input: each chat span's input extends the one before it, with its output$`)))
		trace = otlp(chatSpan("1", "", list(user), list(call)), chatSpan("2", "", list(user), list(answer)))
		_, err = importer.Import([]byte(trace), opts(""))
		Expect(err).To(MatchError(MatchRegexp(`^t\.json:1:\d+: the input holds 1 messages, not the 2 of chat span 1's input and output before its own: each chat span's input extends the one before it, with its output$`)))
	})

	It("stitches the chat spans of separate traces into one conversation when each input extends the one before it (un-parented calls)", func() {
		trace := otlp(chatSpan("1795600000000000000", sys, list(user), list(call)),
			spanOf("9c2e", "1795600002000000000", map[string]string{"gen_ai.system_instructions": sys,
				"gen_ai.input.messages": list(user, call, result), "gen_ai.output.messages": list(answer)}))
		want := mustImport(two, opts(""))
		files := mustImport(trace, opts(""))
		Expect(scenarioOf(files)).To(Equal(bytes.Replace(scenarioOf(want), []byte(sha(two)), []byte(sha(trace)), 1)))
	})

	other := `{"role": "user", "parts": [{"type": "text", "content": "Why is the import slow?"}]}`
	// three holds two conversations: traces 7f3a and 9c2e stitched, and aa01.
	three := otlp(chatSpan("1795600000000000000", "", list(user), list(call)),
		spanOf("aa01", "1795600001000000000", map[string]string{"gen_ai.input.messages": list(other), "gen_ai.output.messages": list(call)}),
		spanOf("9c2e", "1795600002000000000", map[string]string{"gen_ai.input.messages": list(user, call, result), "gen_ai.output.messages": list(answer)}))

	It("lists the conversations of several traces that do not extend each other, and asks for --trace-id", func() {
		_, err := importer.Import([]byte(three), opts(""))
		Expect(err).To(MatchError(`t.json: 2 conversations: traceId "7f3a" (and 1 more trace; 2 chat spans, from "Why is the export slow?"), ` +
			`traceId "aa01" (1 chat span, from "Why is the import slow?"); import one with --trace-id ID`))
	})

	It("imports the conversation that holds the trace --trace-id names, and refuses a traceId that is not there", func() {
		picked := opts("")
		picked.TraceID = "9c2e"
		files := mustImport(three, picked)
		Expect(string(scenarioOf(files))).To(ContainSubstring("final: Batch 7 retried 40 times."))
		picked.TraceID = "7f3a"
		Expect(mustImport(three, picked)).To(Equal(files))
		picked.TraceID = "aa01"
		_, err := importer.Import([]byte(three), picked)
		Expect(err).To(MatchError(`t.json: no message to import: no assistant message with leaked tool calls and no tool result over 12288 bytes`))
		picked.TraceID = "beef"
		_, err = importer.Import([]byte(three), picked)
		Expect(err).To(MatchError(`t.json: --trace-id beef: no chat span of that trace (chat spans of traces 7f3a, 9c2e, aa01)`))
	})

	// bad is the two-span trace with old replaced by new (once).
	bad := func(old, new string) string {
		Expect(two).To(ContainSubstring(old))
		return strings.Replace(two, old, new, 1)
	}
	// at is where marker, which the trace holds once, starts in it, as
	// "t.json:1:col" (the column in characters).
	at := func(trace, marker string) string {
		Expect(strings.Count(trace, marker)).To(Equal(1), marker)
		return fmt.Sprintf("t.json:1:%d", utf8.RuneCountInString(trace[:strings.Index(trace, marker)])+1)
	}
	DescribeTable("names the line:col of a bad trace, inside the JSON a string holds too",
		func(trace, marker, want string) {
			_, err := importer.Import([]byte(trace), opts(""))
			Expect(err).To(MatchError(at(trace, marker) + ": " + want))
		},
		Entry("bad JSON", `{"resourceSpans": [}`, "}", "unexpected '}'"),
		Entry("bad JSON in a string, after escapes and characters of several bytes",
			otlp(chatSpan("1", "", "[{\"role\": \"user\", \"parts\": [{\"content\": \"\u00e9t\u00e9 \\\"h\u00f4tel\\\"\"}, é}]", list(answer))),
			"é}", "gen_ai.input.messages: the JSON in the string: unexpected \"é\""),
		Entry("a message without role", bad(quote(list(user)), quote(`[{"parts": []}]`)), `{\"parts\": []}`,
			"gen_ai.input.messages[0]: field role: missing; want a string"),
		Entry("a part without type", bad(quote(list(user)), quote(`[{"role": "user", "parts": [{"content": "x"}]}]`)), `{\"content\": \"x\"}`,
			"gen_ai.input.messages[0].parts[0]: field type: missing; want a string"),
		Entry("a tool call without id", bad(quote(list(call)), quote(`[{"role": "assistant", "parts": [{"type": "tool_call", "name": "t"}]}]`)),
			`{\"type\": \"tool_call\", \"name\": \"t\"}`, "gen_ai.output.messages[0].parts[0]: field id: missing; want a string"),
		Entry("a bad role", bad(quote(list(user)), quote(`[{"role": "robot", "parts": []}]`)), `\"robot\"`,
			`gen_ai.input.messages[0]: role "robot" is not system, user, assistant or tool`),
		Entry("a reply that is a tool result", bad(quote(list(call)), quote(`[{"role": "tool", "parts": [{"type": "tool_call_response", "id": "c9", "response": "r"}]}]`)),
			`{\"role\": \"tool\", \"parts\": [{\"type\": \"tool_call_response\", \"id\": \"c9\"`,
			`gen_ai.output.messages[0]: role "tool", want the model's reply: assistant text and tool calls`),
		Entry("an AnyValue of two fields", bad(`{"stringValue": "chat"}`, `{"stringValue": "chat", "intValue": "1"}`), `{"stringValue": "chat", "intValue"`,
			"gen_ai.operation.name: an AnyValue holds one field, got 2 (stringValue, intValue)"),
		Entry("an intValue that is not an integer", otlp(`{"attributes": [{"key": "gen_ai.operation.name", "value": {"intValue": "x1"}}]}`), `"x1"`,
			`gen_ai.operation.name: intValue "x1": want an integer`),
		Entry("an input without an output", otlp(spanOf("7f3a", "1", map[string]string{"gen_ai.input.messages": list(user)})), `{"traceId"`,
			"chat span 1: no gen_ai.output.messages attribute: a chat span records its input and its output"),
		Entry("a span without content", otlp(spanOf("7f3a", "1", nil)), `{"traceId"`,
			"chat span 1: no gen_ai.output.messages attribute and no gen_ai.choice event: a chat span records its input and its output (turn on the capture of message content; "+
				"when the events are log records in a file of their own, give it too: toolout import t.json LOGS.json)"),
		Entry("a bad start time", bad(`"startTimeUnixNano": "1795600000000000000"`, `"startTimeUnixNano": "soon"`), `"soon"`,
			"field resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano: want nanoseconds since the epoch, a string of digits"),
		Entry("no chat span", otlp(`{"traceId": "1", "name": "GET /"}`), `{"resourceSpans"`,
			"no chat span: want spans whose gen_ai.operation.name is chat, text_completion, generate_content (or OpenLLMetry's gen_ai.prompt.N, OpenInference's llm.input_messages.N attributes)"),
		Entry("resourceSpans not a list", `{"resourceSpans": {}}`, "{}", "field resourceSpans: want a list, got an object"),
	)

	It("names the line of JSONL, and the line:col in a pretty-printed file", func() {
		_, err := importer.Import([]byte(otlp(chatSpan("1", "", list(user), list(call)))+"\n"+`{"resourceSpans": 3`+"\n"), opts(""))
		Expect(err).To(MatchError("t.json:2:20: unexpected end of input"))
		var pretty bytes.Buffer
		Expect(json.Indent(&pretty, []byte(bad(quote(list(user)), quote(`[{"role": "robot", "parts": []}]`))), "", "  ")).To(Succeed())
		_, err = importer.Import(pretty.Bytes(), opts(""))
		Expect(err).To(MatchError(`t.json:34:49: gen_ai.input.messages[0]: role "robot" is not system, user, assistant or tool`))
		Expect(strings.Split(pretty.String(), "\n")[33][48:]).To(HavePrefix(`\"robot\"`))
	})

	DescribeTable("is told from the content, or named with --format",
		func(trace, format, want string) { expectImport(trace, opts(format), want) },
		Entry("an OTLP export", two, "", ""),
		Entry("one export a line", otlp(chatSpan("1", "", list(user), list(call)))+"\n"+otlp(chatSpan("2", "", list(user, call, result), list(answer)))+"\n", "auto", ""),
		Entry("an OTLP export read as messages", two, "messages", `t.json:1:1: want a list of messages, bare or under "messages"`),
		Entry("messages read as OTLP", `[{"role": "user", "content": "q"}]`, "otel-genai", `t.json:1:1: want an OTLP JSON export, {"resourceSpans": [...]}, got a list`),
		Entry("a chat completions log read as OTLP", `{"request": {"messages": []}, "response": {}}`, "otel-genai",
			`t.json:1:1: want an OTLP JSON export, {"resourceSpans": [...]}: no "resourceSpans"`),
	)

	It("imports the committed samples into scenarios that name the format's source", func() {
		for _, name := range []string{"otel-genai.json", "otel-genai-events.jsonl"} {
			data, err := os.ReadFile("../../scenarios/regress/traces/" + name)
			Expect(err).NotTo(HaveOccurred())
			cut, err := importer.Cut(data, importer.ImportOptions{TraceName: name, At: -1})
			Expect(err).NotTo(HaveOccurred())
			Expect(cut).To(Equal(map[string]int{"otel-genai.json": 3, "otel-genai-events.jsonl": 2}[name]))
		}
	})
})
