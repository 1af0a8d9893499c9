// Package wires names the wire formats the gateway ships, so that the
// command and the harness pick a gateway.Wire from a provider name the same
// way: "openai" (or empty) is the chat-completions API, "anthropic" (or
// "bedrock", which speaks the same Messages shapes) the Messages API.
package wires

import (
	"fmt"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
)

// For returns the wire of a provider.
func For(provider string) (gateway.Wire, error) {
	switch provider {
	case "openai", "":
		return openai.Wire{}, nil
	case "anthropic", "bedrock":
		return anthropic.Wire{}, nil
	}
	return nil, fmt.Errorf("gateway: provider %q: want openai or anthropic", provider)
}
