package importer_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/harness/importer"
)

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
	lines := strings.Split(string(files[0].Data), "\n")
	start := slices.Index(lines, "source:")
	lines = slices.DeleteFunc(lines[start:start+9], func(l string) bool { return strings.HasPrefix(l, "  sha256:") })
	fmt.Println(strings.Join(lines, "\n"))
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
