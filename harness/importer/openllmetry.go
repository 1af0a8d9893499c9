package importer

import (
	"slices"
	"strings"

	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/harness"
)

// openLLMetryMessage maps one message, named what, of a chat span as
// OpenLLMetry (Traceloop) records it, and the instrumentations that copied
// it before the conventions of 1.28, to a chat message; def is its role
// when it has none ("": it must have one). The span holds its request's
// messages as gen_ai.prompt.N.role, .content, .tool_call_id, .name and
// .tool_calls.J.id|name|arguments, and its choices as
// gen_ai.completion.N.* likewise (with .finish_reason, and .refusal when
// the model refused) (flatCall). The request's tools
// (llm.request.functions.K.*) are not read: a scenario's fake tools are
// those its calls name, as for every format.
func (t *parsedTrace) openLLMetryMessage(m *jsonspan.Node, what, def string) (traceMessage, error) {
	msg, err := t.flatMessage(m, what, def)
	if err != nil {
		return msg, err
	}
	content, err := t.flatField(m, "content", what)
	if err != nil {
		return msg, err
	}
	if content == nil { // a refusal is recorded instead of the content
		content, err = t.flatField(m, "refusal", what)
		if err != nil {
			return msg, err
		}
	}
	if err := t.flatContent(&msg, content, what); err != nil {
		return msg, err
	}
	calls, names, err := t.flatItems(m, "tool_calls", what)
	if err != nil {
		return msg, err
	}
	for j, call := range calls {
		if err := t.flatToolCall(&msg, call, "id", "name", "arguments", names[j]); err != nil {
			return msg, err
		}
	}
	return msg, t.checkToolMessage(msg, m, what)
}

// flatMessage starts the chat message of a flattened message named what
// from its role (def when it has none; an error when def is "" too),
// name and tool_call_id, members of m.
func (t *parsedTrace) flatMessage(m *jsonspan.Node, what, def string) (traceMessage, error) {
	msg := traceMessage{at: m.Start, fields: map[string]int{}}
	role, at, err := t.flatText(m, "role", what)
	if err != nil {
		return msg, err
	}
	if role == "" && def == "" {
		return msg, t.errorf(m.Start, "%s: field role: missing; want a string (%s.role)", what, what)
	}
	msg.Role, msg.fields["role"] = cmp0(role, def), at
	if !slices.Contains([]string{"system", "developer", "user", "assistant", "tool"}, msg.Role) {
		return msg, t.errorf(at, "%s: role %q is not system, user, assistant or tool", what, harness.Clip(msg.Role))
	}
	if msg.Name, _, err = t.flatText(m, "name", what); err != nil {
		return msg, err
	}
	id, at, err := t.flatText(m, "tool_call_id", what)
	if id != "" {
		msg.ToolCallID, msg.fields["tool_call_id"] = id, at
	}
	return msg, err
}

// cmp0 returns s, or def when s is "".
func cmp0(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// checkToolMessage refuses a tool message without the call it answers.
func (t *parsedTrace) checkToolMessage(msg traceMessage, m *jsonspan.Node, what string) error {
	if msg.Role == "tool" && msg.ToolCallID == "" {
		return t.errorf(m.Start, "%s: no tool_call_id: a tool message names the call it answers", what)
	}
	return nil
}

// flatToolCall appends to msg the tool call of the flattened object call,
// named what: its members idKey, nameKey and argsKey (paths). The id and
// the name are required strings; the arguments, as otel.go reads them, a
// string kept as it is (JSON or not: what the model wrote), structured
// JSON written compact, or {} when absent.
func (t *parsedTrace) flatToolCall(msg *traceMessage, call *jsonspan.Node, idKey, nameKey, argsKey, what string) error {
	tc := struct{ id, name string }{}
	for _, f := range []struct {
		key string
		dst *string
	}{{nameKey, &tc.name}, {idKey, &tc.id}} {
		v, _, err := t.flatText(call, f.key, what)
		if err != nil {
			return err
		}
		if v == "" {
			return t.errorf(call.Start, "%s: field %s: missing; want a string (%s.%s)", what, f.key, what, f.key)
		}
		*f.dst = v
	}
	args, err := t.flatField(call, argsKey, what)
	if err != nil {
		return err
	}
	text := "{}"
	switch {
	case args == nil:
	case args.Kind == '"':
		text = args.Str
	default:
		text = compactJSON(args)
	}
	if _, ok := msg.fields["tool_calls"]; !ok {
		msg.fields["tool_calls"] = call.Start
	}
	msg.ToolCalls = append(msg.ToolCalls, newToolCall(tc.id, tc.name, text))
	return nil
}

// The OpenAI content parts that contentParts reads as a message's parts
// (the content an instrumentation writes as JSON when it is not a
// string), by the placeholder of those it does not replay as text.
var contentPartKinds = map[string]string{"text": "", "input_text": "", "refusal": "",
	"image_url": "image", "input_image": "image", "image": "image",
	"input_audio": "audio", "audio": "audio", "file": "document", "document": "document"}

// contentParts reads a flattened message's content: a string is its text,
// unless it is the JSON of a list of content parts, each an object whose
// "type" is one of contentPartKinds ("text" with a string "text"); then
// the text parts (and refusals) are its text, one a line, and media a
// placeholder, "[image not imported]", counted in omitted. A string that
// is JSON of anything else (a tool's JSON result) is text as it is. A
// structured list (arrayValue) must be parts.
func (t *parsedTrace) contentParts(v *jsonspan.Node, what string) (string, []string, error) {
	list := v
	if v.Kind == '"' {
		text := strings.TrimLeft(v.Str, " \t\r\n")
		if !strings.HasPrefix(text, "[") || !strings.HasSuffix(strings.TrimRight(text, " \t\r\n"), "]") {
			return v.Str, nil, nil
		}
		if _, written := t.literal(v); !written || jsonspan.Check([]byte(v.Str)) != nil {
			return v.Str, nil, nil
		}
		var err error
		if list, err = t.embedded(v, what); err != nil {
			return "", nil, err
		}
	}
	if !isContentParts(list) {
		if v.Kind == '"' {
			return v.Str, nil, nil
		}
		return "", nil, t.errorf(v.Start, "%s: want a string or a list of content parts, got %s", what, kindName(v.Kind))
	}
	var texts, omitted []string
	for _, p := range list.Vals {
		typ := p.Get("type").Str
		kind := contentPartKinds[typ]
		switch {
		case kind != "":
			texts, omitted = append(texts, "["+kind+" not imported]"), append(omitted, kind)
		case typ == "refusal":
			texts = append(texts, p.Get("refusal").Text())
		default:
			texts = append(texts, p.Get("text").Text())
		}
	}
	return strings.Join(texts, "\n"), omitted, nil
}

// isContentParts tells whether list is a list of OpenAI content parts: not
// empty, each an object whose "type" is one of contentPartKinds, a text
// part's "text" a string.
func isContentParts(list *jsonspan.Node) bool {
	if list.Kind != '[' || len(list.Vals) == 0 {
		return false
	}
	for _, p := range list.Vals {
		typ := p.Get("type")
		if typ == nil || typ.Kind != '"' {
			return false
		}
		if _, ok := contentPartKinds[typ.Str]; !ok {
			return false
		}
		if text := p.Get("text"); (typ.Str == "text" || typ.Str == "input_text") && (text == nil || text.Kind != '"') {
			return false
		}
	}
	return true
}

// newToolCall is a function call of a chat message.
func newToolCall(id, name, args string) openai.ToolCall {
	tc := openai.ToolCall{ID: id, Type: "function"}
	tc.Function.Name, tc.Function.Arguments = name, args
	return tc
}
