package harness_test

import (
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
)

var _ = Describe("Import", func() {
	load := func(name string) []byte {
		data, err := os.ReadFile("../scenarios/regress/traces/" + name)
		Expect(err).NotTo(HaveOccurred())
		return data
	}
	opts := func(at int) harness.ImportOptions {
		return harness.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "t.json", At: at}
	}

	It("gives the same bytes when importing the same trace twice, equal to the committed scenarios", func() {
		trace := load("leaked-tools.json")
		o := harness.ImportOptions{Dir: "../scenarios/regress", Name: "leaked-tools", TraceName: "leaked-tools.json", At: 3}
		a, err := harness.Import(trace, o)
		Expect(err).NotTo(HaveOccurred())
		b, err := harness.Import(trace, o)
		Expect(err).NotTo(HaveOccurred())
		Expect(a).To(Equal(b))
		for _, f := range a {
			committed, err := os.ReadFile(f.Path)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(f.Data)).To(Equal(string(committed)), f.Path)
		}
	})

	It("redacts keys, bearer tokens, URL passwords and, on request, e-mails, with stable numbered placeholders", func() {
		o := harness.ImportOptions{Dir: "../scenarios/regress", Name: "oversized-secrets", TraceName: "oversized-secrets.json", At: -1, RedactEmails: true}
		files, err := harness.Import(load("oversized-secrets.json"), o)
		Expect(err).NotTo(HaveOccurred())
		for _, f := range files {
			text := string(f.Data)
			for _, secret := range []string{"sk-proj-", "sk-live-", "eyJhbGci", "Pa55w0rd", "@example.com"} {
				Expect(text).NotTo(ContainSubstring(secret), f.Path)
			}
			committed, err := os.ReadFile(f.Path)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(committed)).To(Equal(text), f.Path)
		}
		Expect(string(files[len(files)-1].Data)).To(ContainSubstring("Bearer <REDACTED_BEARER_1>"))
	})

	It("asks for --at when several messages qualify, and refuses a non-candidate", func() {
		_, err := harness.Import(load("leaked-tools.json"), opts(-1))
		Expect(err).To(MatchError("t.json: several messages could be imported: 1 (leaked), 3 (leaked); choose one with --at"))
		_, err = harness.Import(load("leaked-tools.json"), opts(2))
		Expect(err).To(MatchError("t.json: --at 2: message 2 is not a candidate (candidates: 1 (leaked), 3 (leaked))"))
	})

	DescribeTable("names the message and field of a bad trace",
		func(trace, want string) {
			_, err := harness.Import([]byte(trace), opts(-1))
			Expect(err).To(MatchError(want))
		},
		Entry("not a list", `"hello"`, `t.json: want a JSON list of messages, bare or under "messages": json: cannot unmarshal string into Go value of type []json.RawMessage`),
		Entry("no messages key", `{"msgs": []}`, `t.json: want a list of messages, bare or under "messages"`),
		Entry("missing role", `[{"content": "x"}]`, `t.json: message 0: field role: missing`),
		Entry("bad role", `[{"role": "user", "content": "x"}, {"role": "robot"}]`, `t.json: message 1: field role: "robot" is not system, user, assistant or tool`),
		Entry("bad content", `[{"role": "user", "content": 3}]`, `t.json: message 0: field content: want a string, null or a list of text parts`),
		Entry("tool call without name", `[{"role": "assistant", "tool_calls": [{"id": "a", "function": {}}]}]`, `t.json: message 0: field tool_calls[0].function.name: missing`),
		Entry("tool message without id", `[{"role": "tool", "content": "x"}]`, `t.json: message 0: field tool_call_id: missing on a tool message`),
		Entry("wrong type", `[{"role": "assistant", "tool_calls": {"id": 1}}]`, `t.json: message 0: field tool_calls: want a list, got object`),
		Entry("nothing to import", `[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]`, `t.json: no message to import: no assistant message with leaked tool calls and no tool result over 12288 bytes`),
	)

})
