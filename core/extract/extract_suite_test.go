package extract_test

import (
	"testing"

	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/internal/junit"
)

func TestExtract(t *testing.T) { junit.RunSpecs(t, "extract", "core-extract") }

// config returns extract.DefaultConfig() with set applied.
func config(set func(c *extract.Config)) extract.Config {
	c := extract.DefaultConfig()
	set(&c)
	return c
}
