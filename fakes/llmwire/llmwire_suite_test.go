package llmwire_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestLLMWire(t *testing.T) { junit.RunSpecs(t, "llmwire", "fakes/llmwire") }
