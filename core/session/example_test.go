package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/agent"
	"github.com/toolout/toolout/core/finalreport"
	"github.com/toolout/toolout/core/session"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// A session stores a tool result over the byte cap and shows the model the
// spec's handle message instead; the store is gone when Run returns.
func ExampleRun() {
	const nonce = "0123456789abcdef"
	n := 0
	src := core.Sources{Nonce: func() string { return nonce },
		NewID: func() string { n++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }}
	model := core.LLMFunc(func(_ context.Context, req core.Request) (core.Response, error) {
		if req.Tag.Turn == 1 {
			return core.Response{ToolCalls: []core.ToolCall{{ID: "c1", Name: "logs__query", Arguments: json.RawMessage(`{"since":"1h"}`)}}}, nil
		}
		seen := req.Messages[len(req.Messages)-1].Content
		return core.Response{Text: finalreport.Wrap(nonce, strings.SplitN(seen, "\n", 2)[0])}, nil
	})
	logs := agent.Func{Desc: core.Tool{Name: "logs__query", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Fn: func(context.Context, json.RawMessage) (string, error) {
			return strings.Repeat("GET /api/orders 200\n", 100), nil
		}}
	base, err := os.MkdirTemp("", "session-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(base)
	res, err := session.Run(context.Background(), session.Options{LLM: model, Tokenizer: tokens.MustNew(tokens.CL100K),
		Sources: src, Tools: []agent.Tool{logs}, StoreBase: base, MaxToolResponseBytes: 1000}, "How many requests failed?")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Report)
	fmt.Println(len(res.Stored), res.Stored[0].Handle)
	_, err = os.Stat(res.Dir)
	fmt.Println(os.IsNotExist(err))
	// Output:
	// Tool output is too large (2000 bytes, 101 lines, 700 tokens).
	// 1 00000000-0000-4000-8000-000000000002
	// true
}

// The policy stores an output over the smaller of its two limits, names the
// rule with its numbers, and never stores a recovery tool's answer: it cuts
// one that does not fit the context left instead.
func ExamplePolicy_Decide() {
	p := session.DefaultPolicy() // 12 KiB cap, k = 1, Read and Grep exempt
	p.MaxBytes, p.ContextFactor = 40_000, 0.5
	p.Tools = map[string]session.ToolPolicy{"screenshot": {NeverStore: true}}
	out := store.Stats{Bytes: 52_000, Tokens: 13_000}
	for _, c := range []struct {
		tool      string
		remaining int
	}{{"logs__query", 100_000}, {"logs__query", 9_000}, {"Read", 100_000}, {"Read", 9_000}, {"screenshot", 100_000}} {
		d := p.Decide(c.tool, out, c.remaining)
		fmt.Printf("store=%v cut=%v: %s\n", d.Store, d.Cut, d.Reason)
	}
	// Output:
	// store=true cut=false: bytes: 52000 > cap 40000
	// store=true cut=false: context: 13000 tokens > 0.5 x remaining 9000 = 4500 tokens
	// store=false cut=false: exempt: recovery tool Read; bytes: 52000 > cap 40000, not stored
	// store=false cut=true: exempt: recovery tool Read; context: 13000 tokens > 0.5 x remaining 9000 = 4500 tokens, cut in place to 18000 bytes
	// store=false cut=false: exempt: never_store for screenshot; bytes: 52000 > cap 40000, not stored
}
