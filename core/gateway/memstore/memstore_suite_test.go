package memstore_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/junit"
)

func TestMemstore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "memstore")
}

var _ = junit.Report("core-gateway-memstore")
