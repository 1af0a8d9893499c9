package harness_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestHarness(t *testing.T) { junit.RunSpecs(t, "harness", "harness") }
