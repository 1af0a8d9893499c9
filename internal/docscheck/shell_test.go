package docscheck_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/docscheck"
)

var _ = Describe("Transcript", func() {
	It("splits a console block into commands and their output, continuing open quotes and backslashes", func() {
		b := docscheck.Block{File: "R.md", Line: 10, Info: "console", Text: "$ echo 'a\nb'\na\nb\n$ ls \\\n    x\nx\n$ true\n"}
		steps, err := docscheck.Transcript(b)
		Expect(err).NotTo(HaveOccurred())
		Expect(steps).To(Equal([]docscheck.Step{
			{Line: 11, Command: "echo 'a\nb'", Want: []string{"a", "b"}},
			{Line: 15, Command: "ls \\\n    x", Want: []string{"x"}},
			{Line: 18, Command: "true"},
		}))
	})

	It("refuses output before the first command", func() {
		_, err := docscheck.Transcript(docscheck.Block{File: "R.md", Line: 3, Info: "console", Text: "out\n$ ls\n"})
		Expect(err).To(MatchError(`docscheck: R.md:4: a transcript starts with a command ("$ ..."), got "out"`))
	})
})

var _ = Describe("Commands", func() {
	It("gives a sh block's commands, comments and blank lines left out", func() {
		b := docscheck.Block{Line: 1, Info: "sh", Text: "# setup\ngo install ./cmd/toolout   # the CLI\n\ntoolout test \\\n  scenarios\n"}
		steps := docscheck.Commands(b)
		Expect(steps).To(HaveLen(2))
		Expect(steps[0].Command).To(Equal("go install ./cmd/toolout   # the CLI"))
		Expect(steps[1]).To(Equal(docscheck.Step{Line: 5, Command: "toolout test \\\n  scenarios"}))
	})
})

var _ = DescribeTable("Incomplete",
	func(cmd string, want bool) { Expect(docscheck.Incomplete(cmd)).To(Equal(want)) },
	Entry("a whole command", `echo "a b"`, false),
	Entry("a backslash at the end", `echo a \`, true),
	Entry("an open single quote", `jq -n '{a: 1,`, true),
	Entry("a double quote inside single quotes", `echo '"'`, false),
	Entry("an escaped quote", `echo \'`, false),
	Entry("a quote in a comment", `ls # it's here`, false),
)

var _ = DescribeTable("Invocations",
	func(cmd string, want [][]string) { Expect(docscheck.Invocations(cmd)).To(Equal(want)) },
	Entry("a plain call", `toolout test --label 'a && b' x.yaml`, [][]string{{"test", "--label", "a && b", "x.yaml"}}),
	Entry("in a pipe, with redirections", `printf 'x' | toolout leaked --ids seq 2> err.txt > out.json`, [][]string{{"leaked", "--ids", "seq"}}),
	Entry("after assignments and before a list", `CI=true toolout test tests; echo "exit $?"`, [][]string{{"test", "tests"}}),
	Entry("in the background, 2>&1", `toolout serve a.yaml > u 2>&1 & sleep 1`, [][]string{{"serve", "a.yaml"}}),
	Entry("a command substitution stays one word", `toolout gateway serve --upstream $(sed 's|/v1$||' u) --config g.yaml`,
		[][]string{{"gateway", "serve", "--upstream", "$(sed 's|/v1$||' u)", "--config", "g.yaml"}}),
	Entry("go tool toolout", `go tool toolout version`, [][]string{{"version"}}),
	Entry("continued lines", "toolout schema inspect --tool-id t \\\n    --field-path 'a[]' f.json", [][]string{{"schema", "inspect", "--tool-id", "t", "--field-path", "a[]", "f.json"}}),
	Entry("no toolout", `ls toolout`, [][]string(nil)),
	// An unclosed backquote sliced one byte past the end: a panic.
	Entry("an unclosed backquote runs to the end", "toolout test `ls", [][]string{{"test", "`ls"}}),
)
