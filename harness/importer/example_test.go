package importer_test

import (
	"fmt"

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
