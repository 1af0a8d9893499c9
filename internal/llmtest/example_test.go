package llmtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/internal/llmtest"
)

// Check an LLM implementation from its own tests. This one answers with a
// tool call but ignores its context, which the check reports.
func ExampleTestLLM() {
	careless := core.LLMFunc(func(context.Context, core.Request) (core.Response, error) {
		return core.Response{ToolCalls: []core.ToolCall{{ID: "c1", Name: "search", Arguments: json.RawMessage(`{"q":"x"}`)}},
			FinishReason: core.FinishToolCalls}, nil
	})
	req := core.Request{Tag: core.Tag{Site: core.SiteSessionTurn, Turn: 1}, Messages: []core.Message{{Role: core.RoleUser, Content: "hi"}}}
	err := llmtest.TestLLM(careless, req)
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Println(line)
	}

	careful := core.LLMFunc(func(ctx context.Context, _ core.Request) (core.Response, error) {
		if err := ctx.Err(); err != nil {
			return core.Response{}, err
		}
		return core.Response{Text: "hello", FinishReason: core.FinishStop}, nil
	})
	fmt.Println(llmtest.TestLLM(careful, req))
	// Output:
	// llmtest: a request cancelled was answered (""): want an error wrapping context canceled
	// llmtest: a request past its deadline was answered (""): want an error wrapping context deadline exceeded
	// <nil>
}
