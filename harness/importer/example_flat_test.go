package importer_test

import (
	"fmt"
	"strings"

	"github.com/toolout/toolout/harness/importer"
)

// OpenLLMetry's chat spans flatten the messages into indexed attributes
// (gen_ai.prompt.N.*, gen_ai.completion.N.*); the otel-genai format reads
// them as it reads the conventions from 1.37. Here the reply leaked a
// tool call as text.
func ExampleImport_openLLMetry() {
	attr := func(k, v string) string { return `{"key": "` + k + `", "value": {"stringValue": ` + quote(v) + `}}` }
	span := `{"traceId": "9d1f", "spanId": "5e1a", "name": "openai.chat", "startTimeUnixNano": "1", "attributes": [` + strings.Join([]string{
		attr("llm.request.type", "chat"),
		attr("gen_ai.prompt.0.role", "system"), attr("gen_ai.prompt.0.content", "You answer with the tools."),
		attr("gen_ai.prompt.1.role", "user"), attr("gen_ai.prompt.1.content", "What is the weather in Lisbon?"),
		attr("gen_ai.completion.0.role", "assistant"), attr("gen_ai.completion.0.finish_reason", "stop"),
		attr("gen_ai.completion.0.content", `<tool_call>{"name": "weather", "arguments": {"city": "Lisbon"}}</tool_call>`),
	}, ", ") + `]}`
	trace := []byte(`{"resourceSpans": [{"scopeSpans": [{"spans": [` + span + `]}]}]}`)
	files, err := importer.Import(trace, importer.ImportOptions{Dir: "scenarios/regress", Name: "weather", TraceName: "weather.json", At: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range files {
		fmt.Println(f.Path)
	}
	printSource(files[0].Data)
	// Output:
	// scenarios/regress/weather.yaml
	// scenarios/regress/weather-leaked.yaml
	// source:
	//   trace: weather.json
	//   messages:
	//     - 1
	//     - 2
	//   redacted: []
	// config:
	//   max_tool_response_bytes: 12288
}
