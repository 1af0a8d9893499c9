package openai

import (
	"encoding/json"
	"fmt"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/internal/wireparse"
	"github.com/toolout/toolout/core/jsonspan"
)

// chat is the subset of an OpenAI chat-completions request that maps to
// core.Request.
type chat struct {
	Model    string `json:"model,omitempty"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		Name       string          `json:"name,omitempty"`
		ToolCallID string          `json:"tool_call_id,omitempty"`
		ToolCalls  []ToolCall      `json:"tool_calls,omitempty"`
	} `json:"messages"`
	Tools []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			Parameters  json.RawMessage `json:"parameters,omitempty"`
		} `json:"function"`
	} `json:"tools,omitempty"`
	MaxTokens           int  `json:"max_tokens,omitempty"`
	MaxCompletionTokens int  `json:"max_completion_tokens,omitempty"`
	Stream              bool `json:"stream,omitempty"`
}

// ToolCall is a tool call of an assistant message as the chat-completions
// API writes it: {"id", "type": "function", "function": {"name",
// "arguments": a string of JSON}}. Traces in this format (toolout import)
// use it too.
type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// DecodeRequest maps an OpenAI chat-completions request body to a
// core.Request (with the given tag) and reports whether it asks to stream.
func DecodeRequest(body []byte, tag core.Tag) (core.Request, bool, error) {
	var c chat
	if err := json.Unmarshal(body, &c); err != nil {
		return core.Request{}, false, fmt.Errorf("openai: chat request: %w", jsonspan.TypeError(body, err))
	}
	req := core.Request{Tag: tag, MaxOutputTokens: max(c.MaxTokens, c.MaxCompletionTokens)}
	for _, m := range c.Messages {
		msg := core.Message{Role: core.Role(m.Role), ToolCallID: m.ToolCallID, Name: m.Name}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			msg.Content = s
		} else if root, err := jsonspan.Parse(m.Content); err == nil && m.Role == "tool" {
			msg.Content, _ = wireparse.ResultText(root, "text", "input_text") // as Wire reads it
		} else if err == nil {
			msg.Content = jsonspan.ContentText(root)
		}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, core.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)})
		}
		req.Messages = append(req.Messages, msg)
	}
	for _, t := range c.Tools {
		req.Tools = append(req.Tools, core.Tool{Name: t.Function.Name, Description: t.Function.Description, InputSchema: t.Function.Parameters})
	}
	return req, c.Stream, nil
}

// EncodeRequest maps a core.Request to an OpenAI chat-completions body.
func EncodeRequest(req core.Request, model string) []byte {
	type fn struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
	}
	type tool struct {
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}
	type msg struct {
		Role       string     `json:"role"`
		Content    *string    `json:"content"`
		ToolCallID string     `json:"tool_call_id,omitempty"`
		Name       string     `json:"name,omitempty"`
		ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	}
	out := struct {
		Model     string `json:"model,omitempty"`
		Messages  []msg  `json:"messages"`
		Tools     []tool `json:"tools,omitempty"`
		MaxTokens int    `json:"max_tokens,omitempty"`
	}{Model: model, MaxTokens: req.MaxOutputTokens}
	for _, m := range req.Messages {
		content := m.Content
		om := msg{Role: string(m.Role), Content: &content, ToolCallID: m.ToolCallID}
		if m.Role == core.RoleTool {
			om.Name = m.Name
		}
		for _, tc := range m.ToolCalls {
			var c ToolCall
			c.ID, c.Type, c.Function.Name, c.Function.Arguments = tc.ID, "function", tc.Name, string(tc.Arguments)
			om.ToolCalls = append(om.ToolCalls, c)
		}
		if len(om.ToolCalls) > 0 && content == "" {
			om.Content = nil
		}
		out.Messages = append(out.Messages, om)
	}
	for _, t := range req.Tools {
		out.Tools = append(out.Tools, tool{Type: "function", Function: fn{Name: t.Name, Description: t.Description, Parameters: t.InputSchema}})
	}
	data, _ := json.Marshal(out)
	return data
}

// EncodeResponse renders a core.Response as an OpenAI chat completion.
func EncodeResponse(resp core.Response, id, model string) []byte {
	type msg struct {
		Role      string     `json:"role"`
		Content   *string    `json:"content"`
		ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	}
	m := msg{Role: "assistant"}
	if resp.Text != "" || len(resp.ToolCalls) == 0 {
		text := resp.Text
		m.Content = &text
	}
	for _, tc := range resp.ToolCalls {
		var c ToolCall
		c.ID, c.Type, c.Function.Name, c.Function.Arguments = tc.ID, "function", tc.Name, string(tc.Arguments)
		m.ToolCalls = append(m.ToolCalls, c)
	}
	finish := resp.FinishReason
	if finish == "" {
		finish = core.FinishStop
		if len(resp.ToolCalls) > 0 {
			finish = core.FinishToolCalls
		}
	}
	out := map[string]any{
		"id": id, "object": "chat.completion", "model": model,
		"choices": []any{map[string]any{"index": 0, "message": m, "finish_reason": finish}},
		"usage":   map[string]int{"prompt_tokens": resp.Usage.InputTokens, "completion_tokens": resp.Usage.OutputTokens, "total_tokens": resp.Usage.InputTokens + resp.Usage.OutputTokens},
	}
	data, _ := json.Marshal(out)
	return data
}

// DecodeResponse maps an OpenAI chat completion to a core.Response.
func DecodeResponse(body []byte) (core.Response, error) {
	var c struct {
		Choices []struct {
			Message *struct {
				Content   *string    `json:"content"`
				ToolCalls []ToolCall `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(body, &c); err != nil {
		return core.Response{}, fmt.Errorf("openai: chat response: %w", jsonspan.TypeError(body, err))
	}
	if len(c.Choices) == 0 {
		return core.Response{}, fmt.Errorf("openai: chat response: no choices")
	}
	ch := c.Choices[0]
	if ch.Message == nil { // a broken server, not an empty answer
		return core.Response{}, fmt.Errorf("openai: chat response: choices[0] has no message")
	}
	resp := core.Response{FinishReason: ch.FinishReason, Usage: core.Usage{InputTokens: c.Usage.PromptTokens, OutputTokens: c.Usage.CompletionTokens}}
	if ch.Message.Content != nil {
		resp.Text = *ch.Message.Content
	}
	for _, tc := range ch.Message.ToolCalls {
		resp.ToolCalls = append(resp.ToolCalls, core.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)})
	}
	return resp, nil
}
