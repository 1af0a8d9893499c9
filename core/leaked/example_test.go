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

func ExampleNewStream() {
	st := leaked.NewStream(leaked.Options{Sources: core.Sources{NewID: func() string { return "call-1" }}})
	show := func(ev []leaked.Event) {
		for _, e := range ev {
			if e.Call != nil {
				fmt.Printf("call %s %s %s\n", e.Call.ID, e.Call.Name, e.Call.Arguments)
				continue
			}
			fmt.Printf("text %q\n", e.Text)
		}
	}
	for _, delta := range []string{"Checking the ", "logs.\n<tool_", `call>{"name": "logs__query", `,
		`"arguments": {"since": "1h"}}</tool_call>`} {
		show(st.Write(delta))
	}
	ev, r := st.Close()
	show(ev)
	fmt.Printf("%q %d call(s)\n", *r.Content, len(r.Calls))
	// Output:
	// text "Checking the "
	// text "logs.\n"
	// call call-1 logs__query {"since":"1h"}
	// "Checking the logs." 1 call(s)
}
