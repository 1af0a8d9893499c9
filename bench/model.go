package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/toolout/toolout/core"
)

// SiteMain is the tag site of the main model's calls when a model answers a
// comparison: the question asked of what reached the main context. Turn
// numbers the main model's calls within one strategy on one case.
const SiteMain = "bench.main"

// Model names who answered a comparison: the oracles (Oracle), or a model
// by its name and where it was reached. Tables, CSV, JSON and charts say
// which; a baseline is compared only with a run of the same model.
type Model struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

// Oracle is the Model of the oracles.
var Oracle = Model{Name: "oracle"}

// String is "oracle", or "NAME at URL".
func (m Model) String() string {
	if m.URL == "" {
		return m.Name
	}
	return m.Name + " at " + m.URL
}

// Same reports whether two runs had the same model: the oracles on both
// sides, or a model of the same name on both (wherever it was reached: a
// scripted server listens on a new port each time).
func (m Model) Same(o Model) bool { return m.Name == o.Name && (m.URL == "") == (o.URL == "") }

// strategyRun is one strategy on one case: the meter, and who answers.
type strategyRun struct {
	c    Case
	k    Knobs
	tk   core.Tokenizer
	base string
	m    *meter
	// model answers in place of the oracles; nil for the oracles.
	model core.LLM

	turn int               // main model calls so far
	args map[string]string // tool call ID -> arguments, for framing
	mu   sync.Mutex
	err  error // the first error of a sub-LLM call
}

// toolResult is a tool message of the main context: the output of a call
// of tool with args. The meter counts its content only, as it always has;
// the call itself is framing that a model's request needs, and ask writes
// it before the result.
func (x *strategyRun) toolResult(tool, args, content string) core.Message {
	if x.args == nil {
		x.args = map[string]string{}
	}
	id := fmt.Sprintf("call-%d", len(x.args)+1)
	x.args[id] = args
	return core.Message{Role: core.RoleTool, Content: content, Name: tool, ToolCallID: id}
}

// ask has the main model answer the question from what reached its context
// (req: the question, then tool results) and returns the facts of its
// answer. The oracle's answer is given: the facts it reads there. A
// model's is its reply, judged as the oracle's is (the whole facts it
// holds). answered says whether the answer's tokens are metered: they are
// where the oracles' always were (the answer after truncation, after
// compression, after the last page), not where the oracles answered
// nothing (a paging turn, the answer after tool_output), so that a model's
// table and the oracles' are metered alike.
func (x *strategyRun) ask(ctx context.Context, req core.Request, oracle []string, answered bool) ([]string, error) {
	if x.model == nil {
		text := ""
		if answered {
			text = answerOf(oracle)
		}
		x.m.charge(req, text)
		return oracle, nil
	}
	x.turn++
	wire := core.Request{Tag: core.Tag{Site: SiteMain, Turn: x.turn}, MaxOutputTokens: x.k.Extract.MaxOutputTokens}
	for _, msg := range req.Messages {
		if msg.Role == core.RoleTool {
			call := core.ToolCall{ID: msg.ToolCallID, Name: msg.Name, Arguments: json.RawMessage(x.args[msg.ToolCallID])}
			wire.Messages = append(wire.Messages, core.Message{Role: core.RoleAssistant, ToolCalls: []core.ToolCall{call}})
		}
		wire.Messages = append(wire.Messages, msg)
	}
	resp, err := x.model.Complete(ctx, wire)
	if err != nil {
		return nil, fmt.Errorf("model: %s: %w", wire.Tag, err)
	}
	text := ""
	if answered {
		text = resp.Text
		for _, tc := range resp.ToolCalls {
			text += string(tc.Arguments)
		}
	}
	x.m.charge(req, text)
	return facts(resp.Text), nil
}

// sub answers a call of the extractor (map, reduce, a read-grep turn):
// the oracle, or the model. A model error is kept, so that the comparison
// fails with it rather than with the extractor's fallback to truncation.
func (x *strategyRun) sub(ctx context.Context, req core.Request, oracle func(core.Request) core.Response) (core.Response, error) {
	if x.model == nil {
		return oracle(req), nil
	}
	resp, err := x.model.Complete(ctx, req)
	if err != nil {
		err = fmt.Errorf("model: %s: %w", req.Tag, err)
		x.mu.Lock()
		if x.err == nil {
			x.err = err
		}
		x.mu.Unlock()
	}
	return resp, err
}

// failed returns the first error of a sub-LLM call.
func (x *strategyRun) failed() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.err
}
