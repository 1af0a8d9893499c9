package main

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// commandPaths lists every command of the table as typed: "test", "bench",
// "bench strategies", …, so that a new command is covered by the help
// specs without a new entry.
func commandPaths(cmds []command, prefix string) []string {
	var out []string
	for _, c := range cmds {
		p := strings.TrimSpace(prefix + " " + c.name)
		out = append(out, p)
		out = append(out, commandPaths(c.subs, p)...)
	}
	return out
}

// helpEntries is one Entry per command of the table.
func helpEntries() []TableEntry {
	var entries []TableEntry
	for _, p := range commandPaths(commands(), "") {
		entries = append(entries, Entry(p, p))
	}
	return entries
}

var _ = Describe("help", func() {
	DescribeTable("every command prints its usage on stdout, exit 0, for --help, -h and toolout help",
		func(path string) {
			words := strings.Fields(path)
			want := succeeds("", append(words, "--help")...)
			Expect(want).To(HavePrefix("Usage: toolout " + path))
			for _, args := range [][]string{append(words, "-h"), append(words, "-help"), append([]string{"help"}, words...)} {
				code, stdout, stderr := invoke("", args...)
				Expect(code).To(Equal(0), "%v: %s", args, stderr)
				Expect(stderr).To(BeEmpty(), "%v", args)
				Expect(stdout).To(Equal(want), "%v", args)
			}
		},
		helpEntries(),
	)

	It("finds flags after positional arguments", func() {
		code, stdout, stderr := invoke("", "test", "scenarios", "--help")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(HavePrefix("Usage: toolout test "))
		Expect(stdout).To(ContainSubstring("-label string"))
	})

	DescribeTable("the general help is on stdout, exit 0",
		func(args ...string) {
			stdout := succeeds("", args...)
			Expect(stdout).To(HavePrefix("toolout: handle tool output"))
			for _, p := range commands() {
				Expect(stdout).To(ContainSubstring("\n  " + p.name + " "))
			}
		},
		Entry("help", "help"), Entry("--help", "--help"), Entry("-h", "-h"), Entry("help help", "help", "help"),
	)

	DescribeTable("an unknown command is named, exit 2",
		refused(""),
		Entry("help X", []string{"help", "frobnicate"}, "toolout help: unknown command \"frobnicate\" (run 'toolout help')\n"),
		Entry("help GROUP X", []string{"help", "bench", "nope"}, "toolout help: unknown command \"bench nope\" (run 'toolout help')\n"),
		Entry("help LEAF X", []string{"help", "chunk", "nope"}, "toolout help: unknown command \"chunk nope\" (run 'toolout help')\n"),
		Entry("GROUP X", []string{"schema", "nope"}, "toolout schema: unknown subcommand \"nope\": want summarize or inspect\n"),
	)
})

var _ = Describe("errors", func() {
	// badInputs are invocations that fail, each with its expected exit
	// status; files are written to a fresh directory first.
	type bad struct {
		args  []string
		files map[string]string
		code  int
		want  string // a part of stderr
	}
	check := func(b bad) {
		dir := GinkgoT().TempDir()
		args := make([]string, len(b.args))
		for i, a := range b.args {
			args[i] = strings.ReplaceAll(a, "DIR", dir)
		}
		for name, text := range b.files {
			Expect(os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)).To(Succeed())
		}
		code, stdout, stderr := invoke("", args...)
		Expect(code).To(Equal(b.code), stderr)
		Expect(stdout).To(BeEmpty())
		Expect(stderr).NotTo(ContainSubstring("\x1b"), "an ANSI escape in %q", stderr)
		Expect(strings.ReplaceAll(stderr, dir+string(filepath.Separator), "")).To(ContainSubstring(b.want))
	}
	// badConfig is gateway serve on a config file gw.yaml holding yaml.
	badConfig := func(yaml, want string) bad {
		return bad{args: []string{"gateway", "serve", "--upstream", "http://127.0.0.1:1", "--config", "DIR/gw.yaml"}, code: 2,
			files: map[string]string{"gw.yaml": yaml}, want: want}
	}
	DescribeTable("are plain: no ANSI escape, the problem and its position", check,
		Entry("a --label syntax error, one line", bad{args: []string{"test", "--label", "(("}, code: 2,
			want: "toolout test: --label: \"((\" at byte 1: mismatched '(' - could not find matching ')'\n"}),
		Entry("an incomplete --label", bad{args: []string{"test", "--label", "a && "}, code: 2,
			want: "toolout test: --label: \"a && \": unexpected EOF\n"}),
		Entry("a YAML syntax error on line 2, at its line and column", bad{args: []string{"test", "DIR/s.yaml"}, code: 2,
			files: map[string]string{"s.yaml": "component: finalreport\nconfig: {nonce: abc\ninput: {text: x}\n"},
			want:  "s.yaml:2:9: syntax error: did not find expected ',' or '}'\n"}),
		Entry("an unknown scenario key, with the nearest one", bad{args: []string{"test", "DIR/s.yaml"}, code: 2,
			files: map[string]string{"s.yaml": "component: finalreport\ndescripton: x\n"},
			want:  "s.yaml:2:1: unknown field \"descripton\" (did you mean \"description\"?)\n"}),
		Entry("an unknown config key: its YAML name, position and the nearest one", badConfig(
			"pipes:\n  tool_output:\n    enabled: true\n    max_byte: 10\n",
			"gw.yaml:4:5: unknown field \"max_byte\" in pipes.tool_output (did you mean \"max_bytes\"?)\n")),
		Entry("a config value of the wrong type, named without a Go type", badConfig(
			"pipes:\n  tool_output: {enabled: true, skip_tools: {a: 1}, min_bytes: lots}\n",
			"gw.yaml:2:44: pipes.tool_output.skip_tools: want a list of strings, got a mapping (and 1 more problem)\n")),
		Entry("a config syntax error on line 2", badConfig(
			"pipes:\n  tool_output: [enabled\nstore: {}\n",
			"gw.yaml:2:16: did not find expected ',' or ']'\n")),
		Entry("an unknown flag", bad{args: []string{"chunk", "--budge", "5"}, code: 2,
			want: "toolout chunk: flag provided but not defined: -budge (run 'toolout chunk --help')\n"}),
	)

	// `toolout test --bogus` once said only that the flag was
	// not defined; every command's unknown flag now ends with where its
	// usage is, as an unknown command does ("run 'toolout help'").
	DescribeTable("an unknown flag is one line, exit 2, ending with how to see the command's usage",
		func(args []string, want string) { refused("")(args, want) },
		Entry("test", []string{"test", "--bogus"}, "toolout test: flag provided but not defined: -bogus (run 'toolout test --help')\n"),
		Entry("serve", []string{"serve", "--bogus", "x.yaml"}, "toolout serve: flag provided but not defined: -bogus (run 'toolout serve --help')\n"),
		Entry("import", []string{"import", "--bogus"}, "toolout import: flag provided but not defined: -bogus (run 'toolout import --help')\n"),
		Entry("gateway serve", []string{"gateway", "serve", "-x"}, "toolout gateway serve: flag provided but not defined: -x (run 'toolout gateway serve --help')\n"),
		Entry("bench strategies", []string{"bench", "strategies", "--nope=1"}, "toolout bench strategies: flag provided but not defined: -nope (run 'toolout bench strategies --help')\n"),
	)
})
