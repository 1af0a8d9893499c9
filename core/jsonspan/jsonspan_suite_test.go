package jsonspan

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestJSONSpan(t *testing.T) { junit.RunSpecs(t, "jsonspan", "core-jsonspan") }
