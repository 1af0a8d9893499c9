package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

const goldenScenario = `component: finalreport
config: {nonce: abc}
input: {text: '<ai-agent-abc-FINAL format="text">v1</ai-agent-abc-FINAL>'}
`

// changedScenario is goldenScenario with another content: its transcript
// differs from goldenScenario's golden.
const changedScenario = `component: finalreport
config: {nonce: abc}
input: {text: '<ai-agent-abc-FINAL format="text">v2</ai-agent-abc-FINAL>'}
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

	It("names files in its commands as they run from the working directory: relative below it, else absolute", func() {
		wd, err := os.Getwd()
		Expect(err).NotTo(HaveOccurred())
		Expect(harness.Runnable(filepath.Join(wd, "golden", "x.txtar"))).To(Equal("golden/x.txtar"))
		Expect(harness.Runnable(filepath.Join("scenarios", "x.yaml"))).To(Equal("scenarios/x.yaml"))
		Expect(harness.Runnable(filepath.Join("..", "scenarios", "x.yaml"))).To(Equal(filepath.ToSlash(filepath.Join(filepath.Dir(wd), "scenarios", "x.yaml"))))
		Expect(harness.Runnable(golden)).To(Equal(filepath.ToSlash(golden)))
	})

	It("lays out ids, display paths and goldens from the scenarios folder", func() {
		id, display, g := harness.Layout(file)
		Expect(id).To(Equal("demo/one"))
		Expect(display).To(Equal("scenarios/demo/one.yaml"))
		Expect(g).To(Equal(golden))
	})

	// gotFile is where a failing run leaves its transcript.
	gotFile := func() string { return golden + ".got" }
	// g and f are the golden and the scenario as the failure's commands
	// name them: absolute, since the temporary folder is not below the
	// working directory.
	var g, f string
	JustBeforeEach(func() { g, f = filepath.ToSlash(golden), filepath.ToSlash(file) })

	It("fails on a missing golden with CI=true, never creates it, and leaves the transcript in a .got", func() {
		res := run(&harness.Runner{CI: true})
		Expect(res.Passed()).To(BeFalse())
		Expect(res.Failures).To(Equal([]string{
			"scenarios/demo/one.yaml: missing golden file (with CI=true goldens are never created; run `toolout test --update " + f + "` and commit golden/demo/one.txtar)",
			g + ".got: the transcript of this run\n" +
				"  to read it:   cat " + g + ".got   (there is no " + g + " yet)\n" +
				"  to accept it: toolout test --update " + f,
		}))
		Expect(golden).NotTo(BeAnExistingFile())
		Expect(os.ReadFile(gotFile())).To(Equal(res.Transcript))
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
		Expect(gotFile()).NotTo(BeAnExistingFile())
	})

	It("reports a mismatch with a full diff, leaves the transcript in a .got with the commands that diff and accept it, and Update rewrites and removes the .got", func() {
		Expect(run(&harness.Runner{}).Passed()).To(BeTrue())
		old, err := os.ReadFile(golden)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(file, []byte(changedScenario), 0o644)).To(Succeed())

		res := run(&harness.Runner{CI: true})
		Expect(res.Failures).To(HaveLen(2))
		Expect(res.Failures[0]).To(HavePrefix("scenarios/demo/one.yaml: transcript differs from golden/demo/one.txtar (-golden +got):\n"))
		Expect(res.Failures[0]).To(ContainSubstring("-  \"content\": \"v1\",\n+  \"content\": \"v2\","))
		Expect(res.Failures[1]).To(Equal(g + ".got: the transcript of this run\n" +
			"  to diff it:   diff -u " + g + " " + g + ".got\n" +
			"  to accept it: toolout test --update " + f))
		Expect(os.ReadFile(gotFile())).To(Equal(res.Transcript))
		Expect(os.ReadFile(golden)).To(Equal(old), "a mismatch leaves the golden as it was")

		up := run(&harness.Runner{Update: true})
		Expect(up.Passed()).To(BeTrue())
		Expect(up.Notes).To(Equal([]string{"updated golden/demo/one.txtar"}))
		Expect(gotFile()).NotTo(BeAnExistingFile(), "a passing run removes the stale .got")
		Expect(run(&harness.Runner{CI: true}).Passed()).To(BeTrue())
	})

	It("removes the stale .got of an earlier failure when the scenario passes", func() {
		Expect(run(&harness.Runner{}).Passed()).To(BeTrue())
		Expect(os.WriteFile(gotFile(), []byte("stale\n"), 0o644)).To(Succeed())
		res := run(&harness.Runner{CI: true})
		Expect(res.Passed()).To(BeTrue())
		Expect(res.Notes).To(BeEmpty())
		Expect(gotFile()).NotTo(BeAnExistingFile())
	})

	It("does not write the golden of a failing scenario, even with Update, and leaves its transcript in a .got", func() {
		bad := goldenScenario + "expect: {found: false}\n"
		Expect(os.WriteFile(file, []byte(bad), 0o644)).To(Succeed())
		res := run(&harness.Runner{Update: true})
		Expect(res.Failures).To(Equal([]string{
			"scenarios/demo/one.yaml:4:10: expect.found: got true, want false",
			g + ".got: the transcript of this run\n" +
				"  to read it:   cat " + g + ".got   (there is no " + g + " yet)\n" +
				"  to accept it, once the expectations hold: toolout test --update " + f,
		}))
		Expect(golden).NotTo(BeAnExistingFile())
		Expect(os.ReadFile(gotFile())).To(Equal(res.Transcript))
	})

	It("says when a failing run's transcript is the golden's, and offers the diff when it is not", func() {
		Expect(run(&harness.Runner{}).Passed()).To(BeTrue())
		Expect(os.WriteFile(file, []byte(goldenScenario+"expect: {found: false}\n"), 0o644)).To(Succeed())
		res := run(&harness.Runner{})
		Expect(res.Failures).To(HaveLen(2))
		Expect(res.Failures[1]).To(ContainSubstring("  to read it:   cat " + g + ".got   (the same bytes as " + g + ")\n"))

		Expect(os.WriteFile(file, []byte(changedScenario+"expect: {found: false}\n"), 0o644)).To(Succeed())
		res = run(&harness.Runner{})
		Expect(res.Failures).To(HaveLen(2), "an expectation failure does not compare with the golden")
		Expect(res.Failures[1]).To(ContainSubstring("  to diff it:   diff -u " + g + " " + g + ".got\n"))
	})

	It("says, without another failure, that the .got could not be written, and leaves no temporary file", func() {
		Expect(os.MkdirAll(filepath.Join(gotFile(), "in-the-way"), 0o755)).To(Succeed())
		res := run(&harness.Runner{CI: true})
		Expect(res.Failures).To(HaveLen(2))
		Expect(res.Failures[1]).To(HavePrefix(g + ".got: the transcript of this run could not be written: "))
		Expect(strings.TrimPrefix(res.Failures[1], g)).NotTo(ContainSubstring(root), "the error names no temporary path")
		Expect(os.ReadDir(filepath.Dir(golden))).To(HaveLen(1), "only the .got in the way")

		Expect(run(&harness.Runner{}).Passed()).To(BeTrue(), "creates the golden")
		res = run(&harness.Runner{})
		Expect(res.Passed()).To(BeTrue(), "a .got that cannot be removed fails nothing")
		Expect(res.Notes).To(ConsistOf(HavePrefix("could not remove the stale golden/demo/one.txtar.got: ")))
	})

	It("writes the .got whole when several runs of the same failing scenario write it at once", func() {
		r := &harness.Runner{Registry: components.Default(), CI: true}
		Expect(os.WriteFile(file, []byte(goldenScenario+"expect: {found: false}\n"), 0o644)).To(Succeed())
		sc, err := r.Load(file)
		Expect(err).NotTo(HaveOccurred())
		results := make([]*harness.Result, 8)
		for i := range results {
			results[i] = r.Execute(context.Background(), sc)
		}
		var wg sync.WaitGroup
		for _, res := range results {
			wg.Go(func() { r.Golden(res) })
		}
		wg.Wait()
		for _, res := range results {
			Expect(res.Failures).To(HaveLen(2))
			Expect(res.Failures[1]).To(HavePrefix(g + ".got: the transcript of this run\n"))
		}
		Expect(os.ReadFile(gotFile())).To(Equal(results[0].Transcript))
		entries, err := os.ReadDir(filepath.Dir(golden))
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(1), "no temporary file is left")
	})
})
