package llmtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/internal/llmtest"
)

func TestWellFormed(t *testing.T) {
	call := func(id, name, args string) core.Response {
		return core.Response{ToolCalls: []core.ToolCall{{ID: id, Name: name, Arguments: json.RawMessage(args)}}}
	}
	for _, c := range []struct {
		name string
		resp core.Response
		want string // "" for well formed
	}{
		{"text", core.Response{Text: "hi", FinishReason: core.FinishStop}, ""},
		{"a tool call", call("c1", "f", `{"a":1}`), ""},
		{"no id", call("", "f", `{}`), `tool call 1 ("f") has no ID`},
		{"no name", call("c1", "", `{}`), "tool call 1 (c1) has no name"},
		{"array arguments", call("c1", "f", `[1]`), `tool call 1 (c1 f): arguments "[1]" are not a JSON object`},
		{"null arguments", call("c1", "f", `null`), `tool call 1 (c1 f): arguments "null" are not a JSON object`},
		{"broken arguments", call("c1", "f", `{"a"`), `tool call 1 (c1 f): arguments "{\"a\"" are not a JSON object`},
		{"unknown finish", core.Response{FinishReason: "eos"}, `finish reason "eos": want stop, tool_calls, length or none`},
		{"negative usage", core.Response{Usage: core.Usage{InputTokens: -1}}, "negative token counts (-1 in, 0 out)"},
	} {
		err := llmtest.WellFormed(c.resp)
		if got := fmt.Sprint(err); (c.want == "" && err != nil) || (c.want != "" && got != c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestLLM names each property an implementation breaks.
func TestTestLLMFindsBreaches(t *testing.T) {
	req := core.Request{Tag: core.Tag{Site: core.SiteSessionTurn}}
	honest := func(ctx context.Context) error { return ctx.Err() }
	for _, c := range []struct {
		name string
		llm  core.LLM
		want []string
	}{
		{"wrong error", core.LLMFunc(func(ctx context.Context, _ core.Request) (core.Response, error) {
			if ctx.Err() != nil {
				return core.Response{}, fmt.Errorf("gave up")
			}
			return core.Response{}, nil
		}), []string{`a request cancelled failed with "gave up"`, `a request past its deadline failed with "gave up"`}},
		{"panics", core.LLMFunc(func(ctx context.Context, _ core.Request) (core.Response, error) {
			if err := honest(ctx); err != nil {
				return core.Response{}, err
			}
			panic("boom")
		}), []string{"concurrent request 1: panic: boom"}},
		{"bad answer", core.LLMFunc(func(ctx context.Context, _ core.Request) (core.Response, error) {
			if err := honest(ctx); err != nil {
				return core.Response{}, err
			}
			return core.Response{ToolCalls: []core.ToolCall{{Name: "f", Arguments: json.RawMessage(`{}`)}}}, nil
		}), []string{`concurrent request 8 of 8: tool call 1 ("f") has no ID`}},
	} {
		err := llmtest.TestLLM(c.llm, req)
		if err == nil {
			t.Errorf("%s: no breach found", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
	}
}
