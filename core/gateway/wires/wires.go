// Package wires names the wire formats the gateway ships, so that the
// command and the harness pick a gateway.Wire from a provider name the same
// way: "openai" (or empty) is the chat-completions API, "anthropic" (or
// "bedrock", which speaks the same Messages shapes) the Messages API,
// "responses" the OpenAI Responses API. An OpenAI upstream serves both
// of its APIs: [Routes] lists the wires a provider's proxy serves.
package wires

import (
	"fmt"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/responses"
)

// For returns the wire of a provider.
func For(provider string) (gateway.Wire, error) {
	switch provider {
	case "openai", "":
		return openai.Wire{}, nil
	case "anthropic", "bedrock":
		return anthropic.Wire{}, nil
	case "responses":
		return responses.Wire{}, nil
	}
	return nil, fmt.Errorf("provider %q: want openai, anthropic or responses", provider)
}

// Routes returns the wires a proxy in front of the provider serves: for
// "openai" (or empty) Chat Completions and the Responses API, else the
// provider's one wire.
func Routes(provider string) ([]gateway.Wire, error) {
	w, err := For(provider)
	if err != nil {
		return nil, err
	}
	if provider == "openai" || provider == "" {
		return []gateway.Wire{w, responses.Wire{}}, nil
	}
	return []gateway.Wire{w}, nil
}
