package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/agent"
	"github.com/toolout/toolout/fakes"
)

func ptr(s string) *string { return &s }

func step(turn int, r fakes.Respond) fakes.Step {
	return fakes.Step{Match: fakes.Match{Tag: core.SiteSessionTurn, Turn: turn}, Respond: r}
}

// echoTool answers "ran NAME ARGS".
func echoTool(name string) agent.Tool {
	return agent.Func{Desc: core.Tool{Name: name}, Fn: func(_ context.Context, args json.RawMessage) (string, error) {
		if name == "broken" {
			return "", errors.New("disk full")
		}
		return fmt.Sprintf("ran %s %s", name, args), nil
	}}
}

var _ = Describe("Run", func() {
	var logs []string
	opts := func(llm core.LLM) agent.Options {
		logs = nil
		return agent.Options{
			LLM: llm, Site: core.SiteSessionTurn, Nonce: "n1", MaxTurns: 3,
			System: `Answer in <ai-agent-n1-FINAL format="text"> ... </ai-agent-n1-FINAL>`,
			Tools:  func(int, bool) []agent.Tool { return []agent.Tool{echoTool("logs"), echoTool("broken")} },
			Logf:   func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) },
		}
	}
	newLLM := func(steps ...fakes.Step) *fakes.LLM {
		l, err := fakes.NewLLM(steps, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		return l
	}
	toolResults := func(msgs []core.Message) []string {
		var out []string
		for _, m := range msgs {
			if m.Role == core.RoleTool {
				out = append(out, m.Content)
			}
		}
		return out
	}

	It("runs native calls, then ends on the final report", func() {
		llm := newLLM(
			step(1, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs", Args: map[string]any{"since": "1h"}}, {Name: "nope"}, {Name: "broken"}}}),
			step(2, fakes.Respond{Final: ptr("58 errors")}),
		)
		res, err := agent.Run(context.Background(), opts(llm), "count errors")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Found).To(BeTrue())
		Expect(res.Report).To(Equal("58 errors"))
		Expect(res.Turns).To(Equal(2))
		Expect(toolResults(res.Messages)).To(Equal([]string{`ran logs {"since":"1h"}`, `Tool error: unknown tool "nope".`, "Tool error: disk full"}))
		Expect(llm.Check()).To(Succeed())
	})

	It("executes leaked calls through the single hook, with no TURN-FAILED", func() {
		llm := newLLM(
			step(1, fakes.Respond{Text: ptr("Checking.\n<tools>{\"name\": \"logs\", \"arguments\": {\"q\": \"</tools>\"}}</tools>\n<tools>{\"name\": \"unknown_tool\"}</tools>")}),
			step(2, fakes.Respond{Final: ptr("done")}),
		)
		res, err := agent.Run(context.Background(), opts(llm), "go")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Found).To(BeTrue())
		Expect(toolResults(res.Messages)).To(Equal([]string{`ran logs {"q":"</tools>"}`, `Tool error: unknown tool "unknown_tool".`}))
		Expect(res.Messages[2].Content).To(Equal("Checking."))
		for _, m := range res.Messages {
			Expect(m.Content).NotTo(HavePrefix("TURN-FAILED"))
		}
		Expect(logs).To(ContainElement(ContainSubstring("leaked tool calls: 2 extracted, patterns [<tools>]")))
	})

	It("sends the exact TURN-FAILED message and retries the same turn", func() {
		llm := newLLM(
			fakes.Step{ID: "chatty", Match: fakes.Match{Turn: 1}, Respond: fakes.Respond{Text: ptr("I think the answer is 58.")}},
			fakes.Step{ID: "fixed", Match: fakes.Match{Turn: 1, User: []string{"TURN-FAILED"}}, Respond: fakes.Respond{Final: ptr("58")}},
		)
		res, err := agent.Run(context.Background(), opts(llm), "count")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Report).To(Equal("58"))
		Expect(res.Turns).To(Equal(1))
		Expect(res.Messages[3]).To(Equal(core.Message{Role: core.RoleUser, Content: agent.TurnFailedNoToolsNoReport}))
		Expect(llm.Check()).To(Succeed())
	})

	It("gives a synthetic result when the turns run out", func() {
		o := opts(newLLM(fakes.Step{Match: fakes.Match{Tag: core.SiteSessionTurn}, Times: 3, Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs"}}}}))
		res, err := agent.Run(context.Background(), o, "loop")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Synthetic).To(BeTrue())
		Expect(res.Found).To(BeFalse())
		Expect(res.Turns).To(Equal(3))
	})

	It("stops a turn after its retries and bounds calls per turn", func() {
		o := opts(newLLM(
			fakes.Step{Match: fakes.Match{Turn: 1}, Times: 3, Respond: fakes.Respond{Text: ptr("")}},
			step(2, fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs"}, {Name: "logs"}, {Name: "logs"}}}),
			step(3, fakes.Respond{Final: ptr("ok")}),
		))
		o.MaxToolCallsPerTurn = 2
		res, err := agent.Run(context.Background(), o, "x")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Found).To(BeTrue())
		Expect(res.Messages).To(ContainElement(core.Message{Role: core.RoleUser, Content: agent.TurnFailedEmpty}))
		Expect(toolResults(res.Messages)).To(Equal([]string{"ran logs {}", "ran logs {}", "Tool error: not run, more than 2 tool calls in one turn."}))
	})

	It("returns an LLM error with its turn", func() {
		o := opts(newLLM(step(1, fakes.Respond{Error: &fakes.ErrorSpec{Kind: fakes.ErrorTimeout}})))
		_, err := agent.Run(context.Background(), o, "x")
		Expect(err).To(MatchError(context.DeadlineExceeded))
		Expect(err.Error()).To(HavePrefix("agent: turn 1: "))
	})

	It("offers the turn's tools and tells the last turn it is final", func() {
		var seen []string
		o := opts(newLLM(fakes.Step{Match: fakes.Match{Tag: core.SiteSessionTurn}, Times: 3, Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "logs"}}}}))
		o.Tools = func(turn int, final bool) []agent.Tool {
			seen = append(seen, fmt.Sprintf("%d:%v", turn, final))
			return []agent.Tool{echoTool("logs")}
		}
		_, err := agent.Run(context.Background(), o, "x")
		Expect(err).NotTo(HaveOccurred())
		Expect(seen).To(Equal([]string{"1:false", "2:false", "3:true"}))
	})
})
