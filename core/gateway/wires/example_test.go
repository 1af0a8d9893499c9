package wires_test

import (
	"fmt"

	"github.com/toolout/toolout/core/gateway/wires"
)

func ExampleFor() {
	for _, p := range []string{"openai", "bedrock", "gemini"} {
		w, err := wires.For(p)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(p, "->", w.Name(), w.Path())
	}
	// Output:
	// openai -> openai /v1/chat/completions
	// bedrock -> anthropic /v1/messages
	// gateway: provider "gemini": want openai or anthropic
}
