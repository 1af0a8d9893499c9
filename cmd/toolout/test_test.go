package main

import (
	"os"
	"path/filepath"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("toolout test", func() {
	It("runs the bundled scenarios and ends with the summary line", func() {
		code, stdout, stderr := invoke("", "test", "../../scenarios")
		Expect(stderr).To(BeEmpty())
		Expect(code).To(Equal(0), stdout)
		Expect(stdout).To(MatchRegexp(`(?m)^ok   finalreport/unclosed$`))
		Expect(stdout).To(MatchRegexp(`(?m)^[1-9][0-9]* passed, 0 failed\n\z`))
	})

	It("filters by label expression and by id", func() {
		code, stdout, _ := invoke("", "test", "../../scenarios", "--label", "finalreport && think", "--run", "stripped|twice")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal("ok   finalreport/think-stripped\nok   finalreport/think-twice\n2 passed, 0 failed\n"))
	})

	It("exits 2 with positioned errors for a malformed scenario", func() {
		code, stdout, stderr := invoke("", "test", "../../harness/testdata/unknown-field.yaml")
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(HavePrefix("../../harness/testdata/unknown-field.yaml:5:1: unknown field \"expct\" (did you mean \"expect\"?)\n"))
	})

	It("exits 1 and prints the failure with its position", func() {
		root := GinkgoT().TempDir()
		dir := filepath.Join(root, "scenarios", "x")
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte(
			"component: finalreport\nconfig: {nonce: abc}\ninput: {text: none}\nexpect: {found: true}\n"), 0o644)).To(Succeed())
		code, stdout, _ := invoke("", "test", filepath.Join(root, "scenarios"))
		Expect(code).To(Equal(1))
		Expect(stdout).To(Equal("FAIL x/bad\n     scenarios/x/bad.yaml:4:10: expect.found: got false, want true\n0 passed, 1 failed\n"))
	})

	It("creates goldens with --update and then passes under CI", func() {
		root := GinkgoT().TempDir()
		dir := filepath.Join(root, "scenarios")
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte(
			"component: finalreport\nconfig: {nonce: abc}\ninput: {text: none}\n"), 0o644)).To(Succeed())
		GinkgoT().Setenv("CI", "true")
		code, stdout, _ := invoke("", "test", dir)
		Expect(code).To(Equal(1))
		Expect(stdout).To(ContainSubstring("missing golden file"))
		code, stdout, _ = invoke("", "test", "--update", dir)
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal("ok   ok\n     created golden/ok.txtar\n1 passed, 0 failed\n"))
		code, _, _ = invoke("", "test", dir)
		Expect(code).To(Equal(0))
	})

	DescribeTable("rejects bad usage",
		func(args []string, want string) {
			code, _, stderr := invoke("", append([]string{"test"}, args...)...)
			Expect(code).To(Equal(2))
			Expect(stderr).To(MatchRegexp(regexp.QuoteMeta(want)))
		},
		Entry("bad regexp", []string{"--run", "("}, "toolout test: --run: error parsing regexp"),
		Entry("bad label filter", []string{"--label", "a &&"}, "toolout test: --label:"),
		Entry("missing path", []string{"no/such/dir"}, "toolout test: no/such/dir: no such file or directory"),
		Entry("nothing matches", []string{"../../scenarios", "--run", "^nothing$"}, "toolout test: no scenario matches in ../../scenarios"),
	)
})
