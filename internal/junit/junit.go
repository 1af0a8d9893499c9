// Package junit lets every Ginkgo suite write a JUnit report for CI: one
// test case per spec (and so per scenario, each being a spec). A suite calls
// RunSpecs from its Test function (or Report at the top level); the report is written only when TOOLOUT_JUNIT_DIR
// names a folder, as `make test` does. Only test code imports this package.
package junit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"
)

// EnvDir names the folder the reports go to.
const EnvDir = "TOOLOUT_JUNIT_DIR"

// Report registers a ReportAfterSuite that writes DIR/<suite>.xml.
func Report(suite string) bool {
	return ginkgo.ReportAfterSuite("junit report", func(r types.Report) {
		dir := os.Getenv(EnvDir)
		if dir == "" {
			return
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			ginkgo.Fail("junit: " + err.Error())
		}
		if err := reporters.GenerateJUnitReportWithConfig(r, filepath.Join(dir, suite+".xml"),
			reporters.JunitReportConfig{OmitTimelinesForSpecState: types.SpecStatePassed}); err != nil {
			ginkgo.Fail("junit: " + err.Error())
		}
	})
}

// RunSpecs runs the Ginkgo suite of a package's tests under description,
// failing through Gomega, and writes its JUnit report to DIR/<report>.xml
// (see Report): the whole of a suite file's Test function.
func RunSpecs(t *testing.T, description, report string) {
	gomega.RegisterFailHandler(ginkgo.Fail)
	Report(report)
	ginkgo.RunSpecs(t, description)
}
