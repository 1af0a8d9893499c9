package main

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("toolout import", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	// importTrace writes the messages as a trace, one per line, and imports
	// it into dir.
	importTrace := func(msgs ...string) (code int, stdout, stderr, trace string) {
		trace = filepath.Join(dir, "trace.json")
		Expect(os.WriteFile(trace, []byte("[\n  "+strings.Join(msgs, ",\n  ")+"\n]\n"), 0o644)).To(Succeed())
		code, stdout, stderr = invoke("", "import", trace, "-o", filepath.Join(dir, "out", "x.yaml"))
		return code, stdout, stderr, trace
	}
	call := `{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "t", "arguments": "{}"}}]}`
	result := `{"role": "tool", "tool_call_id": "zz", "name": "t", "content": "` + strings.Repeat(`row\n`, 4000) + `"}`

	It("refuses a result whose tool_call_id matches no call, naming the trace as given and the line:col, and writes nothing", func() {
		code, stdout, stderr, trace := importTrace(`{"role": "user", "content": "q"}`, call, result, `{"role": "assistant", "content": "done"}`)
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout import: " + trace + `:4:36: message 2: tool_call_id "zz" matches no tool call of an earlier assistant message` + "\n"))
		Expect(filepath.Join(dir, "out")).NotTo(BeADirectory())
	})

	It("refuses a trace with no user message at its start", func() {
		code, _, stderr, trace := importTrace(`{"role": "system", "content": "s"}`,
			`{"role": "assistant", "content": "<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}`)
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout import: " + trace + ":1:1: no user message (other than TURN-FAILED retries): a session starts from the user's question\n"))
	})

	It("names the line:col of a JSON syntax error and of a byte that is not UTF-8", func() {
		code, _, stderr, trace := importTrace(`{"role": "user", "content": "q"},`)
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout import: " + trace + ":3:1: invalid character ']' looking for beginning of value\n"))
		code, _, stderr, trace = importTrace("{\"role\": \"user\", \"content\": \"caf\xe9\"}")
		Expect(code).To(Equal(2))
		Expect(stderr).To(Equal("toolout import: " + trace + ":2:35: invalid UTF-8 (byte 0xe9): a trace is UTF-8 JSON\n"))
	})
	It("reads at most --max-input of the trace, and refuses standard input", func() {
		_, _, _, trace := importTrace(`{"role": "user", "content": "q"}`, call, result)
		code, stdout, stderr := invoke("", "import", trace, "--max-input", "1KiB", "-o", filepath.Join(dir, "out", "x.yaml"))
		Expect(code).To(Equal(2))
		Expect(stdout).To(BeEmpty())
		Expect(stderr).To(Equal("toolout import: " + trace + ": input exceeds the limit of 1KiB (1024 bytes); raise it with --max-input\n"))
		Expect(filepath.Join(dir, "out")).NotTo(BeADirectory())
		code, _, stderr = invoke("[]", "import", "-")
		Expect(code).To(Equal(2))
		Expect(stderr).To(HavePrefix("toolout import: want a TRACE.json file, not standard input"))
	})
})
