package anthropic

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/internal/wireparse"
	"github.com/toolout/toolout/core/jsonspan"
)

// Wire is the Messages API gateway.Wire.
type Wire struct{}

var _ gateway.Wire = Wire{}

// Name returns "anthropic".
func (Wire) Name() string { return "anthropic" }

// Path returns "/v1/messages".
func (Wire) Path() string { return Path }

// expandTool is the expand_context tool as a Messages API tool.
var expandTool = []byte(`{"name":"expand_context","description":` +
	string(jsonspan.String(gateway.ExpandToolDescription)) + `,"input_schema":` + gateway.ExpandParams + `}`)

// Read parses a Messages request once: its tool_result blocks (named by
// the tool_use they answer; is_error kept; text blocks concatenated as
// sent, a list with another block left out), the text of the last user
// message that has text, and "stream".
func (w Wire) Read(body []byte) (*gateway.Conversation, error) {
	return w.ReadBounded(body, gateway.Bounds{})
}

// ReadBounded is Read within JSON bounds (gateway.ParseObjectBounded).
func (w Wire) ReadBounded(body []byte, b gateway.Bounds) (*gateway.Conversation, error) {
	return wireparse.ReadConversation(body, "anthropic request", b, expandTool, w.toolResults)
}

// Assemble rebuilds a message from its event stream, thinking blocks
// included; content this package does not map (citations, server tools)
// wraps gateway.ErrUnassembled, and the proxy relays such a stream as it
// came when it names no phantom call.
func (Wire) Assemble(raw []byte) ([]byte, error) {
	msg, err := AssembleStream(raw)
	if errors.Is(err, ErrUnsupported) {
		return nil, fmt.Errorf("%w: %w", gateway.ErrUnassembled, err)
	}
	return msg, err
}

// Restream renders a message as a complete event stream.
func (Wire) Restream(resp []byte) ([]byte, error) { return StreamOf(resp) }

func (Wire) toolResults(root *jsonspan.Node) (outs []gateway.ToolOutput, contents []*jsonspan.Node) {
	names := map[string]string{}
	for _, m := range root.Get("messages").Items() {
		for _, b := range m.Get("content").Items() {
			switch b.Get("type").Text() {
			case "tool_use":
				names[b.Get("id").Text()] = b.Get("name").Text()
			case "tool_result":
				c := b.Get("content")
				if c == nil {
					continue
				}
				text, ok := wireparse.ResultText(c, "text")
				if !ok {
					continue
				}
				id := b.Get("tool_use_id").Text()
				outs = append(outs, gateway.ToolOutput{Index: len(outs), CallID: id, Tool: names[id], Content: text, Provider: "anthropic",
					IsError: b.Get("is_error") != nil && b.Get("is_error").Kind == 't'})
				contents = append(contents, c)
			}
		}
	}
	return outs, contents
}

// PhantomCalls lists expand_context tool_use blocks.
func (Wire) PhantomCalls(resp []byte) ([]gateway.PhantomCall, error) {
	root, err := wireparse.ParseObject(resp, "anthropic response")
	if err != nil {
		return nil, err
	}
	var calls []gateway.PhantomCall
	for _, b := range root.Get("content").Items() {
		if b.Get("type").Text() == "tool_use" && b.Get("name").Text() == gateway.ExpandToolName {
			calls = append(calls, gateway.PhantomCall{ID: b.Get("id").Text(), ShadowID: b.Get("input").Get("shadow_id").Text(), Raw: resp[b.Start:b.End]})
		}
	}
	return calls, nil
}

// AppendExpansions appends the assistant turn of resp (every content block
// in order, thinking and redacted_thinking with their signatures included,
// as the API requires when extended thinking is on; real tool_use blocks
// left out, since they get no result: the model repeats them) and a user
// message with one tool_result per phantom call.
func (Wire) AppendExpansions(body, resp []byte, calls []gateway.PhantomCall, answers []string) ([]byte, error) {
	msgs, err := wireparse.ParseMessages(body, "anthropic request")
	if err != nil {
		return nil, err
	}
	var blocks []string
	if r, err := wireparse.ParseObject(resp, "anthropic response"); err == nil {
		for _, b := range r.Get("content").Items() {
			if b.Get("type").Text() == "tool_use" && b.Get("name").Text() != gateway.ExpandToolName {
				continue
			}
			blocks = append(blocks, string(resp[b.Start:b.End]))
		}
	}
	if len(blocks) == 0 { // no response body to copy: the calls alone
		for _, c := range calls {
			blocks = append(blocks, string(c.Raw))
		}
	}
	results := make([]string, len(calls))
	for i, c := range calls {
		results[i] = `{"type":"tool_result","tool_use_id":` + string(jsonspan.String(c.ID)) + `,"content":` + string(jsonspan.String(answers[i])) + `}`
	}
	return jsonspan.Splice(body, []jsonspan.Edit{jsonspan.AppendToArray(msgs,
		[]byte(`{"role":"assistant","content":[`+strings.Join(blocks, ",")+`]}`),
		[]byte(`{"role":"user","content":[`+strings.Join(results, ",")+`]}`))}), nil
}

// StripPhantom removes expand_context blocks; when no tool_use is left,
// stop_reason "tool_use" becomes "end_turn".
func (Wire) StripPhantom(resp []byte) ([]byte, error) {
	root, err := wireparse.ParseObject(resp, "anthropic response")
	if err != nil {
		return nil, err
	}
	content := root.Get("content")
	var keep []string
	phantom, tools := false, false
	for _, b := range content.Items() {
		if b.Get("type").Text() == "tool_use" && b.Get("name").Text() == gateway.ExpandToolName {
			phantom = true
			continue
		}
		tools = tools || b.Get("type").Text() == "tool_use"
		keep = append(keep, string(resp[b.Start:b.End]))
	}
	if !phantom {
		return resp, nil
	}
	edits := []jsonspan.Edit{{Start: content.Start, End: content.End, Text: []byte("[" + strings.Join(keep, ",") + "]")}}
	if sr := root.Get("stop_reason"); !tools && sr != nil && sr.Text() == "tool_use" {
		edits = append(edits, jsonspan.Edit{Start: sr.Start, End: sr.End, Text: []byte(`"end_turn"`)})
	}
	return jsonspan.Splice(resp, edits), nil
}

// ErrorBody renders {"type":"error","error":{"type","message"}}, the shape
// the Messages API and SDKs use; the error type follows the status as the
// API documents it.
func (Wire) ErrorBody(status int, msg string) []byte {
	typ := "api_error"
	switch status {
	case 400:
		typ = "invalid_request_error"
	case 413:
		typ = "request_too_large"
	case 429:
		typ = "rate_limit_error"
	case 503, 529:
		typ = "overloaded_error"
	case 504:
		typ = "timeout_error"
	}
	return []byte(`{"type":"error","error":{"type":"` + typ + `","message":` + string(jsonspan.String(msg)) + `}}`)
}
