package session_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestSession(t *testing.T) { junit.RunSpecs(t, "session", "core-session") }
