package finalreport_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/junit"
)

func TestFinalReport(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "finalreport")
}

var _ = junit.Report("core-finalreport")
