package components

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/harness"
)

// llm component: sends the listed requests to the scripted LLM and records the
// replies. It exercises the fake itself and the harness's strictness.
//
//	component: llm
//	input:
//	  parallel: true          # send all requests at once
//	  requests:
//	    - {tag: extract.map, chunk: 1/2, system: "...", user: "..."}
//	expect:
//	  replies: [{text: "...", error: "substring"}]
type llmInput struct {
	Parallel bool         `yaml:"parallel"`
	Requests []llmRequest `yaml:"requests"`
}

type llmRequest struct {
	Tag             string `yaml:"tag"`
	Chunk           string `yaml:"chunk"`
	Turn            int    `yaml:"turn"`
	System          string `yaml:"system"`
	User            string `yaml:"user"`
	MaxOutputTokens int    `yaml:"max_output_tokens"`
}

func (r llmRequest) Validate() error {
	if r.Tag == "" {
		return errors.New("tag is required")
	}
	if r.Chunk != "" {
		return fakes.Match{Chunk: r.Chunk}.Validate()
	}
	return nil
}

func (r llmRequest) request() core.Request {
	req := core.Request{Tag: core.Tag{Site: r.Tag, Turn: r.Turn}, MaxOutputTokens: r.MaxOutputTokens}
	if r.Chunk != "" {
		fmt.Sscanf(r.Chunk, "%d/%d", &req.Tag.Chunk, &req.Tag.Chunks)
	}
	if r.System != "" {
		req.Messages = append(req.Messages, core.Message{Role: core.RoleSystem, Content: r.System})
	}
	if r.User != "" {
		req.Messages = append(req.Messages, core.Message{Role: core.RoleUser, Content: r.User})
	}
	return req
}

type llmReply struct {
	Tag       string        `json:"tag"`
	Text      string        `json:"text,omitempty"`
	ToolCalls []llmToolCall `json:"tool_calls,omitempty"`
	Error     string        `json:"error,omitempty"`
}

// String renders the reply for a message: its tag, then its error or its
// text and tool calls.
func (r llmReply) String() string {
	if r.Error != "" {
		return r.Tag + " error: " + r.Error
	}
	s := r.Tag + " " + r.Text
	for _, c := range r.ToolCalls {
		s += " tool_call " + c.Name + " " + c.Arguments
	}
	return s
}

// llmToolCall shows arguments as the string the model sent, valid JSON or not.
type llmToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type llmExpect struct {
	Replies []struct {
		Text  *string `yaml:"text"`
		Error *string `yaml:"error"`
	} `yaml:"replies"`
}

func registerLLM(reg *harness.Registry) {
	harness.Register(reg, harness.Spec[struct{}, llmInput, llmExpect, []llmReply]{
		Name: "llm",
		Doc:  "sends input.requests to the scripted LLM and records the replies",
		LLM:  true,
		Run: func(ctx context.Context, env *harness.Env, _ *struct{}, in *llmInput) ([]llmReply, error) {
			out := make([]llmReply, len(in.Requests))
			send := func(i int) {
				req := in.Requests[i].request()
				resp, err := env.Model().Complete(ctx, req)
				out[i] = llmReply{Tag: req.Tag.String(), Text: resp.Text}
				for _, c := range resp.ToolCalls {
					out[i].ToolCalls = append(out[i].ToolCalls, llmToolCall{c.ID, c.Name, string(c.Arguments)})
				}
				if err != nil {
					out[i].Error = err.Error()
				}
			}
			if !in.Parallel {
				for i := range in.Requests {
					send(i)
				}
				return out, nil
			}
			var wg sync.WaitGroup
			for i := range in.Requests {
				wg.Go(func() { send(i) })
			}
			wg.Wait()
			return out, nil
		},
		Check: func(exp *llmExpect, got []llmReply) []harness.Mismatch {
			var out []harness.Mismatch
			if exp.Replies != nil && len(exp.Replies) != len(got) {
				var replies []string
				for _, r := range got {
					replies = append(replies, r.String())
				}
				return []harness.Mismatch{{Field: "replies", Msg: fmt.Sprintf("got %d replies, want %d; %s", len(got), len(exp.Replies), harness.Found("replies", replies))}}
			}
			for i, r := range exp.Replies {
				if r.Text != nil && *r.Text != got[i].Text {
					out = append(out, harness.Mismatch{Field: "replies", Msg: fmt.Sprintf("[%d].text: got %s, want %s", i, harness.Show(got[i].Text), harness.Show(*r.Text))})
				}
				if r.Error != nil && !strings.Contains(got[i].Error, *r.Error) {
					out = append(out, harness.Mismatch{Field: "replies", Msg: fmt.Sprintf("[%d].error: got %s, want it to contain %q", i, harness.Show(got[i].Error), *r.Error)})
				}
			}
			return out
		},
	})
}
