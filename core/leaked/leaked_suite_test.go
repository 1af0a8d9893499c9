package leaked_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/junit"
)

func TestLeaked(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "leaked")
}

var _ = junit.Report("core-leaked")
