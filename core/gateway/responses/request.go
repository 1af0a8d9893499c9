package responses

import (
	"encoding/json"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/jsonspan"
)

// Path is the Responses API endpoint.
const Path = "/v1/responses"

var requestKeys = []string{"model", "input", "instructions", "tools", "previous_response_id", "store", "stream", "max_output_tokens"}

// DecodeRequest maps a Responses API request body to a core.Request with
// the given tag, and reports whether it asks to stream. Errors are [*Error]
// values with the position in body. The mapping:
//
//   - "instructions" (a string) is the first message, a system message;
//   - "input" is a string (one user message) or a list of items, read in
//     order: a message item (type "message", or no type and a "role") with
//     role user or assistant is a message of that role, role system or
//     developer a system message; its content is a string or a list of
//     parts whose input_text and output_text texts are joined by "\n"
//     (images, files, refusals left out);
//   - a function_call item is a tool call (its "arguments" string as the
//     call's Arguments when it is JSON, as a JSON string when it is not,
//     none when it is empty), a custom_tool_call item a tool call with
//     Custom set and its free-text "input" as one JSON string; another
//     "*_call" item with a call_id (local_shell_call, shell_call,
//     apply_patch_call, computer_call) is a tool call named by its type
//     less "_call" whose arguments are its "action" or "operation" object.
//     Calls join the assistant message just before them, or make one. A
//     "*_call" item without a call_id (web_search_call, mcp_call: run by
//     the server, answered by no output item) is not a call here;
//   - every "*_call_output" item (function_call_output,
//     custom_tool_call_output, local_shell_call_output, named by its "id",
//     apply_patch_call_output, ...) is a tool message answering its
//     call_id, named by that call's tool when the input holds the call; its
//     text is the "output" string, or the input_text parts of an output
//     list concatenated with nothing between them (as the gateway reads
//     it); an output that is not text (shell_call_output's stdout/stderr
//     objects, a screenshot) reads as "";
//   - reasoning, compaction, item_reference (also an item with only an
//     "id") and every other item type are checked to be objects and are
//     not mapped: none is a turn a scripted model matches on, and the
//     encrypted ones cannot be read;
//   - "tools" of type function (name, description, parameters) and custom
//     (name, description, Custom set; its format is not mapped) are the
//     request's tools; built-in tools (web_search, local_shell, mcp, ...)
//     are passed over;
//   - "max_output_tokens" is MaxOutputTokens, "stream" the second result;
//     "model", "store" and "previous_response_id" are checked (a string, a
//     boolean, a string, or null) and not mapped: a request that continues
//     a stored response carries history the codec does not see.
func DecodeRequest(body []byte, tag core.Tag) (core.Request, bool, error) {
	req, stream, err := decodeRequest(body, tag)
	if err != nil {
		return core.Request{}, false, locate(err, "request", body)
	}
	return req, stream, nil
}

func decodeRequest(body []byte, tag core.Tag) (core.Request, bool, error) {
	n, err := parse(body, "request")
	if err != nil {
		return core.Request{}, false, err
	}
	root := value{b: body, n: n}
	if err := root.object(requestKeys...); err != nil {
		return core.Request{}, false, err
	}
	req := core.Request{Tag: tag}
	if _, err := root.key("model").optStr(); err != nil {
		return req, false, err
	}
	if _, err := root.key("previous_response_id").optStr(); err != nil {
		return req, false, err
	}
	if _, err := root.key("store").optBool(); err != nil {
		return req, false, err
	}
	stream, err := root.key("stream").optBool()
	if err != nil {
		return req, false, err
	}
	if req.MaxOutputTokens, err = root.key("max_output_tokens").optInt(); err != nil {
		return req, false, err
	}
	instructions, err := root.key("instructions").optStr()
	if err != nil {
		return req, false, err
	}
	if instructions != "" {
		req.Messages = append(req.Messages, core.Message{Role: core.RoleSystem, Content: instructions})
	}
	var c conversation
	if err := c.input(root.key("input")); err != nil {
		return req, false, err
	}
	req.Messages = append(req.Messages, c.msgs...)
	if req.Tools, err = readTools(root.key("tools")); err != nil {
		return req, false, err
	}
	return req, stream, nil
}

// conversation collects the messages of an input list.
type conversation struct {
	msgs []core.Message
	// names maps the call ids of the calls so far to their tool names.
	names map[string]string
}

// input reads "input": a string (one user message) or a list of items.
func (c *conversation) input(v value) error {
	switch {
	case v.missing():
		return nil
	case v.n.Kind == '"':
		c.msgs = append(c.msgs, core.Message{Role: core.RoleUser, Content: v.n.Str})
		return nil
	case v.n.Kind != '[':
		return v.want("a string or an array of items")
	}
	for _, it := range v.items() {
		if err := c.item(it); err != nil {
			return err
		}
	}
	return nil
}

// item reads one input item.
func (c *conversation) item(v value) error {
	if v.n.Kind != '{' {
		return v.want("an object")
	}
	typ := itemType(v.n)
	switch {
	case typ == "":
		if t := v.key("type"); !t.missing() {
			return t.want("a string")
		}
		return v.fail("item without a type")
	case typ == TypeMessage:
		return c.message(v)
	case typ == TypeFunctionCall || typ == TypeCustomToolCall:
		return c.call(v, typ)
	case isOutput(typ):
		return c.output(v, typ)
	case isCall(typ):
		return c.otherCall(v, typ)
	}
	// reasoning, compaction, item_reference and every other item: not
	// part of what a scripted model matches on.
	return v.object("type")
}

var messageKeys = []string{"type", "role", "content"}

// message reads a message item: its role and the text of its content.
func (c *conversation) message(v value) error {
	if err := v.object(messageKeys...); err != nil {
		return err
	}
	rv := v.key("role")
	role, err := rv.str()
	if err != nil {
		return err
	}
	var r core.Role
	switch role {
	case "user", "assistant":
		r = core.Role(role)
	case "system", "developer":
		r = core.RoleSystem
	default:
		return rv.fail(`want role "user", "assistant", "system" or "developer", got ` + quote(role))
	}
	text, err := contentText(v.key("content"))
	if err != nil {
		return err
	}
	c.msgs = append(c.msgs, core.Message{Role: r, Content: text})
	return nil
}

var partKeys = []string{"type", "text"}

// contentText reads a message's content: a string, or a list of parts
// whose input_text and output_text texts it joins with "\n" (other parts,
// an image, a file, a refusal, are left out).
func contentText(v value) (string, error) {
	switch {
	case v.n == nil:
		return "", v.fail("message without content")
	case v.n.Kind == '"':
		return v.n.Str, nil
	case v.n.Kind != '[':
		return "", v.want("a string or an array of content parts")
	}
	var parts []string
	for _, p := range v.items() {
		if err := p.object(partKeys...); err != nil {
			return "", err
		}
		typ, err := p.key("type").str()
		if err != nil {
			return "", err
		}
		if typ != "input_text" && typ != "output_text" {
			continue
		}
		text, err := p.key("text").str()
		if err != nil {
			return "", err
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "\n"), nil
}

var callKeys = []string{"type", "call_id", "name", "arguments", "input"}

// call reads a function_call or custom_tool_call item into a tool call
// of the assistant message before it (a new one when the last message is
// not the assistant's).
func (c *conversation) call(v value, typ string) error {
	if err := v.object(callKeys...); err != nil {
		return err
	}
	id, err := v.key("call_id").str()
	if err != nil {
		return err
	}
	name, err := v.key("name").str()
	if err != nil {
		return err
	}
	tc := core.ToolCall{ID: id, Name: name}
	if typ == TypeCustomToolCall {
		in, err := v.key("input").str()
		if err != nil {
			return err
		}
		tc.Arguments, tc.Custom = jsonString(in), true
	} else {
		args, err := v.key("arguments").str()
		if err != nil {
			return err
		}
		tc.Arguments = arguments(args)
	}
	c.addCall(tc)
	return nil
}

// otherCall reads a call of another tool type (local_shell_call,
// shell_call, apply_patch_call, computer_call...) that names a call_id
// the client answers with an output item: a tool call named by its type
// less "_call", whose arguments are its "action" or "operation" object.
// A call without a call_id (web_search_call, mcp_call: run by the
// server, with no output item) is not a call of the conversation.
func (c *conversation) otherCall(v value, typ string) error {
	if err := v.object("type", "call_id"); err != nil {
		return err
	}
	id, err := v.key("call_id").optStr()
	if err != nil || id == "" {
		return err
	}
	tc := core.ToolCall{ID: id, Name: callName(v.n, typ)}
	for _, k := range []string{"action", "operation"} {
		if a := v.n.Get(k); a != nil && a.Kind == '{' {
			tc.Arguments = append(json.RawMessage(nil), v.key(k).raw()...)
			break
		}
	}
	c.addCall(tc)
	return nil
}

func (c *conversation) addCall(tc core.ToolCall) {
	if c.names == nil {
		c.names = map[string]string{}
	}
	c.names[tc.ID] = tc.Name
	if k := len(c.msgs) - 1; k >= 0 && c.msgs[k].Role == core.RoleAssistant {
		c.msgs[k].ToolCalls = append(c.msgs[k].ToolCalls, tc)
		return
	}
	c.msgs = append(c.msgs, core.Message{Role: core.RoleAssistant, ToolCalls: []core.ToolCall{tc}})
}

// output reads an output item (function_call_output,
// custom_tool_call_output, local_shell_call_output, ...) into a tool
// message named by the call it answers.
func (c *conversation) output(v value, typ string) error {
	if err := v.object("type", "call_id", "output"); err != nil {
		return err
	}
	idv := v.key("call_id")
	if idv.n == nil && typ == "local_shell_call_output" {
		idv = v.key("id")
	}
	id, err := idv.str()
	if err != nil {
		return err
	}
	ov := v.key("output")
	if ov.n == nil && (typ == TypeFunctionCallOutput || typ == TypeCustomToolCallOutput) {
		return ov.fail("missing")
	}
	if !ov.missing() && ov.n.Kind == '[' {
		for _, p := range ov.items() {
			if err := p.object(partKeys...); err != nil {
				return err
			}
			if _, err := p.key("type").str(); err != nil {
				return err
			}
		}
	}
	text, _ := outputText(ov.n)
	c.msgs = append(c.msgs, core.Message{Role: core.RoleTool, Content: text, ToolCallID: id, Name: c.names[id]})
	return nil
}

var toolKeys = []string{"type", "name", "description", "parameters"}

// readTools reads "tools": function and custom tools; tools of other types
// (built-in tools: web_search, local_shell, mcp...) are passed over.
func readTools(v value) ([]core.Tool, error) {
	if v.missing() {
		return nil, nil
	}
	if v.n.Kind != '[' {
		return nil, v.want("an array of tools")
	}
	var tools []core.Tool
	for _, tv := range v.items() {
		if err := tv.object(toolKeys...); err != nil {
			return nil, err
		}
		typ, err := tv.key("type").str()
		if err != nil {
			return nil, err
		}
		if typ != "function" && typ != "custom" {
			continue
		}
		t := core.Tool{Custom: typ == "custom"}
		if t.Name, err = tv.key("name").str(); err != nil {
			return nil, err
		}
		if t.Description, err = tv.key("description").optStr(); err != nil {
			return nil, err
		}
		if p := tv.key("parameters"); typ == "function" && !p.missing() {
			if p.n.Kind != '{' {
				return nil, p.want("an object")
			}
			t.InputSchema = append(json.RawMessage(nil), p.raw()...)
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// jsonString returns s as a JSON string.
func jsonString(s string) json.RawMessage { return json.RawMessage(jsonspan.String(s)) }

// arguments maps a function call's arguments string to a tool call's
// Arguments: nothing for "", the JSON value when it is one, else the
// string itself as a JSON string (a model may write arguments that do not
// parse; core.ToolCall's Arguments must stay valid JSON).
func arguments(s string) json.RawMessage {
	switch {
	case s == "":
		return nil
	case json.Valid([]byte(s)):
		return json.RawMessage(s)
	}
	return jsonString(s)
}
