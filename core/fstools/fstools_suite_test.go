package fstools_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/junit"
)

func TestFstools(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "fstools")
}

var _ = junit.Report("core-fstools")
