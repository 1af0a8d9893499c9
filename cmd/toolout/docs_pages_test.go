package main

import (
	"context"
	"fmt"
	"io/fs"
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

// The docs/ pages' spec, run by `make docs-check` (TOOLOUT_DOCS_CHECK=1;
// skipped otherwise, since its pages start servers on the ports they show,
// build programs and run for minutes): every shell block of each page runs
// as shown. A page's transcript blocks (```console) run in order in one
// shell, so that a server started in one block answers the next and a
// variable set in one is read by a later one; its ```sh blocks run each
// in a shell of its own under set -e. Each page runs in a scratch copy of
// the repository (docsTree) with this test binary as `toolout` on PATH,
// TMPDIR inside the copy and CI unset. A block marked `# docs: not run
// (REASON)` is left out, and a page that calls a program that is not on
// PATH (curl, jq, redis-server, node, claude, codex) is skipped naming it.
// What differs from run to run is masked on both sides before the
// comparison (variable): the free port a server picked, the durations and
// sums of seconds a command prints, the gateway's overhead header.

// docsTools are the programs a page may need beside toolout and go.
var docsTools = []string{"curl", "jq", "redis-server", "redis-cli", "node", "npm", "claude", "codex"}

// variable matches what differs from run to run in a transcript's output.
var variable = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`127\.0\.0\.1:[0-9]+`), "127.0.0.1:PORT"},
	{regexp.MustCompile(`\bin [0-9]+(\.[0-9]+)? ?(ms|s)\b`), "in TIME"},
	{regexp.MustCompile(`(_seconds_sum\{[^}]*\}) [0-9.e+-]+$`), "$1 SUM"},
	{regexp.MustCompile(`(?i)(X-Toolout-Gateway-Overhead-Ms:) [0-9.]+`), "$1 MS"},
}

func maskVariable(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		for _, v := range variable {
			l = v.re.ReplaceAllString(l, v.with)
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

var _ = Describe("docs/ pages' shell blocks, run as shown (make docs-check)", func() {
	for _, page := range docFiles() {
		if page == "README.md" {
			continue
		}
		It(page, func() {
			if os.Getenv("TOOLOUT_DOCS_CHECK") == "" {
				Skip(page + ": run by make docs-check (it starts servers on the ports the page shows)")
			}
			var blocks []docscheck.Block
			for _, b := range docBlocks(page) {
				if _, skip := b.NotRun(); b.Shell() && !skip {
					blocks = append(blocks, b)
				}
			}
			if len(blocks) == 0 {
				Skip(page + ": no shell block to run")
			}
			for _, tool := range docsTools {
				for _, b := range blocks {
					if regexp.MustCompile(`(^|[\s|;&(])` + regexp.QuoteMeta(tool) + `\s`).MatchString(b.Text) {
						if _, err := exec.LookPath(tool); err != nil {
							Skip(fmt.Sprintf("%s: needs %s, which is not on PATH", b.Where(), tool))
						}
					}
				}
			}
			dir, env := docsTree()
			if userModulePages[page] {
				dir, env = userModule(page, dir, env)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			var session []docscheck.Block
			for _, b := range blocks {
				if b.Console() {
					session = append(session, b)
					continue
				}
				_, err := docscheck.Run(ctx, b, dir, env)
				Expect(err).NotTo(HaveOccurred())
			}
			runSession(ctx, page, session, dir, env)
		})
	}
})

// runSession runs a page's transcript blocks in one shell and compares
// each step's output with what the page shows.
func runSession(ctx context.Context, page string, blocks []docscheck.Block, dir string, env []string) {
	GinkgoHelper()
	if len(blocks) == 0 {
		return
	}
	var text strings.Builder
	var lines []int // the page's line of each line of text
	for _, b := range blocks {
		for i, l := range strings.Split(strings.TrimSuffix(b.Text, "\n"), "\n") {
			text.WriteString(l + "\n")
			lines = append(lines, b.Line+1+i)
		}
	}
	one := docscheck.Block{File: page, Line: 0, Info: "console", Text: text.String()}
	outs, err := docscheck.Run(ctx, one, dir, env)
	Expect(err).NotTo(HaveOccurred())
	steps, err := docscheck.Transcript(one)
	Expect(err).NotTo(HaveOccurred())
	Expect(outs).To(HaveLen(len(steps)))
	for i, st := range steps {
		want := strings.Split(maskVariable(strings.Join(st.Want, "\n")), "\n")
		if len(st.Want) == 0 {
			want = nil
		}
		Expect(docscheck.Match(want, maskVariable(outs[i]))).To(BeTrue(),
			"%s:%d: $ %s\nshown:\n%s\nprinted:\n%s", page, lines[st.Line-1], st.Command, strings.Join(st.Want, "\n"), outs[i])
	}
}

// userModulePages are the pages whose blocks run in a module of the
// user's own beside the clone (../toolout, also named by $TOOLOUT), as
// they say: a module x holding one scenario in scenarios/ and checks/,
// and the page's first Go block as x_test.go. GOPROXY=off: toolout's
// dependencies come from the module cache, as the pages say to do without
// a network (GOSUMDB=off: nor the checksum database).
var userModulePages = map[string]bool{"docs/install.md": true, "docs/go-api.md": true}

func userModule(page, clone string, env []string) (string, []string) {
	GinkgoHelper()
	root := filepath.Dir(clone)
	Expect(os.Rename(clone, filepath.Join(root, "toolout"))).To(Succeed())
	clone = filepath.Join(root, "toolout")
	mod := filepath.Join(root, "mymod")
	scenario, err := os.ReadFile(filepath.Join(clone, "scenarios", "session", "over-cap-handle.yaml"))
	Expect(err).NotTo(HaveOccurred())
	for _, d := range []string{"scenarios/session", "checks"} {
		Expect(os.MkdirAll(filepath.Join(mod, d), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(mod, d, "over-cap-handle.yaml"), scenario, 0o644)).To(Succeed())
	}
	Expect(os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module x\n\ngo 1.24\n"), 0o644)).To(Succeed())
	for _, b := range docBlocks(page) {
		if b.Info == "go" {
			Expect(os.WriteFile(filepath.Join(mod, "x_test.go"), []byte(b.Text), 0o644)).To(Succeed())
			break
		}
	}
	var out []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			kv = strings.Replace(kv, filepath.Join(root, "docs-tree", ".bin"), filepath.Join(clone, ".bin"), 1)
		}
		out = append(out, kv)
	}
	return mod, append(out, "TOOLOUT="+clone, "GOPROXY=off", "GOSUMDB=off", "GOFLAGS=-mod=mod", "GOWORK=off")
}

// docsTree copies the repository (without .git, reports and node_modules
// other than docs/examples/serve-node's, which .ci/run installs) into a
// scratch folder, and returns it with the environment of its blocks.
func docsTree() (string, []string) {
	GinkgoHelper()
	dir := filepath.Join(GinkgoT().TempDir(), "docs-tree")
	root, err := filepath.Abs(repoRoot)
	Expect(err).NotTo(HaveOccurred())
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && (rel == ".git" || rel == "reports" || (d.Name() == "node_modules" && rel != filepath.Join("docs", "examples", "serve-node", "node_modules"))) {
			return filepath.SkipDir
		}
		to := filepath.Join(dir, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(to, data, 0o644)
		}
		return nil
	})
	Expect(err).NotTo(HaveOccurred())
	bin := filepath.Join(dir, ".bin")
	// the tree's TMPDIR outside it, so that moving the tree keeps it
	tmp := filepath.Join(filepath.Dir(dir), "tmp")
	Expect(os.MkdirAll(tmp, 0o755)).To(Succeed())
	Expect(os.MkdirAll(bin, 0o755)).To(Succeed())
	self, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	Expect(os.Symlink(self, filepath.Join(bin, "toolout"))).To(Succeed())
	return dir, readmeEnv(bin, tmp)
}
