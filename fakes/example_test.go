package fakes_test

import (
	"context"
	"fmt"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
)

func ExampleNewLLM() {
	final := "web-0: 58"
	llm, err := fakes.NewLLM([]fakes.Step{
		{ID: "map-1", Match: fakes.Match{Tag: core.SiteExtractMap, Chunk: "1/1"}, Respond: fakes.Respond{Final: &final}},
	}, fakes.Options{})
	if err != nil {
		panic(err)
	}
	resp, err := llm.Complete(context.Background(), core.Request{
		Tag:      core.Tag{Site: core.SiteExtractMap, Chunk: 1, Chunks: 1},
		Messages: []core.Message{{Role: core.RoleSystem, Content: `Reply in <ai-agent-n1-FINAL format="text"> ... </ai-agent-n1-FINAL>`}},
	})
	fmt.Println(resp.Text, err, llm.Check())
	// Output: <ai-agent-n1-FINAL format="text">web-0: 58</ai-agent-n1-FINAL> <nil> <nil>
}
