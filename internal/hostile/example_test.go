package hostile_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolout/toolout/internal/hostile"
)

// Each input is made at the size a benchmark asks for; every JSON one is
// valid JSON of about that size.
func ExampleInput() {
	for _, in := range hostile.JSONDocs[:2] {
		doc := in.Make(4096)
		fmt.Println(in.Name, json.Valid(doc), len(doc) >= 4000 && len(doc) <= 4200)
	}
	// Output:
	// records true true
	// numbers true true
}
