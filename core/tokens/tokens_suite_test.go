package tokens_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestTokens(t *testing.T) { junit.RunSpecs(t, "tokens", "core-tokens") }
