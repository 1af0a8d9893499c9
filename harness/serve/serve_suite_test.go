package serve_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestServe(t *testing.T) { junit.RunSpecs(t, "serve", "harness-serve") }
