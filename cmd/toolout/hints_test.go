package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// userShell is a user's shell in a scratch folder outside this clone, with
// this program on PATH under the name toolout (the test binary, which is
// the program with TOOLOUT_AS_MAIN=1).
type userShell struct{ dir, path string }

func newUserShell() userShell {
	GinkgoHelper()
	bin := GinkgoT().TempDir()
	self, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	Expect(os.Symlink(self, filepath.Join(bin, "toolout"))).To(Succeed())
	return userShell{dir: GinkgoT().TempDir(), path: bin + string(os.PathListSeparator) + os.Getenv("PATH")}
}

// run runs line with sh in the scratch folder, as the user types it, and
// returns its exit status and its output (stdout then stderr).
func (u userShell) run(line string) (int, string) {
	GinkgoHelper()
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = u.dir
	cmd.Env = append(os.Environ(), "PATH="+u.path, "TOOLOUT_AS_MAIN=1", "CI=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		var exit *exec.ExitError
		Expect(err).To(BeAssignableToTypeOf(exit), string(out))
		return err.(*exec.ExitError).ExitCode(), string(out)
	}
	return 0, string(out)
}

// hint returns what follows prefix on the one output line that has it.
func hint(out, prefix string) string {
	GinkgoHelper()
	m := regexp.MustCompile(`(?m)`+regexp.QuoteMeta(prefix)+`(.*)$`).FindAllStringSubmatch(out, -1)
	Expect(m).To(HaveLen(1), "want one line with %q in:\n%s", prefix, out)
	return strings.TrimSpace(m[0][1])
}

var _ = Describe("hints run verbatim where the user stands", func() {
	var u userShell
	BeforeEach(func() { u = newUserShell() })

	It("toolout test: a changed golden's accept hint, run as printed, accepts it", func() {
		scenario, err := os.ReadFile(filepath.Join("..", "..", "scenarios", "finalreport", "closed.yaml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.MkdirAll(filepath.Join(u.dir, "checks", "agent"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(u.dir, "checks", "agent", "closed.yaml"), scenario, 0o644)).To(Succeed())
		code, out := u.run("toolout test ./checks")
		Expect(code).To(Equal(0), out)
		golden := filepath.Join(u.dir, "checks", "agent", "golden", "closed.txtar")
		Expect(os.WriteFile(golden, []byte("stale\n"), 0o644)).To(Succeed())

		code, out = u.run("toolout test ./checks")
		Expect(code).To(Equal(1), out)
		accept := hint(out, "to accept it: ")
		Expect(accept).To(Equal("toolout test --update checks/agent/closed.yaml"), "the program as run, the file under the folder as given")
		code, out = u.run(hint(out, "to diff it: "))
		Expect(code).To(Equal(1), "diff finds the difference: %s", out)
		Expect(out).To(ContainSubstring("-stale"))

		code, out = u.run(accept)
		Expect(code).To(Equal(0), out)
		code, out = u.run("toolout test ./checks")
		Expect(code).To(Equal(0), out)
	})

	It("toolout test: a missing golden under CI names the command that writes it", func() {
		Expect(os.WriteFile(filepath.Join(u.dir, "x.yaml"), []byte(closedScenario), 0o644)).To(Succeed())
		code, out := u.run("CI=true toolout test x.yaml")
		Expect(code).To(Equal(1), out)
		write := regexp.MustCompile("run `([^`]*)` and commit").FindStringSubmatch(out)
		Expect(write).To(HaveLen(2), out)
		Expect(write[1]).To(Equal("toolout test --update x.yaml"))
		code, out = u.run("CI=true " + write[1])
		Expect(code).To(Equal(0), out)
		code, out = u.run("CI=true toolout test x.yaml")
		Expect(code).To(Equal(0), out)
	})

	It("toolout import: a failed --update names the import that writes the scenarios again, run as printed", func() {
		trace := `[{"role": "user", "content": "count"}, ` +
			`{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "t", "arguments": "{}"}}]}, ` +
			`{"role": "tool", "tool_call_id": "c1", "name": "t", "content": "` + strings.Repeat(`row\n`, 4000) + `"}, ` +
			`{"role": "assistant", "content": "done"}]`
		Expect(os.WriteFile(filepath.Join(u.dir, "my trace.json"), []byte(trace), 0o644)).To(Succeed())
		again := withoutUpdate(selfOf(console{self: "toolout"}), []string{"my trace.json", "--update", "-o", "regress/x.yaml", "--redact", "a b"})
		Expect(again).To(Equal("toolout import 'my trace.json' -o regress/x.yaml --redact 'a b'"))
		code, out := u.run(again)
		Expect(code).To(Equal(0), out)
		Expect(filepath.Join(u.dir, "regress", "x.yaml")).To(BeAnExistingFile())
		code, out = u.run("toolout test --update regress/x.yaml")
		Expect(code).To(Equal(0), out)
	})

	It("toolout import: spans without their log records name the import that adds the logs' file, the files as given", func() {
		for from, to := range map[string]string{"otel-official-spans.json": "my spans.json", "otel-official-logs.json": "logs.json"} {
			data, err := os.ReadFile(filepath.Join("..", "..", "harness", "importer", "testdata", from))
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(filepath.Join(u.dir, to), data, 0o644)).To(Succeed())
		}
		code, out := u.run("toolout import 'my spans.json' -o regress/x.yaml")
		Expect(code).To(Equal(2), out)
		add := hint(out, "give it too: ")
		Expect(add).To(Equal("toolout import 'my spans.json' LOGS.json)"))
		code, out = u.run(strings.Replace(strings.TrimSuffix(add, ")"), "LOGS.json", "logs.json", 1) + " -o regress/x.yaml")
		Expect(code).To(Equal(0), out)
		Expect(filepath.Join(u.dir, "regress", "x.yaml")).To(BeAnExistingFile())
	})

	It("toolout test: a path a shell would split is quoted in the accept hint", func() {
		Expect(os.MkdirAll(filepath.Join(u.dir, "my checks"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(u.dir, "my checks", "x.yaml"), []byte(closedScenario), 0o644)).To(Succeed())
		code, out := u.run("toolout test 'my checks'")
		Expect(code).To(Equal(0), out)
		Expect(os.WriteFile(filepath.Join(u.dir, "my checks", "golden", "x.txtar"), []byte("stale\n"), 0o644)).To(Succeed())
		code, out = u.run("toolout test 'my checks'")
		Expect(code).To(Equal(1), out)
		accept := hint(out, "to accept it: ")
		Expect(accept).To(Equal("toolout test --update 'my checks/x.yaml'"))
		code, out = u.run(hint(out, "to diff it: "))
		Expect(code).To(Equal(1), "diff finds the difference: %s", out)
		Expect(out).To(ContainSubstring("-stale"))
		code, out = u.run(accept)
		Expect(code).To(Equal(0), out)
		code, out = u.run("toolout test 'my checks'")
		Expect(code).To(Equal(0), out)
	})

	DescribeTable("an unknown flag or command names the help that lists them, run as printed",
		func(line, prefix string) {
			code, out := u.run(line)
			Expect(code).To(Equal(2), out)
			help := strings.TrimSuffix(hint(out, prefix), "')")
			Expect(help).To(HavePrefix("toolout "))
			code, out = u.run(help)
			Expect(code).To(Equal(0), out)
			Expect(out).To(ContainSubstring("Usage: toolout"))
		},
		Entry("test", "toolout test --nope", "(run '"),
		Entry("import", "toolout import --nope", "(run '"),
		Entry("serve", "toolout serve --nope x.yaml", "(run '"),
		Entry("a command", "toolout nope", "(run '"),
	)

	It("no command: the usage on stderr names the help commands as run", func() {
		code, out := u.run("toolout")
		Expect(code).To(Equal(2), out)
		Expect(out).To(ContainSubstring("\nRun 'toolout help COMMAND' or 'toolout COMMAND --help' for a command's usage and flags.\n"))
		code, out = u.run("toolout help test")
		Expect(code).To(Equal(0), out)
		code, out = u.run("toolout test --help")
		Expect(code).To(Equal(0), out)
	})
})

// closedScenario is a scenario that passes (finalreport, a closed wrapper).
const closedScenario = `component: finalreport
config: {nonce: abc}
input:
  text: '<ai-agent-abc-FINAL format="text">web-0: 58 errors</ai-agent-abc-FINAL>'
expect: {found: true, content: "web-0: 58 errors", closed: true}
`
