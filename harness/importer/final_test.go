package importer_test

import (
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/components"
	"github.com/toolout/toolout/harness/importer"
)

// finalLog is a chat completions log of a conversation where nothing went
// wrong: a tool call, its small result (holding a secret), the answer.
const finalLog = `{"request":{"model":"m","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"What is in a.txt?"}]},"response":{"id":"c1","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.txt\"}"}}]}}]}}
{"request":{"model":"m","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"What is in a.txt?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.txt\"}"}}]},{"role":"tool","tool_call_id":"call_1","content":"hello world; key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"}]},"response":{"id":"c2","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"It says hello world."}}]}}
`

var _ = Describe("Import of a conversation where nothing went wrong (Final)", func() {
	o := importer.ImportOptions{Dir: "d", Name: "x", TraceName: "t.jsonl", At: -1}

	It("is refused without Final, as before", func() {
		_, err := importer.Import([]byte(finalLog), o)
		Expect(err).To(MatchError("t.jsonl: no message to import: no assistant message with leaked tool calls and no tool result over 12288 bytes"))
	})

	It("with Final, replays the conversation to its last answer, redacted, and the scenario passes", func() {
		f := o
		f.Final = true
		files, err := importer.Import([]byte(finalLog), f)
		Expect(err).NotTo(HaveOccurred())
		sc := string(scenarioOf(files))
		Expect(sc).To(ContainSubstring("the conversation from message 1 to its answer, message 4"))
		Expect(sc).To(ContainSubstring("- final"))
		Expect(sc).To(ContainSubstring("report: It says hello world."))
		Expect(sc).NotTo(ContainSubstring("sk-proj-abcdef"))
		n, err := importer.Cut([]byte(finalLog), f)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(4))
		base := writeFiles(GinkgoT(), files)
		runImported(GinkgoT(), components.Default(), filepath.Join(base, "d", "x.yaml"), scenarioOf(files))
	})

	It("with Final, still cuts at a result over the cap when there is one", func() {
		f := o
		f.Final = true
		big := strings.Replace(finalLog, "hello world;", strings.Repeat("row ", 4000), 1)
		files, err := importer.Import([]byte(big), f)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(scenarioOf(files))).To(ContainSubstring("- oversized"))
	})
})
