package wires_test

import (
	"fmt"

	"github.com/toolout/toolout/core/gateway/wires"
)

func ExampleFor() {
	for _, p := range []string{"openai", "bedrock", "responses", "gemini"} {
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
	// responses -> responses /v1/responses
	// provider "gemini": want openai, anthropic or responses
}

func ExampleRoutes() {
	for _, p := range []string{"openai", "anthropic"} {
		ws, _ := wires.Routes(p)
		for _, w := range ws {
			fmt.Println(p, "->", w.Name(), w.Path())
		}
	}
	// Output:
	// openai -> openai /v1/chat/completions
	// openai -> responses /v1/responses
	// anthropic -> anthropic /v1/messages
}
