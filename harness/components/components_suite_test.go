package components

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestComponents(t *testing.T) { junit.RunSpecs(t, "components", "harness-components") }
