package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/agent"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/session"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/fakes"
)

func ptr(s string) *string { return &s }

func fixed(name, out string) agent.Tool {
	return agent.Func{Desc: core.Tool{Name: name}, Fn: func(context.Context, json.RawMessage) (string, error) { return out, nil }}
}

func turn(n int, r fakes.Respond) fakes.Step {
	return fakes.Step{Match: fakes.Match{Tag: core.SiteSessionTurn, Turn: n}, Respond: r}
}

func toolNames(req core.Request) []string {
	var out []string
	for _, t := range req.Tools {
		out = append(out, t.Name)
	}
	return out
}

var _ = Describe("session", func() {
	var base string
	BeforeEach(func() { base = GinkgoT().TempDir() })

	options := func(llm core.LLM, tools ...agent.Tool) session.Options {
		return session.Options{LLM: llm, Tokenizer: tokens.Estimator{}, Sources: fakes.NewSources(), Tools: tools,
			StoreBase: base, MaxToolResponseBytes: 100, TruncateBytes: 40, MaxTurns: 4}
	}

	It("offers tool_output with the schema its config asks for: the spec's exact one by default, the extra modes when offer_modes names them, and runs them", func() {
		big := strings.Repeat("ts=1 host=web-0 level=INFO\n", 40) + "ts=2 host=web-1 level=ERROR disk full\n" + strings.Repeat("ts=3 host=web-0 level=INFO\n", 40)
		for _, offer := range [][]string{nil, {extract.ModeHeadTail}} {
			llm, err := fakes.NewLLM([]fakes.Step{
				turn(1, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs", Args: map[string]any{}}}}),
				turn(2, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "tool_output", Args: map[string]any{"handle": "00000000-0000-4000-8000-000000000002", "extract": "errors", "mode": "head-tail"}}}}),
				turn(3, fakes.Respond{Final: ptr("disk full")}),
			}, fakes.Options{})
			Expect(err).NotTo(HaveOccurred())
			opts := options(llm, fixed("logs", big))
			opts.TruncateBytes = 600 // room for the error line between head and tail
			cfg := extract.DefaultConfig()
			cfg.OfferModes = offer
			opts.Extract = &cfg
			_, err = session.Run(context.Background(), opts, "what failed?")
			Expect(err).NotTo(HaveOccurred())
			calls := llm.Calls()
			offered := calls[1].Request.Tools[1]
			Expect(offered).To(Equal(extract.ToolFor(cfg)))
			msgs := calls[2].Request.Messages
			if offer == nil {
				Expect(offered).To(Equal(extract.Tool()))
				Expect(string(offered.InputSchema)).NotTo(ContainSubstring(extract.ModeHeadTail))
				Expect(msgs[len(msgs)-1].Content).NotTo(ContainSubstring("STRATEGY:head-tail:"), "a mode the schema does not offer runs as auto")
				continue
			}
			Expect(string(offered.InputSchema)).To(ContainSubstring(`"` + extract.ModeHeadTail + `"`))
			Expect(msgs[len(msgs)-1].Content).To(HavePrefix("ABSTRACT FROM TOOL OUTPUT logs WITH HANDLE 00000000-0000-4000-8000-000000000002, STRATEGY:head-tail:\n\n"))
			Expect(msgs[len(msgs)-1].Content).To(ContainSubstring("disk full"))
		}
	})

	It("stores an oversized result, shows the handle message, and offers tool_output from then on", func() {
		big := strings.Repeat("ts=1 host=web-0 level=ERROR\n", 10)
		llm, err := fakes.NewLLM([]fakes.Step{
			turn(1, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs", Args: map[string]any{"since": "1h"}}}}),
			turn(2, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "tool_output", Args: map[string]any{"handle": "00000000-0000-4000-8000-000000000002", "extract": "errors", "mode": "truncate"}}}}),
			turn(3, fakes.Respond{Final: ptr("10 errors")}),
		}, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		res, err := session.Run(context.Background(), options(llm, fixed("logs", big)), "count errors")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Report).To(Equal("10 errors"))
		Expect(res.Stored).To(HaveLen(1))
		Expect(res.Stored[0].Args).To(Equal(`{"since":"1h"}`))
		calls := llm.Calls()
		Expect(toolNames(calls[0].Request)).To(Equal([]string{"logs"}))
		Expect(toolNames(calls[1].Request)).To(Equal([]string{"logs", "tool_output"}))
		msgs := calls[1].Request.Messages
		Expect(msgs[len(msgs)-1].Content).To(Equal("Tool output is too large (280 bytes, 11 lines, 70 tokens).\n" +
			"Call tool_output(handle = \"00000000-0000-4000-8000-000000000002\", extract = \"what to extract\").\n" +
			"Provide precise and detailed instructions in `extract` about what you are looking for."))
		msgs = calls[2].Request.Messages
		Expect(msgs[len(msgs)-1].Content).To(HavePrefix("ABSTRACT FROM TOOL OUTPUT logs WITH HANDLE 00000000-0000-4000-8000-000000000002, STRATEGY:truncate:\n\n"))
		Expect(res.Dir).NotTo(BeADirectory())
		Expect(llm.Check()).To(Succeed())
	})

	It("stores on projected token overflow alone", func() {
		llm, _ := fakes.NewLLM([]fakes.Step{
			turn(1, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs"}}}),
			turn(2, fakes.Respond{Final: ptr("ok")}),
		}, fakes.Options{})
		o := options(llm, fixed("logs", strings.Repeat("x", 90)))
		o.ContextWindow = 40
		res, err := session.Run(context.Background(), o, "go")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Stored).To(HaveLen(1))
	})

	It("leaves no directory after a thousand sessions ended by success, error, cancellation and panic", func() {
		ids := &fakes.IDs{} // shared, so that concurrent sessions get distinct directories
		var wg sync.WaitGroup
		for i := range 1000 {
			wg.Go(func() {
				defer GinkgoRecover()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var steps []fakes.Step
				tool := fixed("logs", strings.Repeat("y", 200))
				switch i % 4 {
				case 0: // success after storing
					steps = []fakes.Step{turn(1, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs"}}}), turn(2, fakes.Respond{Final: ptr("ok")})}
				case 1: // LLM error
					steps = []fakes.Step{turn(1, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs"}}}), turn(2, fakes.Respond{Error: &fakes.ErrorSpec{Kind: "server_error"}})}
				case 2: // cancelled during the tool
					steps = []fakes.Step{turn(1, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs"}}})}
					tool = agent.Func{Desc: core.Tool{Name: "logs"}, Fn: func(context.Context, json.RawMessage) (string, error) { cancel(); return "z", nil }}
				case 3: // a tool panics
					steps = []fakes.Step{turn(1, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs"}}})}
					tool = agent.Func{Desc: core.Tool{Name: "logs"}, Fn: func(context.Context, json.RawMessage) (string, error) { panic("tool crashed") }}
				}
				llm, err := fakes.NewLLM(steps, fakes.Options{})
				Expect(err).NotTo(HaveOccurred())
				func() {
					defer func() {
						if r := recover(); r != nil && i%4 != 3 {
							panic(r)
						}
					}()
					o := options(llm, tool)
					o.Sources.NewID = ids.Next
					_, err = session.Run(ctx, o, fmt.Sprint("session ", i))
				}()
				switch i % 4 {
				case 0:
					Expect(err).NotTo(HaveOccurred())
				case 1, 2:
					Expect(err).To(HaveOccurred())
				}
			})
		}
		wg.Wait()
		Expect(os.ReadDir(base)).To(BeEmpty())
	})

	It("removes the directory and carries on when a map call panics in its goroutine", func() {
		script, err := fakes.NewLLM([]fakes.Step{
			turn(1, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs"}}}),
			turn(2, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "tool_output", Args: map[string]any{"handle": "00000000-0000-4000-8000-000000000002", "extract": "errors", "mode": "full-chunked"}}}}),
			turn(3, fakes.Respond{Final: ptr("done")}),
		}, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		llm := core.LLMFunc(func(ctx context.Context, req core.Request) (core.Response, error) {
			if req.Tag.Site == core.SiteExtractMap {
				panic("LLM client bug")
			}
			return script.Complete(ctx, req)
		})
		var logs []string
		o := options(llm, fixed("logs", strings.Repeat("ts=1 host=web-0 level=ERROR\n", 10)))
		o.Logf = func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
		res, err := session.Run(context.Background(), o, "count errors")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Report).To(Equal("done"))
		Expect(res.Dir).NotTo(BeAnExistingFile())
		Expect(os.ReadDir(base)).To(BeEmpty())
		msgs := script.Calls()[2].Request.Messages
		Expect(msgs[len(msgs)-1].Content).To(ContainSubstring("WARNING: tool_output fallback to truncate (full-chunked failed)."))
		Expect(strings.Join(logs, "\n")).To(ContainSubstring("extract.map chunk=1/1: panic: LLM client bug"))
		Expect(script.Check()).To(Succeed())
	})
})

var _ = Describe("the session's oversize policy", func() {
	var base string
	BeforeEach(func() { base = GinkgoT().TempDir() })

	It("takes MaxToolResponseBytes over the policy's cap, and a negative one as no byte rule", func() {
		Expect(session.Options{}.OversizePolicy()).To(Equal(session.DefaultPolicy()))
		p := session.Policy{MaxBytes: 10, ContextFactor: 0.5}
		Expect(session.Options{Policy: &p}.OversizePolicy()).To(Equal(p))
		Expect(session.Options{Policy: &p, MaxToolResponseBytes: 99}.OversizePolicy().MaxBytes).To(Equal(99))
		Expect(session.Options{Policy: &p, MaxToolResponseBytes: -1}.OversizePolicy().MaxBytes).To(Equal(0))
		Expect(p.MaxBytes).To(Equal(10)) // the caller's policy is not changed
	})

	It("refuses a policy that does not validate before it creates anything, naming every problem on one line", func() {
		llm, _ := fakes.NewLLM(nil, fakes.Options{})
		p := session.DefaultPolicy()
		p.ContextFactor = 2
		p.RecoveryTools = append(p.RecoveryTools, "")
		_, err := session.Run(context.Background(), session.Options{LLM: llm, Tokenizer: tokens.Estimator{}, Sources: fakes.NewSources(),
			StoreBase: base, Policy: &p}, "go")
		Expect(err).To(MatchError("session: run: policy: context_factor: 2: must be 0 (no context rule) to 1; recovery_tools.2: a tool name is empty"))
		Expect(os.ReadDir(base)).To(BeEmpty())
		Expect(llm.Calls()).To(BeEmpty())
	})

	It("shows a recovery tool's oversized answer whole, and cuts one past the context left, never storing either", func() {
		page := strings.Repeat("ts=1 host=web-0 level=ERROR\n", 10) // 280 bytes, 70 tokens (estimator)
		llm, err := fakes.NewLLM([]fakes.Step{
			turn(1, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "Read", Args: map[string]any{"path": "x"}}}}),
			turn(2, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "Grep", Args: map[string]any{"pattern": "ERROR"}}}}),
			turn(3, fakes.Respond{Final: ptr("ok")}),
		}, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		var logs []string
		o := session.Options{LLM: llm, Tokenizer: tokens.Estimator{}, Sources: fakes.NewSources(), StoreBase: base,
			Tools: []agent.Tool{fixed("Read", page), fixed("Grep", page)}, MaxToolResponseBytes: 100, ContextWindow: 160, MaxTurns: 4,
			Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }}
		res, err := session.Run(context.Background(), o, "count errors")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Stored).To(BeEmpty())
		msgs := res.Messages
		Expect(msgs[3].Content).To(Equal(page)) // Read: 70 tokens fit the context left, over the byte cap
		Expect(msgs[5].Content).To(ContainSubstring("bytes truncated ...]"))
		Expect(len(msgs[5].Content)).To(BeNumerically("<", len(page)))
		Expect(logs).To(ContainElement(HavePrefix("session: kept the output of Read (exempt: recovery tool Read; bytes: 280 > cap 100, not stored)")))
		Expect(logs).To(ContainElement(MatchRegexp(`^session: cut \d+ of 280 bytes of the output of Grep \(exempt: recovery tool Grep; context: 70 tokens > 1 x remaining \d+ = \d+ tokens, cut in place to \d+ bytes\)$`)))
		Expect(llm.Check()).To(Succeed())
	})
})
