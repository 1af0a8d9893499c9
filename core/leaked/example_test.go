package leaked_test

import (
	"fmt"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/leaked"
)

func ExampleExtract() {
	text := "Checking the logs.\n<tool_call>\n<function=logs__query>\n<parameter=since>\n1h\n</parameter>\n<parameter=limit>\n50\n</parameter>\n</function>\n</tool_call>"
	r := leaked.Extract(text, leaked.Options{Sources: core.Sources{NewID: func() string { return "call-1" }}})
	for _, c := range r.Calls {
		fmt.Println(c.ID, c.Name, string(c.Arguments))
	}
	fmt.Printf("%q %q\n", *r.Content, r.Patterns)
	// Output:
	// call-1 logs__query {"since":"1h","limit":50}
	// "Checking the logs." ["<tool_call>" "<function=>"]
}
