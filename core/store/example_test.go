package store_test

import (
	"fmt"
	"os"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// A session's store keeps an oversized output under a handle; the model sees
// the spec's handle message, and tool_output reads the output back.
func ExampleStore() {
	base, err := os.MkdirTemp("", "store-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(base)
	src := core.Sources{NewID: func() string { return "00000000-0000-4000-8000-000000000001" }}
	st, err := store.New(store.Options{Base: base, SessionID: "example", Sources: src})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()

	output := "id,status\n1,shipped\n2,chargeback\n"
	m, err := st.Put("orders__list", `{"since":"1d"}`, output, store.Measure(output, tokens.MustNew(tokens.CL100K)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(store.HandleMessage(m))
	got, text, _ := st.Read(m.Handle)
	fmt.Println(got.Tool, got.Lines, len(text))
	// Output:
	// Tool output is too large (33 bytes, 4 lines, 13 tokens).
	// Call tool_output(handle = "00000000-0000-4000-8000-000000000001", extract = "what to extract").
	// Provide precise and detailed instructions in `extract` about what you are looking for.
	// orders__list 4 33
}
