package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core"
)

// The OpenAI chat-completions stream: server-sent chunks of deltas.

// assembleStream rebuilds a chat completion from server-sent chunks. A
// stream that ends before a finish_reason or [DONE] was cut, and is an
// error: a partial answer must not pass for a whole one.
func assembleStream(raw []byte) ([]byte, error) {
	type delta struct {
		Content   string `json:"content"`
		ToolCalls []struct {
			Index    int    `json:"index"`
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	}
	var resp core.Response
	var text strings.Builder
	calls := map[int]*core.ToolCall{}
	args := map[int]*strings.Builder{}
	order := []int{}
	ended := false // a finish_reason or [DONE] was seen: the stream was not cut
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 64<<10), len(raw)+1)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			ended = true
		}
		if !ok || data == "" || data == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta        delta   `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return nil, fmt.Errorf("openai: stream chunk: %w", err)
		}
		for _, ch := range chunk.Choices {
			text.WriteString(ch.Delta.Content)
			for _, tc := range ch.Delta.ToolCalls {
				c, ok := calls[tc.Index]
				if !ok {
					c = &core.ToolCall{}
					calls[tc.Index], args[tc.Index] = c, &strings.Builder{}
					order = append(order, tc.Index)
				}
				if tc.ID != "" {
					c.ID = tc.ID
				}
				// A name may come in pieces (joined) or whole in every
				// chunk (kept once): "expand_" then "context" must read as
				// the phantom tool, or its call would reach the client.
				if n := tc.Function.Name; n != "" && n != c.Name {
					c.Name += n
				}
				args[tc.Index].WriteString(tc.Function.Arguments)
			}
			if ch.FinishReason != nil {
				resp.FinishReason, ended = *ch.FinishReason, true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("openai: stream: %w", err)
	}
	if !ended {
		return nil, errors.New("openai: stream: ended before a finish_reason or [DONE] (cut)")
	}
	resp.Text = text.String()
	for _, i := range order {
		c := calls[i]
		c.Arguments = json.RawMessage(args[i].String())
		resp.ToolCalls = append(resp.ToolCalls, *c)
	}
	return EncodeResponse(resp, "stream", ""), nil
}

// chunkOf renders a chat completion as a one-chunk event stream.
func chunkOf(completion []byte) []byte {
	resp, err := DecodeResponse(completion)
	if err != nil {
		return []byte("data: [DONE]\n\n")
	}
	type call struct {
		Index    int    `json:"index"`
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	d := map[string]any{"role": "assistant", "content": resp.Text}
	var calls []call
	for i, tc := range resp.ToolCalls {
		c := call{Index: i, ID: tc.ID, Type: "function"}
		c.Function.Name, c.Function.Arguments = tc.Name, string(tc.Arguments)
		calls = append(calls, c)
	}
	if len(calls) > 0 {
		d["tool_calls"] = calls
	}
	chunk, _ := json.Marshal(map[string]any{"object": "chat.completion.chunk",
		"choices": []any{map[string]any{"index": 0, "delta": d, "finish_reason": resp.FinishReason}}})
	return []byte("data: " + string(chunk) + "\n\ndata: [DONE]\n\n")
}
