package responses

import (
	"bytes"
	"encoding/json"

	"github.com/toolout/toolout/core"
)

// marshal encodes v without HTML escaping, without the encoder's newline.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// EncodeRequest maps a core.Request to a Responses API body: every
// message is an input item in its place (system messages as role
// "system" messages, not "instructions"), an assistant's tool calls
// function_call or custom_tool_call items after its message (left out
// when its text is empty and the message before is not the assistant's),
// a tool message a function_call_output or custom_tool_call_output item
// (as the call it answers was), and tools function or custom tools.
// [DecodeRequest] reads it back to the same request, but for a tool
// message's Name when no call in the request has its ToolCallID.
func EncodeRequest(req core.Request, model string) []byte {
	type item struct {
		Type      string  `json:"type"`
		Role      string  `json:"role,omitempty"`
		Content   *string `json:"content,omitempty"`
		CallID    *string `json:"call_id,omitempty"`
		Name      *string `json:"name,omitempty"`
		Arguments *string `json:"arguments,omitempty"`
		Input     *string `json:"input,omitempty"`
		Output    *string `json:"output,omitempty"`
	}
	type tool struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
	}
	out := struct {
		Model           string `json:"model,omitempty"`
		Input           []item `json:"input"`
		Tools           []tool `json:"tools,omitempty"`
		MaxOutputTokens int    `json:"max_output_tokens,omitempty"`
	}{Model: model, Input: []item{}, MaxOutputTokens: req.MaxOutputTokens}
	custom := map[string]bool{}
	for i, m := range req.Messages {
		content := m.Content
		switch {
		case m.Role == core.RoleTool:
			typ := TypeFunctionCallOutput
			if custom[m.ToolCallID] {
				typ = TypeCustomToolCallOutput
			}
			out.Input = append(out.Input, item{Type: typ, CallID: &m.ToolCallID, Output: &content})
			continue
		case m.Role != core.RoleAssistant || content != "" || len(m.ToolCalls) == 0 ||
			i > 0 && req.Messages[i-1].Role == core.RoleAssistant:
			out.Input = append(out.Input, item{Type: TypeMessage, Role: string(m.Role), Content: &content})
		}
		for _, tc := range m.ToolCalls {
			it := item{Type: TypeFunctionCall, CallID: &tc.ID, Name: &tc.Name}
			text := string(tc.Arguments)
			if tc.Custom {
				custom[tc.ID] = true
				it.Type, text = TypeCustomToolCall, customInput(tc.Arguments)
				it.Input = &text
			} else {
				it.Arguments = &text
			}
			out.Input = append(out.Input, it)
		}
	}
	for _, t := range req.Tools {
		if t.Custom {
			out.Tools = append(out.Tools, tool{Type: "custom", Name: t.Name, Description: t.Description})
			continue
		}
		out.Tools = append(out.Tools, tool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.InputSchema})
	}
	return marshal(out)
}

// customInput returns the free text of a custom tool call's Arguments:
// the string a JSON string holds, else the bytes as they are.
func customInput(args json.RawMessage) string {
	var s string
	if json.Unmarshal(args, &s) == nil {
		return s
	}
	return string(args)
}
