package paging_test

import (
	"fmt"

	"github.com/toolout/toolout/core/paging"
)

// The line a model gets after an oversized result of a tool that reads
// files by lines.
func ExampleHint() {
	schema := []byte(`{"type": "object", "properties": {
		"path": {"type": "string"},
		"offset": {"type": "integer", "description": "first line"},
		"limit": {"type": "integer", "description": "lines to read"}}}`)
	fmt.Println(paging.Hint("Read", paging.Params(schema)))
	fmt.Printf("%q\n", paging.Hint("Bash", paging.Params([]byte(`{"type": "object", "properties": {"command": {"type": "string"}}}`))))
	// Output:
	// Or call Read again asking for less: a smaller `limit`, then `offset` for the rest.
	// ""
}
