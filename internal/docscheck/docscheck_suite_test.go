package docscheck_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestDocscheck(t *testing.T) { junit.RunSpecs(t, "docscheck", "internal-docscheck") }
