package jsonlex_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestJSONLex(t *testing.T) { junit.RunSpecs(t, "jsonlex", "core-jsonlex") }
