package responses

import (
	"strings"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/internal/wireparse"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/jsonspan"
)

// Wire is the Responses API gateway.Wire.
type Wire struct{}

var _ gateway.Wire = Wire{}

// Name returns "responses", the route's name in logs and metrics.
func (Wire) Name() string { return "responses" }

// Path returns "/v1/responses".
func (Wire) Path() string { return Path }

// Provider is the provider of the tool outputs Read reports: OpenAI's
// tool names (shell, apply_patch, exec_command...) are what skip_tools
// categories mean on this wire.
const Provider = "openai"

// expandTool is the expand_context tool as a Responses function tool.
var expandTool = []byte(`{"type":"function","name":"expand_context","description":` +
	string(jsonspan.String(gateway.ExpandToolDescription)) + `,"parameters":` + gateway.ExpandParams + `}`)

// Read parses a request once: the tool outputs of its input items (every
// "*_call_output" item whose output is a string or a list of input_text
// parts, named by the call item with its call_id), the text of the last
// user message that has text (or the input when it is a string),
// "stream", and whether it continues history the provider holds
// (previous_response_id, conversation). Other items are not read.
func (w Wire) Read(body []byte) (*gateway.Conversation, error) {
	return w.ReadBounded(body, gateway.Bounds{})
}

// ReadBounded is Read within JSON bounds (gateway.ParseObjectBounded).
func (Wire) ReadBounded(body []byte, b gateway.Bounds) (*gateway.Conversation, error) {
	root, err := gateway.ParseObjectBounded(body, "responses request", b)
	if err != nil {
		return nil, err
	}
	c := &gateway.Conversation{Body: body, Root: root, ExpandTool: expandTool}
	input := root.Get("input")
	if input != nil && input.Kind == '"' {
		c.Query = input.Str
	}
	names := map[string]string{}
	for _, it := range input.Items() {
		typ := itemType(it)
		switch {
		case typ == TypeMessage && it.Get("role").Text() == "user":
			if t := jsonspan.ContentText(it.Get("content")); t != "" {
				c.Query = t
			}
		case isCall(typ):
			if id := it.Get("call_id"); id != nil && id.Kind == '"' {
				names[id.Str] = callName(it, typ)
			}
		case isOutput(typ):
			out := it.Get("output")
			text, ok := outputText(out)
			if !ok {
				continue
			}
			id := callID(it)
			c.Outputs = append(c.Outputs, gateway.ToolOutput{Index: len(c.Outputs), CallID: id, Tool: names[id], Content: text, Provider: Provider})
			c.Contents = append(c.Contents, out)
		}
	}
	c.Stream = root.Get("stream") != nil && root.Get("stream").Kind == 't'
	for _, k := range []string{"previous_response_id", "conversation"} {
		if v := root.Get(k); v != nil && (v.Kind == '"' && v.Str != "" || v.Kind == '{') {
			c.HiddenHistory = k
			break
		}
	}
	return c, nil
}

// output returns a response's output items.
func output(resp []byte) (*jsonspan.Node, []*jsonspan.Node, error) {
	root, err := wireparse.ParseObject(resp, "responses response")
	if err != nil {
		return nil, nil, err
	}
	return root, root.Get("output").Items(), nil
}

// isPhantom reports whether an output item is an expand_context call.
func isPhantom(it *jsonspan.Node) bool {
	return it.Get("type").Text() == TypeFunctionCall && it.Get("name").Text() == gateway.ExpandToolName
}

// PhantomCalls lists the expand_context function_call items of output.
func (Wire) PhantomCalls(resp []byte) ([]gateway.PhantomCall, error) {
	_, items, err := output(resp)
	if err != nil {
		return nil, err
	}
	var calls []gateway.PhantomCall
	for _, it := range items {
		if isPhantom(it) {
			calls = append(calls, gateway.PhantomCall{ID: it.Get("call_id").Text(),
				ShadowID: wireparse.ShadowArg([]byte(it.Get("arguments").Text())), Raw: resp[it.Start:it.End]})
		}
	}
	return calls, nil
}

// AppendExpansions appends to the request's input the response's output
// items as the model wrote them (messages, reasoning with its encrypted
// content, server-side tool calls), less its real tool calls (a call the
// client answers: function_call, custom_tool_call, and every other call
// item with a call_id; the model makes them again after the expansion),
// with the phantom calls, then one function_call_output per phantom call.
// A reasoning item without encrypted_content in a request with "store":
// false is left out too: the API could not resolve it. An input that is a
// string becomes a list that starts with it as a user message.
func (Wire) AppendExpansions(body, resp []byte, calls []gateway.PhantomCall, answers []string) ([]byte, error) {
	root, err := wireparse.ParseObject(body, "responses request")
	if err != nil {
		return nil, err
	}
	_, items, err := output(resp)
	if err != nil {
		return nil, err
	}
	stored := root.Get("store") == nil || root.Get("store").Kind != 'f'
	var add [][]byte
	for _, it := range items {
		typ := it.Get("type").Text()
		switch {
		case isPhantom(it):
		case typ == TypeFunctionCall || typ == TypeCustomToolCall || isCall(typ) && it.Get("call_id") != nil:
			continue
		case typ == TypeReasoning && !stored && it.Get("encrypted_content").Text() == "":
			continue
		}
		add = append(add, resp[it.Start:it.End])
	}
	for i, c := range calls {
		add = append(add, []byte(`{"type":"function_call_output","call_id":`+string(jsonspan.String(c.ID))+`,"output":`+string(jsonspan.String(answers[i]))+`}`))
	}
	list := "[" + string(joinRaw(add)) + "]"
	input := root.Get("input")
	switch {
	case input == nil:
		return jsonspan.Splice(body, []jsonspan.Edit{jsonspan.AddKey(root, "input", []byte(list))}), nil
	case input.Kind == '[':
		return jsonspan.Splice(body, []jsonspan.Edit{jsonspan.AppendToArray(input, add...)}), nil
	}
	first := `{"role":"user","content":` + string(body[input.Start:input.End]) + `}`
	if input.Kind == '0' {
		first = ""
	} else if len(add) > 0 {
		first += ","
	}
	return jsonspan.Splice(body, []jsonspan.Edit{{Start: input.Start, End: input.End, Text: []byte("[" + first + list[1:])}}), nil
}

func joinRaw(parts [][]byte) []byte {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(p)
	}
	return []byte(b.String())
}

// StripPhantom removes the expand_context function_call items from
// output, and the expand_context tool from "tools" (the API echoes the
// request's tools in the response object, and the client never offered
// that one); every other byte stays.
func (Wire) StripPhantom(resp []byte) ([]byte, error) {
	root, items, err := output(resp)
	if err != nil {
		return resp, err
	}
	var edits []jsonspan.Edit
	if e, ok := without(resp, root.Get("output"), items, isPhantom); ok {
		edits = append(edits, e)
	}
	if tools := root.Get("tools"); tools != nil {
		if e, ok := without(resp, tools, tools.Items(), isExpandTool); ok {
			edits = append(edits, e)
		}
	}
	if len(edits) == 0 {
		return resp, nil
	}
	return jsonspan.Splice(resp, edits), nil
}

// isExpandTool reports whether a tool of "tools" is the expand_context
// function.
func isExpandTool(t *jsonspan.Node) bool {
	return t.Get("type").Text() == "function" && t.Get("name").Text() == gateway.ExpandToolName
}

// without returns the edit that rewrites array arr (whose elements are
// elems) without the elements drop matches; ok is false when none does.
func without(body []byte, arr *jsonspan.Node, elems []*jsonspan.Node, drop func(*jsonspan.Node) bool) (jsonspan.Edit, bool) {
	var keep [][]byte
	dropped := false
	for _, e := range elems {
		if drop(e) {
			dropped = true
			continue
		}
		keep = append(keep, body[e.Start:e.End])
	}
	if !dropped {
		return jsonspan.Edit{}, false
	}
	return jsonspan.Edit{Start: arr.Start, End: arr.End, Text: []byte("[" + string(joinRaw(keep)) + "]")}, true
}

// Assemble is [Assemble]: the response of the stream's terminal event.
func (Wire) Assemble(raw []byte) ([]byte, error) { return Assemble(raw) }

// Restream is [StreamOf]: the response as the events the API sends.
func (Wire) Restream(resp []byte) ([]byte, error) { return StreamOf(resp) }

// ErrorBody renders the OpenAI error object, which the Responses API
// shares with Chat Completions: {"error":{"message","type","code"}}.
func (Wire) ErrorBody(status int, msg string) []byte { return openai.Wire{}.ErrorBody(status, msg) }
