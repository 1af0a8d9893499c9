package harness_test

import (
	"io/fs"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
)

// goldenRoot is the bundled goldens folder, beside scenarioRoot.
const goldenRoot = "../golden"

var _ = It("has a scenario for every golden file (a golden left by a renamed or removed scenario fails)", func() {
	files, err := harness.Discover(scenarioRoot)
	Expect(err).NotTo(HaveOccurred())
	owned := map[string]bool{}
	for _, f := range files {
		_, _, golden := harness.Layout(f)
		abs, err := filepath.Abs(golden)
		Expect(err).NotTo(HaveOccurred())
		owned[abs] = true
	}
	Expect(owned).NotTo(BeEmpty())
	var orphans []string
	err = filepath.WalkDir(goldenRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, harness.GotSuffix) {
			return err // a .got is a failing run's transcript, ignored by git
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		if !owned[abs] {
			rel, _ := filepath.Rel(filepath.Dir(goldenRoot), p)
			orphans = append(orphans, rel)
		}
		return nil
	})
	Expect(err).NotTo(HaveOccurred())
	Expect(orphans).To(BeEmpty(), "goldens without a scenario (remove them, or restore the scenario):\n%s", strings.Join(orphans, "\n"))
})
