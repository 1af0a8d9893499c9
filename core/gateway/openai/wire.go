package openai

import (
	"strings"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/internal/wireparse"
	"github.com/toolout/toolout/core/jsonspan"
)

// Path is the chat-completions endpoint.
const Path = "/v1/chat/completions"

// Wire is the chat-completions gateway.Wire.
type Wire struct{}

var _ gateway.Wire = Wire{}

// Name returns "openai".
func (Wire) Name() string { return "openai" }

// Path returns "/v1/chat/completions".
func (Wire) Path() string { return Path }

// expandTool is the expand_context tool as a chat-completions function.
var expandTool = []byte(`{"type":"function","function":{"name":"expand_context","description":` +
	string(jsonspan.String(gateway.ExpandToolDescription)) + `,"parameters":` + gateway.ExpandParams + `}}`)

// Read parses a chat-completions request once: its role "tool" messages
// (named by the assistant tool call they answer, else by "name"; their
// text parts concatenated as sent, a list with another part left out),
// the text of the last user message that has text, and "stream".
func (w Wire) Read(body []byte) (*gateway.Conversation, error) {
	return w.ReadBounded(body, gateway.Bounds{})
}

// ReadBounded is Read within JSON bounds (gateway.ParseObjectBounded).
func (w Wire) ReadBounded(body []byte, b gateway.Bounds) (*gateway.Conversation, error) {
	return wireparse.ReadConversation(body, "openai request", b, expandTool, w.toolMessages)
}

// Assemble rebuilds a chat completion from a stream of chunks.
func (Wire) Assemble(raw []byte) ([]byte, error) { return assembleStream(raw) }

// Restream renders a chat completion as a one-chunk stream.
func (Wire) Restream(resp []byte) ([]byte, error) { return chunkOf(resp), nil }

func (Wire) toolMessages(root *jsonspan.Node) (outs []gateway.ToolOutput, contents []*jsonspan.Node) {
	names := map[string]string{}
	for _, m := range root.Get("messages").Items() {
		for _, tc := range m.Get("tool_calls").Items() {
			names[tc.Get("id").Text()] = tc.Get("function").Get("name").Text()
		}
		if m.Get("role").Text() != "tool" {
			continue
		}
		c := m.Get("content")
		if c == nil {
			continue
		}
		text, ok := wireparse.ResultText(c, "text", "input_text")
		if !ok {
			continue
		}
		id := m.Get("tool_call_id").Text()
		tool := names[id]
		if tool == "" {
			tool = m.Get("name").Text()
		}
		outs = append(outs, gateway.ToolOutput{Index: len(outs), CallID: id, Tool: tool, Content: text, Provider: "openai"})
		contents = append(contents, c)
	}
	return outs, contents
}

func (Wire) message(resp []byte) (*jsonspan.Node, *jsonspan.Node, error) {
	root, err := wireparse.ParseObject(resp, "openai response")
	if err != nil {
		return nil, nil, err
	}
	choices := root.Get("choices").Items()
	if len(choices) == 0 {
		return root, nil, nil
	}
	return root, choices[0], nil
}

// PhantomCalls lists expand_context calls in choices[0].message.tool_calls.
func (a Wire) PhantomCalls(resp []byte) ([]gateway.PhantomCall, error) {
	_, choice, err := a.message(resp)
	if err != nil || choice == nil {
		return nil, err
	}
	var calls []gateway.PhantomCall
	for _, tc := range choice.Get("message").Get("tool_calls").Items() {
		if tc.Get("function").Get("name").Text() == gateway.ExpandToolName {
			calls = append(calls, gateway.PhantomCall{ID: tc.Get("id").Text(), ShadowID: wireparse.ShadowArg([]byte(tc.Get("function").Get("arguments").Text())),
				Raw: resp[tc.Start:tc.End]})
		}
	}
	return calls, nil
}

// AppendExpansions appends an assistant message with the response's text
// (content stays null when it has none) and the phantom calls, then one
// tool message per call.
func (w Wire) AppendExpansions(body, resp []byte, calls []gateway.PhantomCall, answers []string) ([]byte, error) {
	msgs, err := wireparse.ParseMessages(body, "openai request")
	if err != nil {
		return nil, err
	}
	raws := make([]string, len(calls))
	for i, c := range calls {
		raws[i] = string(c.Raw)
	}
	content := []byte("null")
	if _, choice, err := w.message(resp); err == nil && choice != nil {
		if c := choice.Get("message").Get("content"); c != nil && c.Kind == '"' && c.Str != "" {
			content = resp[c.Start:c.End]
		}
	}
	add := [][]byte{[]byte(`{"role":"assistant","content":` + string(content) + `,"tool_calls":[` + strings.Join(raws, ",") + `]}`)}
	for i, c := range calls {
		add = append(add, []byte(`{"role":"tool","tool_call_id":`+string(jsonspan.String(c.ID))+`,"content":`+string(jsonspan.String(answers[i]))+`}`))
	}
	return jsonspan.Splice(body, []jsonspan.Edit{jsonspan.AppendToArray(msgs, add...)}), nil
}

// StripPhantom removes expand_context calls from choices[0]; when none is
// left, tool_calls goes and finish_reason becomes "stop".
func (a Wire) StripPhantom(resp []byte) ([]byte, error) {
	_, choice, err := a.message(resp)
	if err != nil || choice == nil {
		return resp, err
	}
	msg := choice.Get("message")
	tcs := msg.Get("tool_calls")
	var keep []string
	phantom := false
	for _, tc := range tcs.Items() {
		if tc.Get("function").Get("name").Text() == gateway.ExpandToolName {
			phantom = true
			continue
		}
		keep = append(keep, string(resp[tc.Start:tc.End]))
	}
	if !phantom {
		return resp, nil
	}
	var edits []jsonspan.Edit
	if len(keep) > 0 {
		edits = append(edits, jsonspan.Edit{Start: tcs.Start, End: tcs.End, Text: []byte("[" + strings.Join(keep, ",") + "]")})
	} else {
		if e, ok := jsonspan.RemoveKey(msg, "tool_calls"); ok {
			edits = append(edits, e)
		}
		if fr := choice.Get("finish_reason"); fr != nil && fr.Text() == "tool_calls" {
			edits = append(edits, jsonspan.Edit{Start: fr.Start, End: fr.End, Text: []byte(`"stop"`)})
		}
	}
	return jsonspan.Splice(resp, edits), nil
}

// ErrorBody renders {"error":{"message","type","code"}}, the shape the
// OpenAI API and SDKs use; type follows the status.
func (Wire) ErrorBody(status int, msg string) []byte {
	typ := "server_error"
	switch {
	case status == 429:
		typ = "rate_limit_exceeded"
	case status >= 400 && status < 500:
		typ = "invalid_request_error"
	}
	return []byte(`{"error":{"message":` + string(jsonspan.String(msg)) + `,"type":"` + typ + `","code":null}}`)
}
