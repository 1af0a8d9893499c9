package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the command hints name (self)", func() {
	var root, cache string
	BeforeEach(func() {
		root, cache = GinkgoT().TempDir(), GinkgoT().TempDir()
	})
	// module writes a go.mod in a folder of root and returns the folder.
	module := func(dir, gomod string) string {
		GinkgoHelper()
		d := filepath.Join(root, dir)
		Expect(os.MkdirAll(d, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(d, "go.mod"), []byte(gomod), 0o644)).To(Succeed())
		return d
	}
	cached := func() string { return filepath.Join(cache, "6d", "6d67ac7f-d", "toolout") }
	goRun := func() string { return filepath.Join(root, "tmp", "go-build132898304", "b001", "exe", "toolout") }

	It("names a binary that is not the go command's as it was invoked", func() {
		wd := module("user", "module example.com/user\n\ntool github.com/toolout/toolout/cmd/toolout\n")
		for arg0, want := range map[string]string{
			"toolout":                "toolout",
			"./bin/toolout":          "./bin/toolout",
			"/usr/local/bin/toolout": "/usr/local/bin/toolout",
			"/opt/my tools/toolout":  "'/opt/my tools/toolout'",
			filepath.Join(wd, "exe"): filepath.Join(wd, "exe"),
			"":                       "toolout",
		} {
			Expect(invocation{arg0: arg0, wd: wd, gocache: cache}.self()).To(Equal(want), arg0)
		}
	})

	It("names go tool toolout in a module that declares the tool, single or in a block, from any folder in it", func() {
		single := module("a", "module example.com/a\n\ngo 1.26\n\ntool github.com/toolout/toolout/cmd/toolout // the CLI\n")
		block := module("b", "module example.com/b\n\ntool (\n\tgithub.com/onsi/ginkgo/v2/ginkgo\n\t\"github.com/toolout/toolout/cmd/toolout\"\n)\n")
		Expect(os.MkdirAll(filepath.Join(block, "deep", "er"), 0o755)).To(Succeed())
		for _, wd := range []string{single, filepath.Join(block, "deep", "er")} {
			Expect(invocation{arg0: cached(), wd: wd, gocache: cache}.self()).To(Equal("go tool toolout"), wd)
			Expect(invocation{arg0: goRun(), wd: wd, gocache: cache}.self()).To(Equal("go tool toolout"), wd)
		}
	})

	It("names go run in toolout's own clone, and by import path in a module without the tool directive", func() {
		clone := module("clone", "module github.com/toolout/toolout\n\ngo 1.26\n\ntool github.com/onsi/ginkgo/v2/ginkgo\n")
		Expect(os.MkdirAll(filepath.Join(clone, "harness"), 0o755)).To(Succeed())
		other := module("other", "module example.com/other\n\nrequire github.com/toolout/toolout v0.0.0\n")
		Expect(invocation{arg0: goRun(), wd: clone, gocache: cache}.self()).To(Equal("go run ./cmd/toolout"))
		Expect(invocation{arg0: goRun(), wd: filepath.Join(clone, "harness"), gocache: cache}.self()).To(Equal("go run github.com/toolout/toolout/cmd/toolout"))
		Expect(invocation{arg0: cached(), wd: other, gocache: cache}.self()).To(Equal("go run github.com/toolout/toolout/cmd/toolout"))
		Expect(invocation{arg0: goRun(), wd: "", gocache: ""}.self()).To(Equal("go run github.com/toolout/toolout/cmd/toolout"), "no module known")
	})

	It("does not take a binary that merely lies in a folder named like the go command's for one", func() {
		wd := module("c", "module example.com/c\n\ntool github.com/toolout/toolout/cmd/toolout\n")
		for _, arg0 := range []string{
			filepath.Join(root, "go-build", "toolout"),
			filepath.Join(root, "exe", "toolout"),
			filepath.Join(root, "go-buildx", "b001", "bin", "toolout"),
		} {
			Expect(invocation{arg0: arg0, wd: wd, gocache: cache}.self()).To(Equal(arg0))
		}
	})

	It("reads a go.mod's module and tools, ignoring comments and other directives", func() {
		mod, tools := readGoMod(strings.NewReader("// x\nmodule \"example.com/q\" // c\n\nrequire (\n\tgithub.com/toolout/toolout v1.0.0\n)\ntool x.org/y\n// tool commented.org/z\n"))
		Expect(mod).To(Equal("example.com/q"))
		Expect(tools).To(Equal(map[string]bool{"x.org/y": true}))
	})
})

var _ = Describe("runAs", func() {
	It("names the program it is given in every hint: the accept command, usage errors, the general help", func() {
		dir := GinkgoT().TempDir()
		GinkgoT().Chdir(dir)
		GinkgoT().Setenv("CI", "") // the first run creates the golden, which CI=true (as .ci/run sets) forbids
		Expect(os.WriteFile("x.yaml", []byte(closedScenario), 0o644)).To(Succeed())
		as := func(args ...string) (int, string, string) {
			var out, errb strings.Builder
			code := runAs(context.Background(), "go tool toolout", args, strings.NewReader(""), &out, &errb)
			return code, out.String(), errb.String()
		}
		code, stdout, stderr := as("test", "x.yaml")
		Expect(code).To(Equal(0), stdout+stderr)
		Expect(os.WriteFile(filepath.Join("golden", "x.txtar"), []byte("stale\n"), 0o644)).To(Succeed())
		code, stdout, _ = as("test", "./x.yaml")
		Expect(code).To(Equal(1))
		Expect(stdout).To(ContainSubstring("\n       to accept it: go tool toolout test --update x.yaml\n"))
		_, _, stderr = as("nope")
		Expect(stderr).To(Equal("toolout: unknown command \"nope\" (run 'go tool toolout help')\n"))
		_, _, stderr = as("serve", "--nope")
		Expect(stderr).To(Equal("toolout serve: flag provided but not defined: -nope (run 'go tool toolout serve --help')\n"))
		_, _, stderr = as()
		Expect(stderr).To(HaveSuffix("Run 'go tool toolout help COMMAND' or 'go tool toolout COMMAND --help' for a command's usage and flags.\n"))
	})
})
