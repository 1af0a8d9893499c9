package leaked_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestLeaked(t *testing.T) { junit.RunSpecs(t, "leaked", "core-leaked") }
