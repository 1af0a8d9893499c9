package fakes_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestFakes(t *testing.T) { junit.RunSpecs(t, "fakes", "fakes") }
