package importer_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/harness/importer"
)

// printSource prints a scenario's provenance, its source: block, without
// the trace's sha256 (which changes with every byte of the trace).
func printSource(scenario []byte) {
	lines := strings.Split(string(scenario), "\n")
	start := slices.Index(lines, "source:")
	lines = slices.DeleteFunc(lines[start:start+9], func(l string) bool { return strings.HasPrefix(l, "  sha256:") })
	fmt.Println(strings.Join(lines, "\n"))
}

// A trace whose assistant leaked a tool call as text becomes two scenarios:
// the session replay and the leaked message alone.
func ExampleImport() {
	trace := []byte(`[
  {"role": "user", "content": "What is the weather in Lisbon?"},
  {"role": "assistant", "content": "<tool_call>{\"name\": \"weather\", \"arguments\": {\"city\": \"Lisbon\"}}</tool_call>"}
]`)
	files, err := importer.Import(trace, importer.ImportOptions{Dir: "scenarios/regress", Name: "weather", TraceName: "weather.json", At: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range files {
		fmt.Println(f.Path)
	}
	// Output:
	// scenarios/regress/weather.yaml
	// scenarios/regress/weather-leaked.yaml
}

// An Anthropic Messages log, one call a line, is read the same way: its
// content blocks become chat messages, and the blocks a scenario does not
// replay (here a thinking block) are counted in its provenance.
func ExampleImport_anthropicMessages() {
	trace := []byte(`{"request": {"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": "You answer with the tools.", "messages": [{"role": "user", "content": "What is the weather in Lisbon?"}]}, ` +
		`"response": {"id": "msg_1", "type": "message", "role": "assistant", "content": [{"type": "thinking", "thinking": "Call the tool.", "signature": "c2ln"}, ` +
		`{"type": "text", "text": "<tool_call>{\"name\": \"weather\", \"arguments\": {\"city\": \"Lisbon\"}}</tool_call>"}], "stop_reason": "end_turn"}}` + "\n")
	files, err := importer.Import(trace, importer.ImportOptions{Dir: "scenarios/regress", Name: "weather", TraceName: "weather.jsonl", At: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	printSource(files[0].Data)
	// Output:
	// source:
	//   trace: weather.jsonl
	//   messages:
	//     - 1
	//     - 2
	//   redacted: []
	//   omitted:
	//     - thinking x1
}

// OpenTelemetry GenAI spans exported as OTLP JSON are told from their
// content: the chat spans of the trace are its LLM calls, their messages
// may be JSON held in a stringValue, and the parts a scenario does not
// replay (here a reasoning part) are counted in its provenance.
func ExampleImport_otelGenAI() {
	in := `[{"role": "user", "parts": [{"type": "text", "content": "What is the weather in Lisbon?"}]}]`
	out := `[{"role": "assistant", "parts": [{"type": "reasoning", "content": "Use the tool."}, ` +
		`{"type": "text", "content": "<tool_call>{\"name\": \"weather\", \"arguments\": {\"city\": \"Lisbon\"}}</tool_call>"}]}]`
	attr := func(key, value string) string {
		b, _ := json.Marshal(map[string]any{"key": key, "value": map[string]string{"stringValue": value}})
		return string(b)
	}
	trace := `{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "5b8e", "name": "chat gpt-4.1", "attributes": [` +
		attr("gen_ai.operation.name", "chat") + `, ` + attr("gen_ai.input.messages", in) + `, ` + attr("gen_ai.output.messages", out) + `]}]}]}]}`
	files, err := importer.Import([]byte(trace), importer.ImportOptions{Dir: "scenarios/regress", Name: "weather", TraceName: "weather.json", At: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	printSource(files[0].Data)
	// Output:
	// source:
	//   trace: weather.json
	//   messages:
	//     - 0
	//     - 1
	//   redacted: []
	//   omitted:
	//     - reasoning x1
}
