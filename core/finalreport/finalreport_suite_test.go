package finalreport_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestFinalReport(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "finalreport")
}
