package core_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestCore(t *testing.T) { junit.RunSpecs(t, "core", "core") }
