package extract_test

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

var _ = Describe("tool_output", func() {
	It("offers the exact schema of the spec", func() {
		t := extract.Tool()
		Expect(t.Name).To(Equal("tool_output"))
		var schema map[string]any
		Expect(json.Unmarshal(t.InputSchema, &schema)).To(Succeed())
		Expect(schema["required"]).To(Equal([]any{"handle", "extract"}))
		Expect(schema["additionalProperties"]).To(BeFalse())
		mode := schema["properties"].(map[string]any)["mode"].(map[string]any)
		Expect(mode["enum"]).To(Equal([]any{"auto", "full-chunked", "read-grep", "truncate"}))
	})

	Describe("Run", func() {
		var ex *extract.Extractor
		var st *store.Store
		var logs []string
		output := strings.Repeat("0123456789", 10)

		BeforeEach(func() {
			var err error
			n := 0
			st, err = store.New(store.Options{Base: GinkgoT().TempDir(), SessionID: "s",
				Sources: core.Sources{NewID: func() string { n++; return []string{"", "h-1", "h-2"}[n] }}})
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(st.Close)
			m, err := st.Put("logs__query", `{"since":"1h"}`, output, store.Measure(output, tokens.Estimator{}))
			Expect(err).NotTo(HaveOccurred())
			Expect(m.Handle).To(Equal("h-1"))
			logs = nil
			ex, err = extract.New(extract.Options{Store: st, Tokenizer: tokens.Estimator{}, Nonce: "n1", TruncateBytes: 20, Config: extract.DefaultConfig(),
				Logf: func(f string, a ...any) { logs = append(logs, f) }})
			Expect(err).NotTo(HaveOccurred())
		})

		run := func(args string) (string, bool) { return ex.Run(context.Background(), json.RawMessage(args)) }

		It("truncates on request, in the success format, within the budget (20 bytes: too few for a marker, so the head alone)", func() {
			text, isErr := run(`{"handle":"h-1","extract":"errors","mode":"truncate"}`)
			Expect(isErr).To(BeFalse())
			Expect(text).To(Equal("ABSTRACT FROM TOOL OUTPUT logs__query WITH HANDLE h-1, STRATEGY:truncate:\n\n" +
				"01234567890123456789"))
		})

		It("falls back to truncate with the warning when the routed strategy cannot run", func() {
			text, _ := run(`{"handle":"h-1","extract":"errors"}`)
			Expect(text).To(HavePrefix("ABSTRACT FROM TOOL OUTPUT logs__query WITH HANDLE h-1, STRATEGY:truncate:\n\n" +
				"WARNING: tool_output fallback to truncate (full-chunked failed).\n0123456789"))
			text, _ = run(`{"handle":"h-1","extract":"errors","mode":"read-grep"}`)
			Expect(text).To(ContainSubstring("WARNING: tool_output fallback to truncate (read-grep failed).\n"))
		})

		It("treats an unknown mode as auto and logs it", func() {
			o := ex.Extract(context.Background(), json.RawMessage(`{"handle":"h-1","extract":"errors","mode":"summarize"}`))
			Expect(o.Requested).To(Equal("auto"))
			Expect(o.Route.Mode).To(Equal("full-chunked"))
			Expect(o.Failure).To(Equal("no LLM is configured for extraction"))
			Expect(logs).To(ContainElement(`tool_output: unknown mode %q, using auto`))
		})

		DescribeTable("reports bad parameters in the failure format",
			func(args, want string) {
				text, isErr := run(args)
				Expect(isErr).To(BeTrue())
				Expect(text).To(Equal(want))
			},
			Entry("missing extract", `{"handle":"h-1"}`,
				"TOOL_OUTPUT FAILED FOR logs__query WITH HANDLE h-1, STRATEGY:auto:\n\ninvalid parameters: `extract` is required (a non-empty string)"),
			Entry("missing both", `{}`,
				"TOOL_OUTPUT FAILED FOR UNKNOWN WITH HANDLE MISSING, STRATEGY:auto:\n\ninvalid parameters: `handle` is required (a non-empty string); `extract` is required (a non-empty string)"),
			Entry("empty extract, explicit mode", `{"handle":"h-1","extract":" ","mode":"truncate"}`,
				"TOOL_OUTPUT FAILED FOR logs__query WITH HANDLE h-1, STRATEGY:truncate:\n\ninvalid parameters: `extract` must be a non-empty string"),
			Entry("not an object", `[1]`,
				"TOOL_OUTPUT FAILED FOR UNKNOWN WITH HANDLE MISSING, STRATEGY:auto:\n\ninvalid parameters: want a JSON object with handle and extract"),
		)

		It("answers an unknown handle successfully, listing what is stored", func() {
			text, isErr := run(`{"handle":"nope","extract":"x"}`)
			Expect(isErr).To(BeFalse())
			Expect(text).To(Equal("ABSTRACT FROM TOOL OUTPUT UNKNOWN WITH HANDLE nope, STRATEGY:auto:\n\n" +
				`No stored tool output was found for handle "nope". Stored handles in this session: h-1 (logs__query).`))
		})
	})

	DescribeTable("Truncate keeps head and tail on rune boundaries",
		func(text string, max int, want string) {
			got, _ := extract.Truncate(text, max)
			Expect(got).To(Equal(want))
			Expect(utf8.ValidString(got)).To(BeTrue())
		},
		Entry("within budget", "hello", 5, "hello"),
		Entry("ascii", "abcdefghij", 4, "ab\n[... 6 bytes truncated ...]\nij"),
		Entry("multi-byte at the cut", "ééééé", 5, "é\n[... 6 bytes truncated ...]\né"),
		Entry("zero budget", "abc", 0, "\n[... 3 bytes truncated ...]\n"),
	)

	DescribeTable("TruncateWithin keeps its marker inside the budget",
		func(text string, max int, want string) {
			got, _ := extract.TruncateWithin(text, max)
			Expect(got).To(Equal(want))
			Expect(len(got)).To(BeNumerically("<=", max))
			Expect(utf8.ValidString(got)).To(BeTrue())
		},
		Entry("within budget", "hello", 5, "hello"),
		Entry("room for the marker", strings.Repeat("x", 100), 40, "xxxx\n[... 91 bytes truncated ...]\nxxxxx"),
		Entry("too small for the marker: the head alone", "abcdefghij", 4, "abcd"),
		Entry("the head alone on a rune boundary", "ééééé", 3, "é"),
		Entry("zero budget", "abc", 0, ""),
	)
})
