package responses_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestResponses(t *testing.T) { junit.RunSpecs(t, "responses", "core-gateway-responses") }
