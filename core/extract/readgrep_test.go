package extract_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/finalreport"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

var _ = Describe("read-grep", func() {
	const nonce = "n1"
	var st *store.Store
	text := lines(3000, 40) // 119,999 bytes: too large for one Read

	BeforeEach(func() {
		var err error
		st, err = store.New(store.Options{Base: GinkgoT().TempDir(), SessionID: "s",
			Sources: core.Sources{NewID: func() string { return "h-1" }}})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(st.Close)
		_, err = st.Put("logs__query", `{"since":"1h"}`, text, store.Measure(text, tokens.Estimator{}))
		Expect(err).NotTo(HaveOccurred())
	})

	// script answers turn t with calls[t-1]: a tool call, or a final report
	// when it starts with "final:".
	script := func(calls ...string) (*recorder, func(extract.Config) extract.Outcome) {
		llm := &recorder{}
		llm.answer = func(req core.Request) (string, error) { return "", nil }
		run := func(cfg extract.Config) extract.Outcome {
			ex, err := extract.New(extract.Options{Store: st, Tokenizer: tokens.Estimator{}, Nonce: nonce, Config: cfg,
				LLM: core.LLMFunc(func(ctx context.Context, req core.Request) (core.Response, error) {
					llm.mu.Lock()
					llm.reqs = append(llm.reqs, req)
					llm.mu.Unlock()
					t := req.Tag.Turn
					if t > len(calls) {
						return core.Response{Text: "still looking"}, nil
					}
					if rest, ok := strings.CutPrefix(calls[t-1], "final:"); ok {
						return core.Response{Text: finalreport.Wrap(nonce, rest)}, nil
					}
					name, args, _ := strings.Cut(calls[t-1], " ")
					return core.Response{ToolCalls: []core.ToolCall{{ID: fmt.Sprint("c", t), Name: name, Arguments: json.RawMessage(args)}}}, nil
				})})
			Expect(err).NotTo(HaveOccurred())
			return ex.Extract(context.Background(), json.RawMessage(`{"handle":"h-1","extract":"the line 001234","mode":"read-grep"}`))
		}
		return llm, run
	}

	It("runs the sub-agent with Read and Grep rooted at the store, the handle being the filename", func() {
		llm, run := script(`Grep {"pattern":"line 001234","path":"h-1"}`, `Read {"path":"h-1","offset":1234,"limit":1}`, "final:line 001234 xxx")
		o := run(extract.DefaultConfig())
		Expect(o.Failure).To(BeEmpty())
		Expect(o.Text).To(Equal("ABSTRACT FROM TOOL OUTPUT logs__query WITH HANDLE h-1, STRATEGY:read-grep:\n\nline 001234 xxx"))
		Expect(llm.reqs).To(HaveLen(3))
		first := llm.reqs[0]
		Expect(first.Tag).To(Equal(core.Tag{Site: core.SiteExtractReadGrep, Turn: 1}))
		Expect(first.Messages[0].Content).To(ContainSubstring("IMPORTANT: The handle is the filename.\n"))
		Expect(first.Messages[0].Content).To(ContainSubstring("- Handle/filename: h-1\n- Root directory: " + st.Dir() + "\n"))
		Expect(first.Messages[0].Content).To(ContainSubstring(`<ai-agent-n1-FINAL format="text"> ... </ai-agent-n1-FINAL>`))
		Expect(first.Tools).To(HaveLen(2))
		Expect(first.Tools[0].Name).To(Equal("Read"))
		Expect(first.Tools[1].Name).To(Equal("Grep"))
		third := llm.reqs[2].Messages
		Expect(third[len(third)-3].Content).To(Equal("1235:" + strings.Split(text, "\n")[1234] + "\n"))
		Expect(third[len(third)-1].Content).To(Equal(strings.Split(text, "\n")[1234] + "\n"))
	})

	It("gives an oversized Read the spec's error and a traversal a tool error, and the run continues", func() {
		llm, run := script(`Read {"path":"h-1"}`, `Read {"path":"../../etc/passwd"}`, "final:done")
		o := run(extract.DefaultConfig())
		Expect(o.Strategy).To(Equal("read-grep"))
		msgs := llm.reqs[2].Messages
		Expect(msgs[3].Content).To(HavePrefix("Error: File content (~29999 tokens) exceeds maximum allowed tokens (25000)."))
		Expect(msgs[5].Content).To(Equal(`Tool error: path "../../etc/passwd": refused: ".." is not allowed; paths stay under the root`))
	})

	It("fails when the sub-agent runs out of turns without a report, falling back to truncate", func() {
		_, run := script(`Grep {"pattern":"x","path":"h-1","max_results":1}`, `Grep {"pattern":"y","path":"h-1"}`, `Grep {"pattern":"z","path":"h-1"}`)
		o := run(config(func(c *extract.Config) { c.ReadGrepTurns = 3 }))
		Expect(o.Strategy).To(Equal("truncate"))
		Expect(o.Fallback).To(Equal("read-grep failed"))
		Expect(o.Failure).To(Equal("the sub-agent gave no final report in 3 turns"))
		Expect(o.Text).To(ContainSubstring("WARNING: tool_output fallback to truncate (read-grep failed).\n"))
	})
})
