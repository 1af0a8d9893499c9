package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// invoke runs the command in-process and returns its exit code and output.
func invoke(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// succeeds runs the command like invoke and expects it to succeed: exit 0
// and nothing on stderr. It returns stdout.
func succeeds(stdin string, args ...string) string {
	GinkgoHelper()
	code, stdout, stderr := invoke(stdin, args...)
	Expect(stderr).To(BeEmpty())
	Expect(code).To(Equal(0))
	return stdout
}

// refused is the body of a table of bad invocations: toolout, with stdin,
// prefix and the entry's args, exits 2 with nothing on stdout and exactly
// want on stderr.
func refused(stdin string, prefix ...string) func(args []string, want string) {
	return func(args []string, want string) {
		GinkgoHelper()
		code, stdout, stderr := invoke(stdin, slices.Concat(prefix, args)...)
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal(want))
	}
}

var _ = Describe("toolout", func() {
	It("prints usage and exits 2 without a command", func() {
		code, _, stderr := invoke("")
		Expect(code).To(Equal(2))
		Expect(stderr).To(ContainSubstring("Usage: toolout COMMAND"))
	})

	It("rejects an unknown command in one line", func() {
		code, _, stderr := invoke("", "frobnicate")
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout: unknown command \"frobnicate\" (run 'toolout help')\n"))
	})

	It("prints its version", func() {
		code, stdout, _ := invoke("", "version")
		Expect(code).To(Equal(0))
		Expect(stdout).To(HavePrefix("toolout "))
	})

	Describe("final-report", func() {
		DescribeTable("prints the report as one line of JSON",
			func(input string, args []string, want string) {
				stdout := succeeds(input, append([]string{"final-report"}, args...)...)
				Expect(stdout).To(Equal(want))
			},
			Entry("the issue's example", `<think>x</think><ai-agent-abc-FINAL format="text"> hi `, []string{"--nonce", "abc"},
				`{"found":true,"content":"hi","closed":false}`+"\n"),
			Entry("closed, flag after the file", `<ai-agent-abc-FINAL format="text"><b>ok</b></ai-agent-abc-FINAL>`, []string{"-", "--nonce=abc"},
				`{"found":true,"content":"<b>ok</b>","closed":true}`+"\n"),
			Entry("no report", "plain text", []string{"--nonce", "abc"},
				`{"found":false,"content":"","closed":false}`+"\n"),
		)

		It("reads a file", func() {
			f := filepath.Join(GinkgoT().TempDir(), "answer.txt")
			Expect(os.WriteFile(f, []byte(`<ai-agent-n1-FINAL>from file</ai-agent-n1-FINAL>`), 0o644)).To(Succeed())
			code, stdout, _ := invoke("", "final-report", "--nonce", "n1", f)
			Expect(code).To(Equal(0))
			Expect(stdout).To(Equal(`{"found":true,"content":"from file","closed":true}` + "\n"))
		})

		DescribeTable("exits 2 on bad usage or input with a one-line error",
			refused("", "final-report"),
			Entry("missing nonce", []string{}, "toolout final-report: --nonce is required\n"),
			Entry("bad nonce", []string{"--nonce", "a b"}, "toolout final-report: <stdin>: finalreport: invalid nonce: \"a b\" has ' ' at byte 1 (want letters, digits, '_', '-')\n"),
			Entry("missing file", []string{"--nonce", "a", "no-such.txt"}, "toolout final-report: no-such.txt: no such file or directory\n"),
			Entry("two files", []string{"--nonce", "a", "x", "y"}, "toolout final-report: want at most one FILE, got 2 (x y)\n"),
			Entry("unknown flag", []string{"--nonse", "a"}, "toolout final-report: flag provided but not defined: -nonse (run 'toolout final-report --help')\n"),
		)
	})
})
