package mcpresult_test

import (
	"fmt"

	"github.com/toolout/toolout/core/mcpresult"
)

// A tool that returns its JSON twice, as the MCP revision asks (the
// structured value and its text), and a chart: the model reads the JSON
// once and a line for the image.
func ExampleNormalize() {
	r, err := mcpresult.Parse([]byte(`{
		"content": [
			{"type": "text", "text": "{\"rows\": 2, \"ok\": true}"},
			{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
		],
		"structuredContent": {"ok": true, "rows": 2},
		"_meta": {"anthropic/maxResultSizeChars": 50000}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	n := mcpresult.Normalize(r)
	fmt.Println(n.Text)
	fmt.Println(n.Deduplicated, n.Binary, n.MaxChars)
	// Output:
	// {"rows": 2, "ok": true}
	// [image: image/png, 8 bytes]
	// true 1 50000
}
