package mcpresult_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestMCPResult(t *testing.T) { junit.RunSpecs(t, "mcpresult", "core-mcpresult") }
