package jsonspan_test

import (
	"fmt"

	"github.com/toolout/toolout/core/jsonspan"
)

func Example() {
	body := []byte(`{"model": "m",  "messages": [{"role":"tool", "content": "a long output"}], "x": 1}`)
	root, err := jsonspan.Parse(body)
	if err != nil {
		panic(err)
	}
	content := root.Get("messages").Items()[0].Get("content")
	out := jsonspan.Splice(body, []jsonspan.Edit{{Start: content.Start, End: content.End, Text: jsonspan.String("short")}})
	fmt.Println(string(out))
	// Output: {"model": "m",  "messages": [{"role":"tool", "content": "short"}], "x": 1}
}
