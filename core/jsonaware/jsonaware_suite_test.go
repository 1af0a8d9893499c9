package jsonaware_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestJSONAware(t *testing.T) { junit.RunSpecs(t, "jsonaware", "core-jsonaware") }
