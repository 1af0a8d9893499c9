package fstools_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/fstools"
)

// within runs fn and fails the spec when it has not returned after a
// second: a tool that blocks on a FIFO must not hang the suite.
func within(fn func() (string, error)) (string, error) {
	GinkgoHelper()
	type answer struct {
		out string
		err error
	}
	done := make(chan answer, 1)
	go func() {
		out, err := fn()
		done <- answer{out, err}
	}()
	select {
	case a := <-done:
		return a.out, a.err
	case <-time.After(time.Second):
		Fail("the call did not return within a second (blocked on a read?)")
		return "", nil
	}
}

var _ = Describe("files that are not regular", func() {
	var root string
	var fsys *fstools.FS
	BeforeEach(func() {
		root = GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(root, "log.txt"), []byte("a ERROR\n"), 0o644)).To(Succeed())
		Expect(syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644)).To(Succeed())
		ln, err := net.Listen("unix", filepath.Join(root, "sock"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(ln.Close)
		Expect(os.Symlink("pipe", filepath.Join(root, "to-pipe"))).To(Succeed())
		fsys, err = fstools.Open(root)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(fsys.Close)
	})

	DescribeTable("are refused at once by Read and Grep, naming what they are",
		func(name, what string) {
			_, err := within(func() (string, error) { return fsys.Read(fstools.ReadParams{Path: name}) })
			Expect(err).To(MatchError(fmt.Sprintf("path %q: is %s, not a regular file; Read reads regular files only", name, what)))
			_, err = within(func() (string, error) { return fsys.Grep(fstools.GrepParams{Pattern: "x", Path: name}) })
			Expect(err).To(MatchError(fmt.Sprintf("path %q: is %s, not a regular file; Grep searches regular files and directories", name, what)))
			_, err = within(func() (string, error) {
				return fsys.Read(fstools.ReadParams{Path: name, Offset: 2, Limit: ptr(1)})
			})
			Expect(err).To(HaveOccurred())
		},
		Entry("a FIFO", "pipe", "a named pipe (FIFO)"),
		Entry("a link to a FIFO", "to-pipe", "a named pipe (FIFO)"),
		Entry("a socket", "sock", "a socket"),
	)

	It("refuses a device file", func() {
		dev := filepath.Join(root, "null")
		if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			Skip("cannot make a device node here: " + err.Error())
		}
		_, err := within(func() (string, error) { return fsys.Read(fstools.ReadParams{Path: "null"}) })
		Expect(err).To(MatchError(`path "null": is a character device, not a regular file; Read reads regular files only`))
	})

	It("skips them when searching a directory, without blocking", func() {
		Expect(within(func() (string, error) { return fsys.Grep(fstools.GrepParams{Pattern: "ERROR"}) })).To(Equal("log.txt:1:a ERROR\n"))
	})
})

// lineModel splits content as Read and Grep count lines: after each "\n",
// and a last line without one when bytes remain.
func lineModel(content string) []string {
	lines := strings.SplitAfter(content, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// boundarySizes are the sizes around every buffer of the package: bufio's
// 4096, Grep's 65536 and its line limit, the read-whole limit (100004 bytes
// is 25001 tokens).
var boundarySizes = []int{1, 2, 4095, 4096, 4097, fstools.MaxLineBytes - 1, fstools.MaxLineBytes, fstools.MaxLineBytes + 1,
	8191, 8192, 8193, 65535, 65536, 65537, 100003, 100004, 100005, 131072, 131073}

var _ = Describe("line counting at buffer boundaries", func() {
	var root string
	var fsys *fstools.FS
	BeforeEach(func() { root, fsys = tree() })

	check := func(name, content string) {
		GinkgoHelper()
		writeFile(root, name, content)
		lines := lineModel(content)
		n := len(lines)
		Expect(fsys.Read(fstools.ReadParams{Path: name, Offset: n, Limit: ptr(1)})).To(Equal(
			fmt.Sprintf("(no lines: offset %d is past the end of %s, which has %d lines)", n, name, n)), "line count")
		for _, i := range []int{0, n - 1} {
			want := lines[i]
			if t := fstools.Estimate(int64(len(want))); t > fstools.MaxTokens {
				want = fstools.WindowTooLarge(t, i, 1)
			}
			Expect(fsys.Read(fstools.ReadParams{Path: name, Offset: i, Limit: ptr(1)})).To(Equal(want), "line %d", i)
		}
		out, err := fsys.Grep(fstools.GrepParams{Pattern: "$", Path: name, MaxResults: 1})
		Expect(err).NotTo(HaveOccurred())
		if n > 1 {
			Expect(out).To(ContainSubstring(fmt.Sprintf("(1 of %d matching lines shown", n)))
		} else {
			Expect(out).To(HavePrefix("1:"))
		}
	}

	It("reads a 4096-byte file without a final newline as one line", func() {
		check("f", strings.Repeat("a", 4096))
		Expect(fsys.Read(fstools.ReadParams{Path: "f", Offset: 0, Limit: ptr(1)})).To(HaveLen(4096))
	})

	for _, size := range boundarySizes {
		It(fmt.Sprintf("counts lines right for a line of %d bytes, with and without newline, alone or after another", size), func() {
			long := strings.Repeat("b", size)
			check("one", long)
			check("one-nl", long+"\n")
			check("two", "first\n"+long)
			check("two-nl", "first\n"+long+"\n")
			check("crlf", long[:size-1]+"\r\n"+long)
			check("then-short", long+"\nshort")
		})
	}
})

var _ = Describe("Grep on long lines", func() {
	var root string
	var fsys *fstools.FS
	BeforeEach(func() { root, fsys = tree() })
	write := func(name, content string) { writeFile(root, name, content) }

	for _, size := range []int{fstools.MaxLineBytes * 2, 70_000, 300_000} {
		It(fmt.Sprintf("shows a %d-byte matched line cut around its first match, and says so", size), func() {
			at := size / 2
			line := strings.Repeat("x", at) + "NEEDLE" + strings.Repeat("y", size-at-6)
			write("long.txt", "short\n"+line+"\nafter NEEDLE\n")
			from := at - fstools.MaxLineBytes/4
			shown := line[from : from+fstools.MaxLineBytes]
			Expect(fsys.Grep(fstools.GrepParams{Pattern: "NEEDLE", Path: "long.txt"})).To(Equal(
				"2:" + shown + "\n3:after NEEDLE\n" +
					fmt.Sprintf("(line 2 is cut: %d bytes long, %d shown from byte offset %d)\n", size, fstools.MaxLineBytes, from)))
		})
	}

	It("shows the head of a long context line, and names the path of a cut line in a directory", func() {
		line := strings.Repeat("z", 200_000)
		Expect(os.MkdirAll(filepath.Join(root, "ctx"), 0o755)).To(Succeed())
		write("ctx/a.txt", line+"\nERROR\n")
		Expect(fsys.Grep(fstools.GrepParams{Pattern: "ERROR", Path: "ctx", Context: 1})).To(Equal(
			"ctx/a.txt-1-" + line[:fstools.MaxLineBytes] + "\nctx/a.txt:2:ERROR\n" +
				fmt.Sprintf("(ctx/a.txt line 1 is cut: 200000 bytes long, %d shown from byte offset 0)\n", fstools.MaxLineBytes)))
	})

	It("matches anchors and a trailing CR the same way on a line longer than its buffer", func() {
		line := "START" + strings.Repeat("é", 100_000) + "END"
		write("anchors.txt", line+"\r\n"+line)
		for _, pat := range []string{"^START", "END$", "^START(é)+END$", "é{3}END$"} {
			out, err := fsys.Grep(fstools.GrepParams{Pattern: pat, Path: "anchors.txt"})
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(MatchRegexp(`^1:[^\n]*\n2:[^\n]*\n\(line 1 is cut`), pat)
		}
		Expect(fsys.Grep(fstools.GrepParams{Pattern: "END\r", Path: "anchors.txt"})).To(HavePrefix("No matches"))
	})

	It("does not hold a long line whole: a 4 MiB line costs under 1 MiB, not the line", func() {
		f, err := os.Create(filepath.Join(root, "huge.txt"))
		Expect(err).NotTo(HaveOccurred())
		chunk := []byte(strings.Repeat("q", 1<<20))
		for range 4 {
			_, err = f.Write(chunk)
			Expect(err).NotTo(HaveOccurred())
		}
		_, err = f.WriteString("NEEDLE\n")
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Close()).To(Succeed())
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		out, err := fsys.Grep(fstools.GrepParams{Pattern: "NEEDLE", Path: "huge.txt"})
		runtime.ReadMemStats(&after)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HaveSuffix(fmt.Sprintf("(line 1 is cut: %d bytes long, %d shown from byte offset %d)\n",
			4<<20+6, fstools.MaxLineBytes/4+6, 4<<20-fstools.MaxLineBytes/4)))
		Expect(after.TotalAlloc-before.TotalAlloc).To(BeNumerically("<", 1<<20), "bytes allocated by Grep")
	})
})
