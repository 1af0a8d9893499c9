package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// deltas renders each delta as a line of JSON, as --stream reads them.
func deltas(ds ...string) string {
	var b strings.Builder
	for _, d := range ds {
		q, err := json.Marshal(d)
		Expect(err).NotTo(HaveOccurred())
		b.Write(q)
		b.WriteByte('\n')
	}
	return b.String()
}

var _ = Describe("toolout leaked --stream", func() {
	const result = `{"result":{"content":"Checking.\n\nThen I wait.","tool_calls":[{"id":"00000000-0000-4000-8000-000000000001","name":"a","arguments":{"s":"x"}}],"patterns":["<tool_call>"],"dropped":[],"repairs":[]}}` + "\n"

	It("prints the text, the call as it completes, and the result that `toolout leaked` prints", func() {
		in := deltas("Checking.\n<tool_", `call>{"name": "a", "arguments": {"s": "x"}}</tool_call>`, "\nThen I wait.")
		stdout := succeeds(in, "leaked", "--stream", "--ids", "seq")
		Expect(stdout).To(Equal(`{"text":"Checking.\n"}` + "\n" +
			`{"call":{"id":"00000000-0000-4000-8000-000000000001","name":"a","arguments":{"s":"x"}}}` + "\n" +
			`{"text":"\nThen I wait."}` + "\n" + result))
		batch := succeeds("Checking.\n<tool_call>{\"name\": \"a\", \"arguments\": {\"s\": \"x\"}}</tool_call>\nThen I wait.", "leaked", "--ids", "seq")
		Expect(`{"result":` + strings.TrimSuffix(batch, "\n") + "}\n").To(Equal(result))
	})

	It("reads a file whose last line has no newline, and one delta per line, however cut", func() {
		f := filepath.Join(GinkgoT().TempDir(), "deltas.jsonl")
		in := strings.TrimSuffix(deltas(strings.Split("Checking.\n<tool_call>{\"name\": \"a\", \"arguments\": {\"s\": \"x\"}}</tool_call>\nThen I wait.", "")...), "\n")
		Expect(os.WriteFile(f, []byte(in), 0o600)).To(Succeed())
		stdout := succeeds("", "leaked", "--stream", "--ids", "seq", f)
		Expect(stdout).To(HaveSuffix(result))
		Expect(stdout).To(ContainSubstring(`{"call":{"id":"00000000-0000-4000-8000-000000000001","name":"a","arguments":{"s":"x"}}}`))
	})

	It("prints only the result for no deltas", func() {
		Expect(succeeds("", "leaked", "--stream")).To(Equal(`{"result":{"content":"","tool_calls":[],"patterns":[],"dropped":[],"repairs":[]}}` + "\n"))
	})

	DescribeTable("stops at a line that is not a JSON string, after the events of the lines before it, exit 2",
		func(line, want string) {
			code, stdout, stderr := invoke(deltas("Hello. ")+line+"\n"+deltas("more"), "leaked", "--stream")
			Expect(code).To(Equal(2))
			Expect(stdout).To(Equal(`{"text":"Hello. "}` + "\n"))
			Expect(stderr).To(Equal("toolout leaked: <stdin>:2: " + want + "\n"))
		},
		Entry("a number", "42", `want a JSON string, got "42"`),
		Entry("null", "null", `want a JSON string, got "null"`),
		Entry("an empty line", "", "want a JSON string, got an empty line"),
		Entry("an unterminated string", `"abc`, "want a JSON string: unexpected end of JSON input"),
		Entry("two strings", `"a" "b"`, "want a JSON string: invalid character '\"' after top-level value"),
	)

	It("names the file in its error", func() {
		f := filepath.Join(GinkgoT().TempDir(), "bad.jsonl")
		Expect(os.WriteFile(f, []byte("\"a\"\n{\"text\": \"b\"}\n"), 0o600)).To(Succeed())
		code, _, stderr := invoke("", "leaked", "--stream", f)
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout leaked: " + f + `:2: want a JSON string, got "{\"text\": \"b\"}"` + "\n"))
	})
})
