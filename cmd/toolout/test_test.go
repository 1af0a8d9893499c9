package main

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// program is this test binary started as the toolout program (see
// TestMain), with TMPDIR at a folder of its own, so that every store and
// scratch folder it makes is under tmp.
type program struct {
	cmd              *exec.Cmd
	tmp              string
	outPath, errPath string
	done             chan struct{} // closed once the process has exited
}

func startProgram(args ...string) *program {
	dir := GinkgoT().TempDir()
	tmp := filepath.Join(dir, "tmp")
	Expect(os.Mkdir(tmp, 0o700)).To(Succeed())
	return startProgramIn(tmp, args...)
}

// startProgramIn is startProgram with TMPDIR at tmp, which several
// programs may share.
func startProgramIn(tmp string, args ...string) *program {
	dir := GinkgoT().TempDir()
	p := &program{tmp: tmp, outPath: filepath.Join(dir, "stdout"), errPath: filepath.Join(dir, "stderr"),
		done: make(chan struct{})}
	stdout, err := os.Create(p.outPath)
	Expect(err).NotTo(HaveOccurred())
	stderr, err := os.Create(p.errPath)
	Expect(err).NotTo(HaveOccurred())
	p.cmd = exec.Command(os.Args[0], args...)
	p.cmd.Env = append(os.Environ(), "TOOLOUT_AS_MAIN=1", "TMPDIR="+p.tmp)
	p.cmd.Stdout, p.cmd.Stderr = stdout, stderr // files: the process writes them while the spec may read them
	Expect(p.cmd.Start()).To(Succeed())
	go func() {
		_ = p.cmd.Wait()
		close(p.done)
	}()
	DeferCleanup(func() {
		_ = p.cmd.Process.Kill() // a no-op once it has exited
		<-p.done
		stdout.Close()
		stderr.Close()
	})
	return p
}

func (p *program) stdout() string { b, _ := os.ReadFile(p.outPath); return string(b) }
func (p *program) stderr() string { b, _ := os.ReadFile(p.errPath); return string(b) }

// agentDirs lists the store directories (ai-agent-*) anywhere under root.
func agentDirs(root string) []string {
	var found []string
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && strings.HasPrefix(d.Name(), "ai-agent-") {
			found = append(found, path)
		}
		return nil // entries vanish while the program runs
	})
	return found
}

// interrupt waits until the program has made a store, sends sig, and waits
// for it to exit. It returns how long the program took to exit.
func (p *program) interrupt(sig os.Signal) time.Duration {
	Eventually(func() []string { return agentDirs(p.tmp) }).WithTimeout(time.Minute).WithPolling(5*time.Millisecond).
		ShouldNot(BeEmpty(), func() string { return p.stderr() })
	start := time.Now()
	Expect(p.cmd.Process.Signal(sig)).To(Succeed())
	Eventually(p.done).WithTimeout(10*time.Second).Should(BeClosed(), "the program must stop promptly after %v", sig)
	took := time.Since(start)
	GinkgoWriter.Printf("%v: exited %d after %v\n", sig, p.cmd.ProcessState.ExitCode(), took)
	return took
}

// blockedScenario answers its map call only after a step that is never
// asked for: the run blocks, its store on disk, until its context ends.
const blockedScenario = `description: "The map call waits for a step that is never requested, so the run blocks until its context ends."
component: extract
config: {context_window: 1200, max_output_tokens: 100, buffer_tokens: 50, truncate_bytes: 300}
input:
  tool: {name: logs__query}
  extract: "Count the ERROR lines."
  output: {generate: {lines: 20, template: "line {{.I}} level=INFO"}}
llm:
- id: map
  match: {tag: extract.map, chunk: 1/1}
  after: [never]
  respond: {final: "never sent"}
- id: never
  match: {tag: extract.reduce}
  respond: {final: "never sent"}
`

// okScenario expects nothing: it passes once its golden exists.
const okScenario = "component: finalreport\nconfig: {nonce: abc}\ninput: {text: none}\n"

// scenarioRoot writes text to scenarios/rel under a new root and returns
// the root (goldens go to its golden/).
func scenarioRoot(rel, text string) string {
	GinkgoHelper()
	root := GinkgoT().TempDir()
	file := filepath.Join(root, "scenarios", filepath.FromSlash(rel))
	Expect(os.MkdirAll(filepath.Dir(file), 0o755)).To(Succeed())
	Expect(os.WriteFile(file, []byte(text), 0o644)).To(Succeed())
	return root
}

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
		root := scenarioRoot("x/bad.yaml", okScenario+"expect: {found: true}\n")
		code, stdout, _ := invoke("", "test", filepath.Join(root, "scenarios"))
		Expect(code).To(Equal(1))
		// The commands name the files absolutely: the temporary folder is not
		// below the working directory.
		g, f := filepath.ToSlash(filepath.Join(root, "golden", "x", "bad.txtar")), filepath.ToSlash(filepath.Join(root, "scenarios", "x", "bad.yaml"))
		Expect(stdout).To(Equal("FAIL x/bad\n" +
			"     scenarios/x/bad.yaml:4:10: expect.found: got false, want true\n" +
			"     " + g + ".got: the transcript of this run\n" +
			"       to read it:   cat " + g + ".got   (there is no " + g + " yet)\n" +
			"       to accept it, once the expectations hold: toolout test --update " + f + "\n" +
			"0 passed, 1 failed\n"))
		Expect(filepath.Join(root, "golden", "x", "bad.txtar.got")).To(BeAnExistingFile())
		Expect(filepath.Join(root, "golden", "x", "bad.txtar")).NotTo(BeAnExistingFile())
	})

	It("leaves the transcript of a mismatch in a .got, prints the commands that diff and accept it, and --update accepts it and removes the .got", func() {
		GinkgoT().Setenv("CI", "") // the first run creates the golden, which CI=true (as .ci/run sets) forbids
		root := GinkgoT().TempDir()
		file := filepath.Join(root, "scenarios", "x", "v.yaml")
		golden := filepath.Join(root, "golden", "x", "v.txtar")
		Expect(os.MkdirAll(filepath.Dir(file), 0o755)).To(Succeed())
		scenario := func(v string) {
			Expect(os.WriteFile(file, []byte("component: finalreport\nconfig: {nonce: abc}\n"+
				"input: {text: '<ai-agent-abc-FINAL format=\"text\">"+v+"</ai-agent-abc-FINAL>'}\n"), 0o644)).To(Succeed())
		}
		scenario("v1")
		code, _, _ := invoke("", "test", file)
		Expect(code).To(Equal(0))
		scenario("v2")
		code, stdout, _ := invoke("", "test", file)
		Expect(code).To(Equal(1))
		Expect(stdout).To(HavePrefix("FAIL x/v\n     scenarios/x/v.yaml: transcript differs from golden/x/v.txtar (-golden +got):\n"))
		Expect(stdout).To(ContainSubstring("\n     -  \"content\": \"v1\",\n     +  \"content\": \"v2\",\n"))
		g, f := filepath.ToSlash(golden), filepath.ToSlash(file)
		Expect(stdout).To(HaveSuffix("\n     " + g + ".got: the transcript of this run\n" +
			"       to diff it:   diff -u " + g + " " + g + ".got\n" +
			"       to accept it: toolout test --update " + f + "\n" +
			"0 passed, 1 failed\n"))
		got, err := os.ReadFile(golden + ".got")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(ContainSubstring(`"content": "v2"`))

		code, stdout, _ = invoke("", "test", "--update", file)
		Expect(code).To(Equal(0))
		Expect(stdout).To(Equal("ok   x/v\n     updated golden/x/v.txtar\n1 passed, 0 failed\n"))
		Expect(os.ReadFile(golden)).To(Equal(got), "the accepted golden is the .got")
		Expect(golden + ".got").NotTo(BeAnExistingFile())
	})

	It("creates goldens with --update and then passes under CI", func() {
		dir := filepath.Join(scenarioRoot("ok.yaml", okScenario), "scenarios")
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

	// blockedRoot writes the blocked scenario under a new root's scenarios/.
	blockedRoot := func() string { return scenarioRoot("slow/blocked.yaml", blockedScenario) }

	DescribeTable("a real process stopped by a signal leaves no store and no golden, and exits non-zero",
		func(sig syscall.Signal) {
			root := blockedRoot()
			p := startProgram("test", "--update", filepath.Join(root, "scenarios"))
			p.interrupt(sig)
			Expect(p.cmd.ProcessState.ExitCode()).To(Equal(128+int(sig)), p.stderr())
			Expect(agentDirs(p.tmp)).To(BeEmpty())
			Expect(filepath.Join(root, "golden")).NotTo(BeAnExistingFile(), "a run cut short writes no golden")
			// Stopped by run's own return (the usual way), or by main after
			// its grace on a starved machine: both remove every store.
			Expect(p.stderr()).To(Or(ContainSubstring("toolout test: interrupted"), ContainSubstring("stopped without waiting")))
		},
		Entry("SIGTERM", syscall.SIGTERM),
		Entry("SIGINT", syscall.SIGINT),
	)

	// waitStore waits until p has made a store, and returns them.
	waitStore := func(p *program) []string {
		GinkgoHelper()
		Eventually(func() []string { return agentDirs(p.tmp) }).WithTimeout(time.Minute).WithPolling(5*time.Millisecond).
			ShouldNot(BeEmpty(), func() string { return p.stderr() })
		return agentDirs(p.tmp)
	}
	// scratchDirs lists the runs' scratch folders (toolout-scenario-*) in tmp.
	scratchDirs := func(tmp string) []string {
		found, err := filepath.Glob(filepath.Join(tmp, "toolout-scenario-*"))
		Expect(err).NotTo(HaveOccurred())
		return found
	}

	It("removes at its next run the store and scratch folder of a run killed with SIGKILL", func() {
		p := startProgram("test", "--update", filepath.Join(blockedRoot(), "scenarios"))
		left := waitStore(p)
		Expect(p.cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
		Eventually(p.done).WithTimeout(10 * time.Second).Should(BeClosed())
		Expect(agentDirs(p.tmp)).To(Equal(left), "SIGKILL runs no cleanup: the store is still there")
		Expect(scratchDirs(p.tmp)).To(HaveLen(1))

		next := startProgramIn(p.tmp, "test", "--update", filepath.Join(scenarioRoot("ok.yaml", okScenario), "scenarios"))
		Eventually(next.done).WithTimeout(time.Minute).Should(BeClosed())
		Expect(next.cmd.ProcessState.ExitCode()).To(Equal(0), next.stderr())
		Expect(agentDirs(p.tmp)).To(BeEmpty(), "the killed run's store outlived the next run")
		Expect(scratchDirs(p.tmp)).To(BeEmpty())
	})

	It("never removes the store of a run still going when another run starts in the same temp folder", func() {
		live := startProgramIn(GinkgoT().TempDir(), "test", "--update", filepath.Join(blockedRoot(), "scenarios"))
		stores := waitStore(live)
		for range 2 {
			next := startProgramIn(live.tmp, "test", "--update", filepath.Join(scenarioRoot("ok.yaml", okScenario), "scenarios"))
			Eventually(next.done).WithTimeout(time.Minute).Should(BeClosed())
			Expect(next.cmd.ProcessState.ExitCode()).To(Equal(0), next.stderr())
		}
		Expect(agentDirs(live.tmp)).To(Equal(stores), "a later run removed a live run's store")
		Expect(live.done).NotTo(BeClosed())
		live.interrupt(syscall.SIGTERM)
		Expect(agentDirs(live.tmp)).To(BeEmpty())
		Expect(scratchDirs(live.tmp)).To(BeEmpty())
	})

	It("stops a running scenario when its context ends: its store and scratch folder go, it counts as interrupted", func() {
		root := blockedRoot()
		tmp := GinkgoT().TempDir()
		GinkgoT().Setenv("TMPDIR", tmp)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var out, errb strings.Builder
		code := make(chan int, 1)
		go func() {
			code <- run(ctx, []string{"test", "--update", filepath.Join(root, "scenarios")}, strings.NewReader(""), &out, &errb)
		}()
		Eventually(func() []string { return agentDirs(tmp) }).WithTimeout(time.Minute).WithPolling(5 * time.Millisecond).ShouldNot(BeEmpty())
		cancel()
		Eventually(code).WithTimeout(10 * time.Second).Should(Receive(Equal(1)))
		Expect(out.String()).To(Equal("0 passed, 0 failed, 1 interrupted\n"))
		Expect(errb.String()).To(Equal("toolout test: interrupted (context canceled): 1 of 1 scenarios did not run to the end\n"))
		Expect(os.ReadDir(tmp)).To(BeEmpty(), "store and scratch folder are gone")
		Expect(filepath.Join(root, "golden")).NotTo(BeAnExistingFile())
	})

	It("runs nothing and overwrites no golden once its context has ended", func() {
		root := scenarioRoot("ok.yaml", okScenario)
		dir := filepath.Join(root, "scenarios")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errb strings.Builder
		code := run(ctx, []string{"test", "--update", dir}, strings.NewReader(""), &out, &errb)
		Expect(code).To(Equal(1))
		Expect(out.String()).To(BeEmpty())
		Expect(errb.String()).To(Equal("toolout test: interrupted (context canceled) while loading: 0 of 1 scenario files loaded; nothing was run\n"))
		Expect(filepath.Join(root, "golden")).NotTo(BeAnExistingFile())
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
