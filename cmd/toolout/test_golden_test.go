package main

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// writeIn writes text to root/rel and returns its path.
func writeIn(root, rel, text string) string {
	GinkgoHelper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	Expect(os.WriteFile(p, []byte(text), 0o644)).To(Succeed())
	return p
}

// exitOf runs the command like invoke and returns its exit status.
func exitOf(args ...string) int {
	code, _, _ := invoke("", args...)
	return code
}

// v is a scenario whose transcript holds its argument.
func v(s string) string {
	return "component: finalreport\nconfig: {nonce: abc}\n" +
		"input: {text: '<ai-agent-abc-FINAL format=\"text\">" + s + "</ai-agent-abc-FINAL>'}\n"
}

var _ = Describe("toolout test: goldens outside scenarios/", func() {
	var root string
	BeforeEach(func() {
		root = GinkgoT().TempDir()
		GinkgoT().Setenv("CI", "")
		GinkgoT().Setenv("UPDATE_GOLDEN", "")
	})

	It("runs the issue's repro: a copied scenario in a loose folder gets golden/x.txtar, fails once its answer changes, and CI=true never creates it", func() {
		bundled, err := os.ReadFile("../../scenarios/session/over-cap-handle.yaml")
		Expect(err).NotTo(HaveOccurred())
		loose := filepath.Join(root, "loose")
		writeIn(loose, "x.yaml", string(bundled))
		GinkgoT().Chdir(loose)

		code, stdout, stderr := invoke("", "test", "x.yaml", "--update")
		Expect(code).To(Equal(0), stdout+stderr)
		Expect(stdout).To(Equal("ok   x\n     created golden/x.txtar\n1 passed, 0 failed\n"))
		golden, err := os.ReadFile(filepath.Join(loose, "golden", "x.txtar"))
		Expect(err).NotTo(HaveOccurred())

		changed := strings.Replace(string(bundled), "final: Stored; will extract next.", "final: Done already.", 1)
		Expect(changed).NotTo(Equal(string(bundled)))
		writeIn(loose, "x.yaml", changed)
		code, stdout, _ = invoke("", "test", "x.yaml")
		Expect(code).To(Equal(1))
		Expect(stdout).To(HavePrefix("FAIL x\n     x.yaml: transcript differs from golden/x.txtar (-golden +got):\n"))
		Expect(stdout).To(ContainSubstring("Stored; will extract next."))
		Expect(stdout).To(ContainSubstring("Done already."))
		Expect(stdout).To(HaveSuffix("\n     golden/x.txtar.got: the transcript of this run\n" +
			"       to diff it:   diff -u golden/x.txtar golden/x.txtar.got\n" +
			"       to accept it: toolout test --update x.yaml\n" +
			"0 passed, 1 failed\n"))
		Expect(os.ReadFile(filepath.Join(loose, "golden", "x.txtar"))).To(Equal(golden), "a mismatch leaves the golden")

		Expect(os.Remove(filepath.Join(loose, "golden", "x.txtar"))).To(Succeed())
		GinkgoT().Setenv("CI", "true")
		code, stdout, _ = invoke("", "test", "x.yaml")
		Expect(code).To(Equal(1))
		Expect(stdout).To(ContainSubstring("\n     x.yaml: missing golden file (with CI=true goldens are never created; " +
			"run `toolout test --update x.yaml` and commit golden/x.txtar)\n"))
		Expect(filepath.Join(loose, "golden", "x.txtar")).NotTo(BeAnExistingFile())

		code, stdout, _ = invoke("", "test", "--update", "x.yaml")
		Expect(code).To(Equal(0), stdout)
		Expect(stdout).To(Equal("ok   x\n     created golden/x.txtar\n1 passed, 0 failed\n"))
		code, _, _ = invoke("", "test", "x.yaml")
		Expect(code).To(Equal(0))
	})

	It("gives a tests/agent/ layout a golden/ folder beside each scenario, the same whether a folder or a file is run", func() {
		GinkgoT().Chdir(root)
		writeIn(root, "tests/agent/a.yaml", v("a"))
		writeIn(root, "tests/agent/billing/b.yaml", v("b"))
		GinkgoT().Setenv("CI", "true")
		code, stdout, _ := invoke("", "test", "tests/agent")
		Expect(code).To(Equal(1))
		Expect(strings.Count(stdout, "missing golden file")).To(Equal(2), stdout)

		code, stdout, _ = invoke("", "test", "--update", "tests/agent")
		Expect(code).To(Equal(0), stdout)
		Expect(stdout).To(Equal("ok   a\n     created tests/agent/golden/a.txtar\n" +
			"ok   b\n     created tests/agent/billing/golden/b.txtar\n2 passed, 0 failed\n"))
		Expect(exitOf("test", "tests/agent")).To(Equal(0))
		Expect(exitOf("test", "tests/agent/billing/b.yaml")).To(Equal(0))

		writeIn(root, "tests/agent/billing/b.yaml", v("B"))
		code, stdout, _ = invoke("", "test", "tests/agent/billing/b.yaml")
		Expect(code).To(Equal(1))
		Expect(stdout).To(ContainSubstring("tests/agent/billing/b.yaml: transcript differs from tests/agent/billing/golden/b.txtar"))
		Expect(stdout).To(ContainSubstring("to diff it:   diff -u tests/agent/billing/golden/b.txtar tests/agent/billing/golden/b.txtar.got\n"))
		Expect(stdout).To(ContainSubstring("to accept it: toolout test --update tests/agent/billing/b.yaml\n"))
	})

	It("roots goldens in --golden DIR, mirroring the path below the folder DIR and the scenario share", func() {
		GinkgoT().Chdir(root)
		writeIn(root, "tests/agent/a.yaml", v("a"))
		writeIn(root, "tests/agent/billing/b.yaml", v("b"))
		code, stdout, _ := invoke("", "test", "--golden", "tests/golden", "--update", "tests/agent")
		Expect(code).To(Equal(0), stdout)
		Expect(stdout).To(Equal("ok   agent/a\n     created tests/golden/agent/a.txtar\n" +
			"ok   agent/billing/b\n     created tests/golden/agent/billing/b.txtar\n2 passed, 0 failed\n"))
		Expect(filepath.Join(root, "tests", "agent", "golden")).NotTo(BeAnExistingFile())

		GinkgoT().Setenv("CI", "true")
		Expect(exitOf("test", "--golden", "tests/golden", "tests/agent/billing/b.yaml")).To(Equal(0), "one file finds the same golden as its folder")
		writeIn(root, "tests/agent/billing/b.yaml", v("B"))
		code, stdout, _ = invoke("", "test", "tests/agent/billing/b.yaml", "--golden", "tests/golden")
		Expect(code).To(Equal(1))
		Expect(stdout).To(HavePrefix("FAIL agent/billing/b\n     tests/agent/billing/b.yaml: transcript differs from tests/golden/agent/billing/b.txtar"))
		Expect(stdout).To(ContainSubstring("to accept it: toolout test --update --golden tests/golden tests/agent/billing/b.yaml\n"))

		code, _, stderr := invoke("", "test", "--golden", "tests/agent/a.yaml", "tests/agent")
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout test: --golden tests/agent/a.yaml: not a folder\n"))
		code, _, stderr = invoke("", "test", "--golden", "", "tests/agent")
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout test: --golden: want a folder\n"))
	})

	It("refuses two scenarios that would share a golden, naming both, and runs nothing", func() {
		GinkgoT().Chdir(root)
		writeIn(root, "t/x.yaml", v("a"))
		writeIn(root, "t/x.yml", v("b"))
		code, stdout, stderr := invoke("", "test", "--update", "t")
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout test: t/x.yaml and t/x.yml have the same golden t/golden/x.txtar: rename one; nothing was run\n"))
		Expect(filepath.Join(root, "t", "golden")).NotTo(BeAnExistingFile())
		Expect(exitOf("test", "t/x.yaml", "t/x.yaml")).To(Equal(0), "a file named twice is one scenario")
	})

	It("writes the golden of a scenario imported with --update outside scenarios/ beside it", func() {
		out := filepath.Join(root, "tests", "agent", "o.yaml")
		code, stdout, stderr := invoke("", "import", "../../scenarios/regress/traces/otel-genai.json", "-o", out, "--update")
		Expect(code).To(Equal(0), stdout+stderr)
		golden := filepath.Join(root, "tests", "agent", "golden", "o.txtar")
		Expect(stdout).To(ContainSubstring("created " + filepath.ToSlash(golden) + "\n"))
		GinkgoT().Setenv("CI", "true")
		code, stdout, _ = invoke("", "test", out)
		Expect(code).To(Equal(0), stdout)
	})
})
