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

// write writes text to root/rel and returns its path.
func write(root, rel, text string) string {
	GinkgoHelper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	Expect(os.WriteFile(p, []byte(text), 0o644)).To(Succeed())
	return p
}

var _ = Describe("goldens outside scenarios/", func() {
	var root string
	BeforeEach(func() { root = GinkgoT().TempDir() })

	DescribeTable("every scenario file has a golden, found from its path alone",
		func(goldenDir, rel, id, golden string) {
			file := filepath.Join(root, filepath.FromSlash(rel))
			dir := ""
			if goldenDir != "" {
				dir = filepath.Join(root, filepath.FromSlash(goldenDir))
			}
			gotID, _, gotGolden := harness.LayoutIn(dir, file)
			Expect(gotID).To(Equal(id))
			Expect(gotGolden).To(Equal(filepath.Join(root, filepath.FromSlash(golden))))
		},
		func(goldenDir, rel, id, golden string) string {
			return rel + " (--golden " + goldenDir + ") -> " + golden
		},
		Entry(nil, "", "scenarios/session/a.yaml", "session/a", "golden/session/a.txtar"),
		Entry(nil, "", "scenarios/a.yaml", "a", "golden/a.txtar"),
		Entry(nil, "", "x/scenarios/y/scenarios/a.yaml", "a", "x/scenarios/y/golden/a.txtar"),
		Entry(nil, "", "loose/x.yaml", "x", "loose/golden/x.txtar"),
		Entry(nil, "", "tests/agent/x.yml", "x", "tests/agent/golden/x.txtar"),
		Entry(nil, "", "tests/agent/billing/y.yaml", "y", "tests/agent/billing/golden/y.txtar"),
		Entry(nil, "tests/golden", "tests/agent/billing/y.yaml", "agent/billing/y", "tests/golden/agent/billing/y.txtar"),
		Entry(nil, "tests/agent/golden", "tests/agent/billing/y.yaml", "billing/y", "tests/agent/golden/billing/y.txtar"),
		Entry(nil, "tests/agent", "tests/agent/y.yaml", "y", "tests/agent/y.txtar"),
		Entry(nil, "golden", "scenarios/session/a.yaml", "scenarios/session/a", "golden/scenarios/session/a.txtar"),
		Entry(nil, "elsewhere/g", "tests/agent/y.yaml", "tests/agent/y", "elsewhere/g/tests/agent/y.txtar"),
	)

	It("keeps Layout as LayoutIn without a golden folder", func() {
		file := filepath.Join(root, "tests", "agent", "x.yaml")
		id, display, golden := harness.Layout(file)
		Expect([]string{id, display, golden}).To(Equal([]string{"x", filepath.ToSlash(file), filepath.Join(root, "tests", "agent", "golden", "x.txtar")}))
	})

	Context("a loose scenario", func() {
		var file, golden, g, f string
		BeforeEach(func() {
			file = write(root, "tests/agent/one.yaml", goldenScenario)
			golden = filepath.Join(root, "tests", "agent", "golden", "one.txtar")
			g, f = filepath.ToSlash(golden), filepath.ToSlash(file)
		})
		run := func(r *harness.Runner) *harness.Result {
			GinkgoHelper()
			r.Registry = components.Default()
			sc, err := r.Load(file)
			Expect(err).NotTo(HaveOccurred())
			return r.Run(context.Background(), sc)
		}

		It("fails on a missing golden under CI, never creates it, and names the toolout commands", func() {
			res := run(&harness.Runner{CI: true})
			Expect(res.Failures).To(Equal([]string{
				f + ": missing golden file (with CI=true goldens are never created; run `toolout test --update " + f + "` and commit " + g + ")",
				g + ".got: the transcript of this run\n" +
					"  to read it:   cat " + g + ".got   (there is no " + g + " yet)\n" +
					"  to accept it: toolout test --update " + f,
			}))
			Expect(golden).NotTo(BeAnExistingFile())
		})

		It("creates its golden outside CI, fails once the transcript changes, and Update rewrites it", func() {
			res := run(&harness.Runner{})
			Expect(res.Passed()).To(BeTrue(), "%v", res.Failures)
			Expect(res.Notes).To(Equal([]string{"created " + g}))
			Expect(os.ReadFile(golden)).To(Equal(res.Transcript))

			write(root, "tests/agent/one.yaml", changedScenario)
			res = run(&harness.Runner{})
			Expect(res.Failures).To(HaveLen(2))
			Expect(res.Failures[0]).To(HavePrefix(f + ": transcript differs from " + g + " (-golden +got):\n"))
			Expect(res.Failures[0]).To(ContainSubstring("-  \"content\": \"v1\",\n+  \"content\": \"v2\","))
			Expect(res.Failures[1]).To(Equal(g + ".got: the transcript of this run\n" +
				"  to diff it:   diff -u " + g + " " + g + ".got\n" +
				"  to accept it: toolout test --update " + f))

			up := run(&harness.Runner{Update: true})
			Expect(up.Passed()).To(BeTrue())
			Expect(up.Notes).To(Equal([]string{"updated " + g}))
			Expect(golden + ".got").NotTo(BeAnExistingFile())
		})

		It("with a golden folder, is compared with the golden there, and its hints repeat --golden", func() {
			dir := filepath.Join(root, "tests", "golden")
			r := &harness.Runner{GoldenDir: dir, CI: true}
			res := run(r)
			want := filepath.ToSlash(filepath.Join(dir, "agent", "one.txtar"))
			Expect(res.Scenario.ID).To(Equal("agent/one"))
			Expect(res.Failures).To(HaveLen(2))
			Expect(res.Failures[0]).To(Equal(f + ": missing golden file (with CI=true goldens are never created; run `toolout test --update --golden " +
				filepath.ToSlash(dir) + " " + f + "` and commit " + want + ")"))
			Expect(res.Failures[1]).To(HaveSuffix("  to accept it: toolout test --update --golden " + filepath.ToSlash(dir) + " " + f))

			Expect(run(&harness.Runner{GoldenDir: dir, Update: true}).Passed()).To(BeTrue())
			Expect(filepath.Join(dir, "agent", "one.txtar")).To(BeAnExistingFile())
			Expect(golden).NotTo(BeAnExistingFile(), "the sibling golden is not used with a golden folder")
			Expect(run(&harness.Runner{GoldenDir: dir, CI: true}).Passed()).To(BeTrue())
		})

		It("does not hold a copied scenario to its scenario: field (it is named by its path)", func() {
			write(root, "tests/agent/one.yaml", "scenario: demo/other\n"+goldenScenario)
			res := run(&harness.Runner{})
			Expect(res.Passed()).To(BeTrue(), "%v", res.Failures)
			Expect(string(res.Transcript)).To(HavePrefix("scenario: one\n"))
		})
	})

	It("names the program as the Runner was given it and the scenario as it was given, never a make target, wherever the scenario lies", func() {
		write(root, "go.mod", "module github.com/toolout/toolout\n\ngo 1.26\n")
		write(root, "scenarios/demo/one.yaml", goldenScenario+"expect: {found: false}\n")
		write(root, "docs/examples/two.yaml", goldenScenario+"expect: {found: false}\n")
		GinkgoT().Chdir(filepath.Join(root, "docs"))
		r := &harness.Runner{Registry: components.Default(), CI: true}
		sc, err := r.Load(filepath.Join("..", "scenarios", "demo", "one.yaml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(harness.AcceptCommand(sc, "")).To(Equal("toolout test --update ../scenarios/demo/one.yaml"), "relative as given, not rewritten to scenarios/ nor made absolute")
		Expect(harness.AcceptCommand(sc, "go tool toolout")).To(Equal("go tool toolout test --update ../scenarios/demo/one.yaml"))
		sc, err = r.Load("./examples/two.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(harness.AcceptCommand(sc, "./bin/toolout")).To(Equal("./bin/toolout test --update examples/two.yaml"))
		abs := filepath.Join(root, "docs", "examples", "two.yaml")
		sc, err = r.Load(abs)
		Expect(err).NotTo(HaveOccurred())
		Expect(harness.AcceptCommand(sc, "")).To(Equal("toolout test --update "+filepath.ToSlash(abs)), "absolute as given")
	})
})
