package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/docscheck"
)

// The documentation's spec: README.md and docs/*.md hold to the conventions
// of internal/docscheck, and every shell block of the README runs as shown.
// The README's blocks run in order, each in its own sh, in one scratch copy
// of the files they name (readmeFiles), with this test binary installed as
// `toolout` on PATH (TestMain) and TMPDIR inside the copy; CI is unset, as
// in a terminal. A block marked `# docs: not run (REASON)` is skipped with
// its reason, so the run lists every block it did not run.

// repoRoot is the repository's root, from this package's folder.
const repoRoot = "../.."

// readmeFiles are the repository's paths the README's examples read.
var readmeFiles = []string{"scenarios", "cmd/toolout/testdata"}

// docFiles returns README.md and docs/*.md, relative to the root.
func docFiles() []string {
	files := []string{"README.md"}
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		panic(err)
	}
	for _, p := range pages {
		files = append(files, filepath.ToSlash(strings.TrimPrefix(p, repoRoot+string(filepath.Separator))))
	}
	return files
}

func readDoc(name string) string {
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		panic(err)
	}
	return string(b)
}

func docBlocks(name string) []docscheck.Block {
	bs, err := docscheck.Blocks(name, readDoc(name))
	if err != nil {
		panic(err)
	}
	return bs
}

var _ = Describe("the documentation", func() {
	It("keeps the README to 300 lines", func() {
		Expect(strings.Count(readDoc("README.md"), "\n")).To(BeNumerically("<=", 300))
	})

	It("names no issue numbers", func() {
		re := regexp.MustCompile(`issue ?[0-9]+|Issue [0-9]+`)
		var found []string
		for _, f := range docFiles() {
			for i, line := range strings.Split(readDoc(f), "\n") {
				if re.MatchString(line) {
					found = append(found, fmt.Sprintf("%s:%d: %s", f, i+1, line))
				}
			}
		}
		Expect(found).To(BeEmpty())
	})

	It("marks every code block with its kind (sh, console, text, yaml, ...)", func() {
		var bare []string
		for _, f := range docFiles() {
			for _, b := range docBlocks(f) {
				if b.Info == "" {
					bare = append(bare, b.Where())
				}
			}
		}
		Expect(bare).To(BeEmpty(), "a block without an info string: mark it ```console, ```sh, ```text, ```yaml, ...")
	})

	It("links only to files that exist, and to headings they hold", func() {
		var broken []string
		for _, f := range docFiles() {
			for _, l := range docscheck.Links(f, readDoc(f)) {
				if msg := checkLink(l); l.Relative() && msg != "" {
					broken = append(broken, fmt.Sprintf("%s:%d: %s: %s", l.File, l.Line, l.Target, msg))
				}
			}
		}
		Expect(broken).To(BeEmpty())
	})

	It("shows only toolout commands whose flags exist", func() {
		var bad []string
		n := 0
		for _, f := range docFiles() {
			for _, b := range docBlocks(f) {
				if !b.Shell() {
					continue
				}
				for _, st := range shellSteps(b) {
					for _, args := range docscheck.Invocations(st.Command) {
						if msg := parses(args); msg != "" && !shows(st.Want, msg) {
							bad = append(bad, fmt.Sprintf("%s:%d: toolout %s: %s", f, st.Line, strings.Join(args, " "), msg))
						}
						n++
					}
				}
			}
		}
		Expect(bad).To(BeEmpty())
		Expect(n).To(BeNumerically(">", 50), "the documentation's toolout commands were found")
	})
})

var _ = Describe("README.md's shell blocks, run as shown", Ordered, func() {
	var dir string
	var env []string
	BeforeAll(func() {
		dir = GinkgoT().TempDir()
		for _, p := range readmeFiles {
			Expect(os.CopyFS(filepath.Join(dir, p), os.DirFS(filepath.Join(repoRoot, p)))).To(Succeed())
		}
		bin := filepath.Join(dir, ".bin")
		Expect(os.MkdirAll(filepath.Join(dir, ".tmp"), 0o755)).To(Succeed())
		Expect(os.MkdirAll(bin, 0o755)).To(Succeed())
		self, err := os.Executable()
		Expect(err).NotTo(HaveOccurred())
		Expect(os.Symlink(self, filepath.Join(bin, "toolout"))).To(Succeed())
		env = readmeEnv(bin, filepath.Join(dir, ".tmp"))
	})

	for _, b := range docBlocks("README.md") {
		if !b.Shell() {
			continue
		}
		It(b.Where(), func() {
			if reason, skip := b.NotRun(); skip {
				Skip(b.Where() + ": not run: " + reason)
			}
			for _, tool := range []string{"curl", "jq"} {
				if strings.Contains(b.Text, tool+" ") {
					if _, err := exec.LookPath(tool); err != nil {
						Skip(fmt.Sprintf("%s: needs %s, which is not on PATH", b.Where(), tool))
					}
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			outs, err := docscheck.Run(ctx, b, dir, env)
			Expect(err).NotTo(HaveOccurred())
			if !b.Console() {
				return
			}
			steps, err := docscheck.Transcript(b)
			Expect(err).NotTo(HaveOccurred())
			Expect(outs).To(HaveLen(len(steps)))
			for i, st := range steps {
				Expect(docscheck.Match(st.Want, outs[i])).To(BeTrue(),
					"README.md:%d: $ %s\nshown:\n%s\nprinted:\n%s", st.Line, st.Command, strings.Join(st.Want, "\n"), outs[i])
			}
		})
	}
})

// shellSteps are a shell block's commands, from its transcript or its lines.
func shellSteps(b docscheck.Block) []docscheck.Step {
	if !b.Console() {
		return docscheck.Commands(b)
	}
	steps, err := docscheck.Transcript(b)
	Expect(err).NotTo(HaveOccurred())
	return steps
}

// shows reports whether a transcript shows msg as a command's output: an
// example of a bad flag, on purpose.
func shows(want []string, msg string) bool {
	for _, l := range want {
		if l == msg {
			return true
		}
	}
	return false
}

// parses runs toolout in process with args and --help: "" when every flag
// exists and its value parses (the usage is printed, exit 0), else the
// line toolout printed.
func parses(args []string) string {
	if len(args) == 0 || args[0] == "help" || isHelpFlag(args[0]) {
		return ""
	}
	var stderr bytes.Buffer
	code := run(context.Background(), append(append([]string(nil), args...), "--help"), strings.NewReader(""), io.Discard, &stderr)
	if code != exitOK {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return msg
		}
		return fmt.Sprintf("exit %d", code)
	}
	return ""
}

// checkLink says what is wrong with a relative link, "" when nothing.
func checkLink(l docscheck.Link) string {
	if !l.Relative() {
		return ""
	}
	path, frag, _ := strings.Cut(l.Target, "#")
	file := l.File
	if path != "" {
		file = filepath.ToSlash(filepath.Join(filepath.Dir(l.File), path))
		if _, err := os.Stat(filepath.Join(repoRoot, file)); err != nil {
			return "no such file"
		}
	}
	if frag == "" || !strings.HasSuffix(file, ".md") {
		return ""
	}
	if !docscheck.Anchors(readDoc(file))[frag] {
		return fmt.Sprintf("no heading of %s has the anchor #%s", file, frag)
	}
	return ""
}

// readmeEnv is the environment of the README's blocks: this process's,
// without CI (a terminal's), the reports make test asks of test binaries
// and make's own variables (run by make docs-check, a page's make would
// print "Entering directory" lines a reader's does not), with bin first on PATH, TMPDIR at tmp, and TOOLOUT_AS_MAIN so
// that the test binary behind bin/toolout is the program.
func readmeEnv(bin, tmp string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "CI", "TOOLOUT_JUNIT_DIR", "UPDATE_GOLDEN", "PATH", "TMPDIR", "TOOLOUT_AS_MAIN",
			"MAKELEVEL", "MAKEFLAGS", "MFLAGS": // a reader's shell is not inside make: make -C prints no "Entering directory"
			continue
		}
		env = append(env, kv)
	}
	return append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "TMPDIR="+tmp, "TOOLOUT_AS_MAIN=1")
}
