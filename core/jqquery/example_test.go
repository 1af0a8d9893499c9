package jqquery_test

import (
	"context"
	"fmt"

	"github.com/toolout/toolout/core/jqquery"
)

// A model asks a stored JSON output for the late orders only.
func ExampleRun() {
	doc := `{"orders": [{"id": "A-17", "status": "late"}, {"id": "A-18", "status": "shipped"}, {"id": "A-19", "status": "late"}]}`
	r, err := jqquery.Run(context.Background(), doc, `.orders[] | select(.status == "late") | .id`, jqquery.Options{})
	fmt.Println(r.Text, r.Values, err)
	_, err = jqquery.Run(context.Background(), doc, `.orders[] | .id.name`, jqquery.Options{})
	fmt.Println(err)
	// Output:
	// "A-17"
	// "A-19" 2 <nil>
	// jq: expected an object but got: string ("A-17")
}
