package extract_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/internal/junit"
)

func TestExtract(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "extract")
}

var _ = junit.Report("core-extract")

// config returns extract.DefaultConfig() with set applied.
func config(set func(c *extract.Config)) extract.Config {
	c := extract.DefaultConfig()
	set(&c)
	return c
}
