package fakes_test

import (
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/internal/llmtest"
)

// The scripted fake keeps the core.LLM contract: concurrent use, ended
// contexts refused without using a step, well-formed answers.
func TestLLMKeepsTheContract(t *testing.T) {
	text := "calling"
	l, err := fakes.NewLLM([]fakes.Step{{
		ID: "search", Match: fakes.Match{Tag: core.SiteSessionTurn}, Times: llmtest.Calls,
		Respond: fakes.Respond{Text: &text, ToolCalls: []fakes.CallSpec{{Name: "search", Args: map[string]any{"q": "x"}}}},
	}}, fakes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	req := core.Request{Tag: core.Tag{Site: core.SiteSessionTurn, Turn: 1}, Messages: []core.Message{{Role: core.RoleUser, Content: "find x"}}}
	if err := llmtest.TestLLM(l, req); err != nil {
		t.Fatal(err)
	}
	if u := l.Unused(); len(u) != 0 {
		t.Fatalf("steps left unused: %v", u)
	}
}
