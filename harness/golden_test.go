package harness_test

import (
	"context"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

const goldenScenario = `component: finalreport
config: {nonce: abc}
input: {text: '<ai-agent-abc-FINAL format="text">v1</ai-agent-abc-FINAL>'}
`

var _ = Describe("golden files", func() {
	var root, file, golden string

	BeforeEach(func() {
		root = GinkgoT().TempDir()
		file = filepath.Join(root, "scenarios", "demo", "one.yaml")
		golden = filepath.Join(root, "golden", "demo", "one.txtar")
		Expect(os.MkdirAll(filepath.Dir(file), 0o755)).To(Succeed())
		Expect(os.WriteFile(file, []byte(goldenScenario), 0o644)).To(Succeed())
	})

	run := func(r *harness.Runner) *harness.Result {
		r.Registry = components.Default()
		sc, err := r.Load(file)
		Expect(err).NotTo(HaveOccurred())
		return r.Run(context.Background(), sc)
	}

	It("lays out ids, display paths and goldens from the scenarios folder", func() {
		id, display, g := harness.Layout(file)
		Expect(id).To(Equal("demo/one"))
		Expect(display).To(Equal("scenarios/demo/one.yaml"))
		Expect(g).To(Equal(golden))
	})

	It("fails on a missing golden with CI=true and never creates it", func() {
		res := run(&harness.Runner{CI: true})
		Expect(res.Passed()).To(BeFalse())
		Expect(res.Failures).To(ConsistOf(ContainSubstring("scenarios/demo/one.yaml: missing golden file")))
		Expect(golden).NotTo(BeAnExistingFile())
	})

	It("creates a missing golden outside CI, then matches it byte for byte", func() {
		res := run(&harness.Runner{})
		Expect(res.Passed()).To(BeTrue())
		Expect(res.Notes).To(Equal([]string{"created golden/demo/one.txtar"}))
		data, err := os.ReadFile(golden)
		Expect(err).NotTo(HaveOccurred())
		Expect(data).To(Equal(res.Transcript))

		again := run(&harness.Runner{CI: true})
		Expect(again.Passed()).To(BeTrue())
		Expect(again.Notes).To(BeEmpty())
	})

	It("reports a mismatch with a full diff and the command that accepts it, and Update rewrites", func() {
		Expect(run(&harness.Runner{}).Passed()).To(BeTrue())
		changed := []byte(goldenScenario[:len(goldenScenario)-len("v1</ai-agent-abc-FINAL>'}\n")] + "v2</ai-agent-abc-FINAL>'}\n")
		Expect(os.WriteFile(file, changed, 0o644)).To(Succeed())

		res := run(&harness.Runner{CI: true})
		Expect(res.Failures).To(HaveLen(1))
		Expect(res.Failures[0]).To(ContainSubstring("transcript differs from golden/demo/one.txtar (-golden +got)"))
		Expect(res.Failures[0]).To(ContainSubstring("-  \"content\": \"v1\",\n+  \"content\": \"v2\","))
		Expect(res.Failures[0]).To(ContainSubstring("UPDATE_GOLDEN=1 go run ./cmd/toolout test scenarios/demo/one.yaml"))

		up := run(&harness.Runner{Update: true})
		Expect(up.Passed()).To(BeTrue())
		Expect(up.Notes).To(Equal([]string{"updated golden/demo/one.txtar"}))
		Expect(run(&harness.Runner{CI: true}).Passed()).To(BeTrue())
	})

	It("does not touch the golden of a failing scenario", func() {
		bad := goldenScenario + "expect: {found: false}\n"
		Expect(os.WriteFile(file, []byte(bad), 0o644)).To(Succeed())
		res := run(&harness.Runner{Update: true})
		Expect(res.Failures).To(ConsistOf("scenarios/demo/one.yaml:4:10: expect.found: got true, want false"))
		Expect(golden).NotTo(BeAnExistingFile())
	})
})
