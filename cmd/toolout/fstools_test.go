package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("toolout read and grep", func() {
	var root string
	BeforeEach(func() {
		root = GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(root, "log.txt"), []byte("a ok\nb ERROR x\nc ok\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "big.txt"), []byte(strings.Repeat("x\n", 60_000)), 0o644)).To(Succeed())
	})

	It("prints what the Read tool answers", func() {
		stdout := succeeds("", "read", "--root", root, "log.txt", "--offset", "1", "--limit", "1")
		Expect(stdout).To(Equal("b ERROR x\n"))
	})

	It("prints the spec's size error for an oversized Read and exits 1", func() {
		code, stdout, _ := invoke("", "read", "--root", root, "big.txt")
		Expect(code).To(Equal(1))
		Expect(stdout).To(HavePrefix("Error: File content (~30000 tokens) exceeds maximum allowed tokens (25000)."))
	})

	It("prints what the Grep tool answers", func() {
		code, stdout, _ := invoke("", "grep", "--root", root, "ERROR", "log.txt", "--context", "1")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal("1-a ok\n2:b ERROR x\n3-c ok\n"))
		code, stdout, _ = invoke("", "grep", "--root", root, "ERROR")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal("log.txt:2:b ERROR x\n"))
	})

	It("fails at once on a FIFO (exit 2, one line), and reads a 4096-byte file without newline as one line", func() {
		Expect(syscall.Mkfifo(filepath.Join(root, "p"), 0o644)).To(Succeed())
		type result struct {
			code           int
			stdout, stderr string
		}
		done := make(chan result, 1)
		go func() {
			code, stdout, stderr := invoke("", "read", "--root", root, "p")
			done <- result{code, stdout, stderr}
		}()
		var r result
		Eventually(done).WithTimeout(time.Second).Should(Receive(&r), "toolout read on a FIFO blocked")
		Expect(r).To(Equal(result{2, "", "toolout read: path \"p\": is a named pipe (FIFO), not a regular file; Read reads regular files only\n"}))

		Expect(os.WriteFile(filepath.Join(root, "f4096"), []byte(strings.Repeat("a", 4096)), 0o644)).To(Succeed())
		code, stdout, _ := invoke("", "read", "--root", root, "f4096", "--offset", "1", "--limit", "1")
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal("(no lines: offset 1 is past the end of f4096, which has 1 lines)\n"))
	})

	It("says when grep cut a long matching line", func() {
		line := strings.Repeat("x", 10_000) + "NEEDLE" + strings.Repeat("y", 10_000)
		Expect(os.WriteFile(filepath.Join(root, "long.txt"), []byte(line), 0o644)).To(Succeed())
		code, stdout, _ := invoke("", "grep", "--root", root, "NEEDLE", "long.txt")
		Expect(code).To(Equal(0))
		Expect(stdout).To(HaveSuffix("\n(line 1 is cut: 20006 bytes long, 4096 shown from byte offset 8976)\n"))
	})

	DescribeTable("refuses paths outside the root with exit 2, naming the path",
		refused(""),
		Entry("read ../etc/passwd, root missing or not", []string{"read", "--root", "/nonexistent/toolout-x", "../etc/passwd"},
			"toolout read: path \"../etc/passwd\": refused: \"..\" is not allowed; paths stay under the root\n"),
		Entry("read an absolute path", []string{"read", "--root", "/tmp", "/etc/passwd"},
			"toolout read: path \"/etc/passwd\": refused: absolute paths are not allowed; give a path relative to the root\n"),
		Entry("grep a parent", []string{"grep", "--root", "/tmp", "root", "../etc"},
			"toolout grep: path \"../etc\": refused: \"..\" is not allowed; paths stay under the root\n"),
		Entry("no root", []string{"read", "x"}, "toolout read: want --root DIR and one PATH\n"),
	)
})
