// Package junit lets every Ginkgo suite write a JUnit report for CI: one
// test case per spec (and so per scenario, each being a spec). A suite calls
// Report at the top level; the report is written only when TOOLOUT_JUNIT_DIR
// names a folder, as `make test` does. Only test code imports this package.
package junit

import (
	"os"
	"path/filepath"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
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
