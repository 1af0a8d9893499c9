package agent_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/agent"
	"github.com/toolout/toolout/core/finalreport"
)

// The loop runs the model's tool calls until it gives a final report with
// the run's nonce. Here a scripted model calls a tool on its first turn and
// reports what it saw on its second.
func ExampleRun() {
	const nonce = "0123456789abcdef"
	model := core.LLMFunc(func(_ context.Context, req core.Request) (core.Response, error) {
		if req.Tag.Turn == 1 {
			return core.Response{ToolCalls: []core.ToolCall{{ID: "c1", Name: "clock", Arguments: json.RawMessage(`{}`)}},
				FinishReason: core.FinishToolCalls}, nil
		}
		seen := req.Messages[len(req.Messages)-1].Content
		return core.Response{Text: finalreport.Wrap(nonce, "the clock says "+seen), FinishReason: core.FinishStop}, nil
	})
	clock := agent.Func{Desc: core.Tool{Name: "clock", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Fn: func(context.Context, json.RawMessage) (string, error) { return "10:42", nil }}
	res, err := agent.Run(context.Background(), agent.Options{
		LLM: model, Site: core.SiteSessionTurn, Nonce: nonce,
		Tools: func(int, bool) []agent.Tool { return []agent.Tool{clock} },
	}, "What time is it?")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Found, res.Turns, res.Report)
	// Output:
	// true 2 the clock says 10:42
}
