package schema_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestSchema(t *testing.T) { junit.RunSpecs(t, "schema", "core-schema") }
