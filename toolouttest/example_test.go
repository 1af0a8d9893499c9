package toolouttest_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/toolouttest"
)

// Run a folder of scenarios as subtests, each compared with its golden
// file. In a module's own tests this is the whole test function:
//
//	func TestScenarios(t *testing.T) { toolouttest.Run(t, "testdata/scenarios") }
func ExampleRun() {
	passed := runAsTest("TestScenarios", func(t *testing.T) {
		toolouttest.Run(t, "testdata/scenarios")
	})
	fmt.Println("passed:", passed)
	// Output:
	// passed: true
}

// Check an LLM implementation from its own tests. This one answers with a
// tool call but ignores its context, which the check reports.
func ExampleTestLLM() {
	careless := core.LLMFunc(func(context.Context, core.Request) (core.Response, error) {
		return core.Response{ToolCalls: []core.ToolCall{{ID: "c1", Name: "search", Arguments: json.RawMessage(`{"q":"x"}`)}},
			FinishReason: core.FinishToolCalls}, nil
	})
	req := core.Request{Tag: core.Tag{Site: core.SiteSessionTurn, Turn: 1}, Messages: []core.Message{{Role: core.RoleUser, Content: "hi"}}}
	fmt.Println(toolouttest.TestLLM(careless, req))

	careful := core.LLMFunc(func(ctx context.Context, _ core.Request) (core.Response, error) {
		if err := ctx.Err(); err != nil {
			return core.Response{}, err
		}
		return core.Response{Text: "hello", FinishReason: core.FinishStop}, nil
	})
	fmt.Println(toolouttest.TestLLM(careful, req))
	// Output:
	// llmtest: a request cancelled was answered (""): want an error wrapping context canceled
	// llmtest: a request past its deadline was answered (""): want an error wrapping context deadline exceeded
	// <nil>
}

// The same check with one subtest per property, each on an LLM of its own.
func ExampleCheckLLM() {
	passed := runAsTest("TestMyLLM", func(t *testing.T) {
		toolouttest.CheckLLM(t, func(*testing.T) core.LLM {
			return core.LLMFunc(func(ctx context.Context, _ core.Request) (core.Response, error) {
				if err := ctx.Err(); err != nil {
					return core.Response{}, err
				}
				return core.Response{Text: "hello", FinishReason: core.FinishStop}, nil
			})
		}, core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "hi"}}})
	})
	fmt.Println("passed:", passed)
	// Output:
	// passed: true
}

// Check a store backend against the gateway.Store contract; here toolout's
// in-memory one, which keeps it.
func ExampleTestStore() {
	err := toolouttest.TestStore(func(opts gateway.StoreOptions) gateway.Store { return memstore.New(opts) })
	fmt.Println(err)
	// Output:
	// <nil>
}

// The same check with one subtest per case of the contract.
func ExampleCheckStore() {
	passed := runAsTest("TestMyStore", func(t *testing.T) {
		toolouttest.CheckStore(t, func(_ *testing.T, opts gateway.StoreOptions) gateway.Store { return memstore.New(opts) })
	})
	fmt.Println("passed:", passed)
	// Output:
	// passed: true
}

// Serve a scenario's scripted model to an agent under test; here the agent
// is two raw requests on the OpenAI Chat Completions wire: the first turn
// gets the scripted tool call, the second, carrying its result, the final
// answer. The server checks at the end of the test that every step was used.
func ExampleServe() {
	passed := runAsTest("TestAgent", func(t *testing.T) {
		srv := toolouttest.Serve(t, "testdata/scenarios/session/over-cap-handle.yaml")
		first := chat(t, srv.OpenAIBaseURL, `[{"role":"user","content":"Count ERROR lines per host."}]`)
		fmt.Println(first)
		second := chat(t, srv.OpenAIBaseURL, `[{"role":"user","content":"Count ERROR lines per host."},`+
			`{"role":"assistant","content":null,"tool_calls":[{"id":"call-1","type":"function","function":{"name":"logs__query","arguments":"{}"}}]},`+
			`{"role":"tool","tool_call_id":"call-1","content":"Tool output is too large"}]`)
		fmt.Println(second)
		for _, c := range srv.Calls() {
			fmt.Println(c.Step, c.Request.Tag, len(c.Request.Messages), "messages")
		}
	})
	fmt.Println("passed:", passed)
	// Output:
	// tool_calls logs__query {"since":"1h"}
	// stop Stored; will extract next.
	// query session.turn turn=1 1 messages
	// answer session.turn turn=2 3 messages
	// passed: true
}

// chat posts messages to base/chat/completions and returns the finish
// reason with the answer's text or its first tool call.
func chat(t *testing.T, base, messages string) string {
	resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"model":"any","messages":`+messages+`}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct {
		Choices []struct {
			Message struct {
				Content   string
				ToolCalls []struct {
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
			FinishReason string `json:"finish_reason"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || len(c.Choices) == 0 {
		t.Fatalf("status %d: %v", resp.StatusCode, err)
	}
	m := c.Choices[0].Message
	if len(m.ToolCalls) > 0 {
		return c.Choices[0].FinishReason + " " + m.ToolCalls[0].Function.Name + " " + m.ToolCalls[0].Function.Arguments
	}
	return c.Choices[0].FinishReason + " " + m.Content
}

// runAsTest runs f as go test runs a test function of a user's module and
// reports whether it passed: only so that these examples run, an Example
// having no *testing.T. It turns -v off while f runs (go test -json sets
// it), whose "=== RUN" lines would be read as the example's output, and
// -run, which names the example, not f.
func runAsTest(name string, f func(*testing.T)) bool {
	for _, fl := range []struct{ name, value string }{{"test.v", "false"}, {"test.run", ""}} {
		old := flag.Lookup(fl.name).Value.String()
		if err := flag.Set(fl.name, fl.value); err != nil {
			panic(err)
		}
		defer flag.Set(fl.name, old)
	}
	return testing.RunTests(func(_, _ string) (bool, error) { return true, nil }, []testing.InternalTest{{Name: name, F: f}})
}
