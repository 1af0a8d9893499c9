package core_test

import (
	"context"
	"fmt"

	"github.com/toolout/toolout/core"
)

// A core.LLM from a function: the seam every component calls, and what the
// fakes and the provider clients implement.
func ExampleLLMFunc() {
	var llm core.LLM = core.LLMFunc(func(_ context.Context, req core.Request) (core.Response, error) {
		last := req.Messages[len(req.Messages)-1]
		return core.Response{Text: "you said: " + last.Content, FinishReason: core.FinishStop}, nil
	})
	resp, err := llm.Complete(context.Background(), core.Request{
		Tag:      core.Tag{Site: core.SiteExtractMap, Chunk: 2, Chunks: 5},
		Messages: []core.Message{{Role: core.RoleUser, Content: "hello"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Text)
	fmt.Println(core.Tag{Site: core.SiteExtractMap, Chunk: 2, Chunks: 5})
	// Output:
	// you said: hello
	// extract.map chunk=2/5
}

// Sources make a component deterministic: scenarios and tests pass their own
// ids, nonces and clock; nil fields mean the production defaults.
func ExampleSources() {
	n := 0
	src := core.Sources{NewID: func() string { n++; return fmt.Sprintf("id-%d", n) }, Nonce: func() string { return "0123456789abcdef" }}
	fmt.Println(src.ID(), src.ID(), src.NewNonce())
	fmt.Println(len(core.Sources{}.NewNonce()), len(core.Sources{}.ID()))
	// Output:
	// id-1 id-2 0123456789abcdef
	// 16 36
}
