package agent_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestAgent(t *testing.T) { junit.RunSpecs(t, "agent", "core-agent") }
