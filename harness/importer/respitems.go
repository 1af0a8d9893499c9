package importer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/harness"
)

// The items of the OpenAI Responses API (a request's input, a response's
// output, a Codex rollout's response_item payloads) map onto chat messages
// (see doc.go): messages by their role; the assistant's items in a row
// (its messages, its calls, its reasoning) are one assistant message, a
// model turn; each *_call_output is a tool message.

// serverCalls are the item types of tools the provider runs itself: the
// agent never acts on them, and the model reads their results on the
// provider's side, so they are counted as omitted.
var serverCalls = []string{"web_search_call", "file_search_call", "code_interpreter_call", "image_generation_call",
	"mcp_call", "mcp_list_tools", "mcp_approval_request", "mcp_approval_response", "tool_search_call"}

// opaqueItems are the item types the scenario does not replay and that are
// not the assistant's turn: compacted history (encrypted) and Codex's
// ghost snapshots (its undo points, never sent to the model).
var opaqueItems = []string{"compaction", "compaction_summary", "ghost_snapshot"}

// respReader maps items onto chat messages, appended to out.
type respReader struct {
	t   *parsedTrace
	out []traceMessage
	// open tells that the last message of out is an assistant turn that
	// the next assistant item joins.
	open bool
	// pending are the kinds of opaque items read since the last message,
	// counted on the next one.
	pending []string
}

// itemType returns the type of item n, named where: its "type", or
// "message" for an input message written without one ({"role",
// "content"}).
func (r *respReader) itemType(n *jsonspan.Node, where string) (string, error) {
	if n.Kind != '{' {
		return "", r.t.errorf(n.Start, "%s: want an item, an object, got %s", where, kindName(n.Kind))
	}
	typ := n.Get("type")
	switch {
	case typ == nil && n.Get("role") != nil:
		return "message", nil
	case typ == nil:
		return "", r.t.errorf(n.Start, "%s: field type: missing", where)
	case typ.Kind != '"':
		return "", r.t.errorf(typ.Start, "%s.type: want a string, got %s", where, kindName(typ.Kind))
	}
	return typ.Str, nil
}

// item maps item n, named where.
func (r *respReader) item(n *jsonspan.Node, where string) error {
	typ, err := r.itemType(n, where)
	if err != nil {
		return err
	}
	switch {
	case typ == "message":
		return r.message(n, where)
	case typ == "reasoning" || slices.Contains(serverCalls, typ):
		m := r.turn(n, where)
		m.omitted = append(m.omitted, typ)
	case slices.Contains(opaqueItems, typ):
		r.pending = append(r.pending, typ)
	case strings.HasSuffix(typ, "_call_output"):
		return r.output(n, typ, where)
	case strings.HasSuffix(typ, "_call"):
		return r.call(n, typ, where)
	case typ == "item_reference":
		return r.t.errorf(n.Get("type").Start, "%s.type: an item_reference names an item the provider stored, which the log does not hold", where)
	default:
		return r.t.errorf(n.Get("type").Start, "%s.type: item type %q is not imported (messages, *_call and *_call_output items are; reasoning, compaction and the provider's own tool calls are left out)", where, typ)
	}
	return nil
}

// add appends m, with the kinds of the opaque items before it.
func (r *respReader) add(m traceMessage) *traceMessage {
	m.omitted = append(r.pending, m.omitted...)
	r.pending = nil
	r.out = append(r.out, m)
	return &r.out[len(r.out)-1]
}

// turn returns the assistant turn that item n, named where, joins: the
// open one, else a new one at n.
func (r *respReader) turn(n *jsonspan.Node, where string) *traceMessage {
	if !r.open {
		r.add(traceMessage{Role: "assistant", at: n.Start, path: where, fields: map[string]int{"role": n.Start, "content": n.Start}})
		r.open = true
	}
	return &r.out[len(r.out)-1]
}

// finish counts the opaque items after the last message on it.
func (r *respReader) finish() {
	if len(r.pending) > 0 && len(r.out) > 0 {
		last := &r.out[len(r.out)-1]
		last.omitted = append(last.omitted, r.pending...)
		r.pending = nil
	}
}

// message maps a message item: the assistant's joins its turn, a system
// or developer message is a system message (left out when empty), a
// user's is a user message.
func (r *respReader) message(n *jsonspan.Node, where string) error {
	role := n.Get("role")
	if role == nil || role.Kind != '"' {
		return r.t.fieldError(n, "role", where, `"user", "assistant", "developer" or "system"`)
	}
	content := n.Get("content")
	if content == nil || content.Kind == '0' {
		return r.t.fieldError(n, "content", where, "a string or a list of content parts")
	}
	switch role.Str {
	case "assistant":
		m := r.turn(n, where)
		text, err := r.parts(m, content, where+".content", replyJoiner)
		if err != nil {
			return err
		}
		if m.text != "" && text != "" {
			m.text += promptJoiner
		}
		m.text += text
		return nil
	case "user", "system", "developer":
	default:
		return r.t.errorf(role.Start, "%s.role: want \"user\", \"assistant\", \"developer\" or \"system\", got %q", where, harness.Clip(role.Str))
	}
	r.open = false
	m := traceMessage{Role: role.Str, at: n.Start, path: where, fields: map[string]int{"role": role.Start, "content": content.Start}}
	text, err := r.parts(&m, content, where+".content", promptJoiner)
	if err != nil {
		return err
	}
	m.text = text
	if m.Role == "developer" {
		m.Role = "system"
	}
	if m.Role == "system" && text == "" {
		return nil
	}
	r.add(m)
	return nil
}

// parts reads a message's or an output's content, named where: a string,
// or a list of content parts whose texts are joined by joiner (an image
// or a file a placeholder, counted on m).
func (r *respReader) parts(m *traceMessage, content *jsonspan.Node, where, joiner string) (string, error) {
	switch content.Kind {
	case '"':
		return content.Str, nil
	case '[':
	default:
		return "", r.t.errorf(content.Start, "%s: want a string or a list of content parts, got %s", where, kindName(content.Kind))
	}
	var texts []string
	for j, p := range content.Vals {
		at := fmt.Sprintf("%s[%d]", where, j)
		typ, err := r.t.textField(p, "type", at, true)
		if err != nil {
			return "", err
		}
		switch typ {
		case "input_text", "output_text", "text", "refusal":
			key := "text"
			if typ == "refusal" {
				key = "refusal"
			}
			s, err := r.t.textField(p, key, at, true)
			if err != nil {
				return "", err
			}
			texts = append(texts, s)
		case "input_image", "input_file":
			kind := map[string]string{"input_image": "image", "input_file": "document"}[typ]
			texts = append(texts, placeholder(kind))
			m.omitted = append(m.omitted, kind)
		default:
			return "", r.t.errorf(p.Get("type").Start, "%s.type: content part %q is not imported (input_text, output_text and refusal are; input_image and input_file become placeholders)", at, harness.Clip(typ))
		}
	}
	return strings.Join(texts, joiner), nil
}

// call maps a client-side tool call of type typ: function_call (name,
// arguments), custom_tool_call (name, input: free text), and any other
// *_call the agent runs (local_shell_call, shell_call, apply_patch_call,
// computer_call: named by its type, its members other than type, id,
// call_id and status as the arguments, compact). It joins the turn.
func (r *respReader) call(n *jsonspan.Node, typ, where string) error {
	id := n.Get("call_id")
	if id == nil && typ == "local_shell_call" {
		id = n.Get("id") // the API's first local_shell items had no call_id
	}
	if id == nil || id.Kind != '"' || id.Str == "" {
		return r.t.fieldError(n, "call_id", where, "a string, the id its output answers")
	}
	tc := openai.ToolCall{ID: id.Str, Type: "function"}
	switch typ {
	case "function_call", "custom_tool_call":
		name, err := r.t.textField(n, "name", where, true)
		if err != nil {
			return err
		}
		if name == "" {
			return r.t.errorf(n.Get("name").Start, "%s.name: empty", where)
		}
		key := "arguments"
		if typ == "custom_tool_call" {
			key, tc.Type = "input", "custom"
		}
		args, err := r.t.textField(n, key, where, typ == "custom_tool_call")
		if err != nil {
			return err
		}
		if args == "" && typ == "function_call" {
			args = "{}"
		}
		tc.Function.Name, tc.Function.Arguments = name, args
	default:
		args := &jsonspan.Node{Kind: '{'}
		for i, k := range n.Keys {
			if !slices.Contains([]string{"type", "id", "call_id", "status"}, k) {
				args.Keys, args.Vals = append(args.Keys, k), append(args.Vals, n.Vals[i])
			}
		}
		tc.Function.Name, tc.Function.Arguments = strings.TrimSuffix(typ, "_call"), compactJSON(args)
	}
	m := r.turn(n, where)
	if len(m.ToolCalls) == 0 {
		m.fields["tool_calls"] = n.Start
	}
	m.ToolCalls = append(m.ToolCalls, tc)
	return nil
}

// output maps a *_call_output item onto a tool message answering its
// call_id: its output a string, a list of content parts (their texts
// concatenated, as one output), or other JSON, compact (a shell_call's
// list of {stdout, stderr, outcome}).
func (r *respReader) output(n *jsonspan.Node, typ, where string) error {
	id := n.Get("call_id")
	if id == nil && typ == "local_shell_call_output" {
		id = n.Get("id")
	}
	if id == nil || id.Kind != '"' || id.Str == "" {
		return r.t.fieldError(n, "call_id", where, "a string, the id of the call it answers")
	}
	r.open = false
	m := traceMessage{Role: "tool", ToolCallID: id.Str, at: n.Start, path: where,
		fields: map[string]int{"role": n.Start, "tool_call_id": id.Start, "content": n.Start}}
	out := n.Get("output")
	switch {
	case out == nil || out.Kind == '0':
	case out.Kind == '"' || out.Kind == '[' && r.isParts(out):
		m.fields["content"] = out.Start
		text, err := r.parts(&m, out, where+".output", replyJoiner)
		if err != nil {
			return err
		}
		m.text = text
	default:
		m.fields["content"] = out.Start
		m.text = compactJSON(out)
	}
	r.add(m)
	return nil
}

// isParts tells whether the list l holds content parts (objects with a
// type), not other JSON.
func (r *respReader) isParts(l *jsonspan.Node) bool {
	return len(l.Vals) > 0 && l.Vals[0].Kind == '{' && l.Vals[0].Get("type") != nil
}

// respAnswers checks the pairing of *_call_output items at their call_id.
func (t *parsedTrace) respAnswers() error {
	return t.answersOnce(answerWords{"call_id", "call", "call of an earlier item"},
		func(m *traceMessage) int { return m.fields["tool_call_id"] })
}
