package jsonspan

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/junit"
)

func TestJSONSpan(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "jsonspan")
}

var _ = junit.Report("core-gateway-jsonspan")
