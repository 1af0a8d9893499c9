package cicheck_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestCicheck(t *testing.T) { junit.RunSpecs(t, "cicheck", "internal-cicheck") }
