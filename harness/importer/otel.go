package importer

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/jsonspan"
)

// The GenAI attributes and events the OTel reader takes.
const (
	attrOperation = "gen_ai.operation.name"
	attrInput     = "gen_ai.input.messages"
	attrOutput    = "gen_ai.output.messages"
	attrSystem    = "gen_ai.system_instructions"
	eventChoice   = "gen_ai.choice"
)

// chatOperations are the gen_ai.operation.name values of a span that is
// one LLM call.
var chatOperations = []string{"chat", "text_completion", "generate_content"}

// eventRoles are the per-message events of the conventions before 1.37,
// by the role of their message.
var eventRoles = map[string]string{"gen_ai.system.message": "system", "gen_ai.user.message": "user",
	"gen_ai.assistant.message": "assistant", "gen_ai.tool.message": "tool"}

var otelWords = callWords{"input", "output", "each chat span's input extends the one before it, with its output"}

// parseOTel reads OpenTelemetry GenAI spans exported as OTLP JSON (see
// doc.go and readOTel).
func parseOTel(data []byte, name string) (*parsedTrace, error) {
	t, err := newTrace(data, name)
	if err != nil {
		return nil, err
	}
	return t, t.readOTel()
}

// readOTel reads the trace's chat spans, ordered by their start, as LLM
// calls; the calls of one traceId must each extend the one before it with
// its output, and traces whose calls extend each other are stitched into
// one conversation (see stitch), of which the trace imports one: the last
// input and its output.
func (t *parsedTrace) readOTel() error {
	docs, err := t.otelDocs()
	if err != nil {
		return err
	}
	spans, err := t.otelSpans(docs)
	if err != nil {
		return err
	}
	if len(spans) == 0 && t.hasLogs(docs) {
		return fmt.Errorf("%s: no span, only log records: give the spans' file too: %s", t.shown(), t.importHint("SPANS.json"))
	}
	chats, err := t.chatSpans(spans)
	if err != nil {
		return err
	}
	calls := make([]*chatCall, len(chats))
	for k, s := range chats {
		if calls[k], err = t.otelCall(s, fmt.Sprintf("chat span %d", k+1)); err != nil {
			return err
		}
	}
	conv, err := t.stitch(chats, calls)
	if err != nil {
		return err
	}
	last := conv[len(conv)-1]
	t.list, t.msgs = last.list, append(slices.Clip(last.req), last.reply)
	return t.checkCalls()
}

// hasLogs tells whether an export of docs holds resourceLogs.
func (t *parsedTrace) hasLogs(docs []*jsonspan.Node) bool {
	return slices.ContainsFunc(docs, func(d *jsonspan.Node) bool { return d.Get("resourceLogs") != nil })
}

// chatSpans returns the spans that are LLM calls by their start time
// (spans that start at the same nanosecond in file order).
func (t *parsedTrace) chatSpans(spans []*otelSpan) ([]*otelSpan, error) {
	var chats []*otelSpan
	for _, s := range spans {
		if ok, err := t.isChatSpan(s); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		chats = append(chats, s)
	}
	if len(chats) == 0 {
		return nil, t.errorf(0, "no chat span: want spans whose %s is %s (or OpenLLMetry's %s.N, OpenInference's %s.N attributes)",
			attrOperation, strings.Join(chatOperations, ", "), flatConventions[0].in, flatConventions[2].in)
	}
	slices.SortStableFunc(chats, func(a, b *otelSpan) int { return cmp.Compare(a.start, b.start) })
	return chats, nil
}

// otelCall reads one chat span: from its attributes (gen_ai.system_instructions,
// gen_ai.input.messages, gen_ai.output.messages), or else from its events.
func (t *parsedTrace) otelCall(s *otelSpan, label string) (*chatCall, error) {
	c := &chatCall{label: label, words: &otelWords}
	in, out := s.attrs[attrInput], s.attrs[attrOutput]
	if in == nil && out == nil {
		if conv := flatConventionOf(s); conv != nil {
			return c, t.flatCall(s, c, conv)
		}
		return c, t.otelEvents(s, c)
	}
	if in == nil || out == nil {
		missing := map[bool]string{true: attrInput, false: attrOutput}[in == nil]
		return nil, t.errorf(s.n.Start, "%s: no %s attribute: a chat span records its input and its output", label, missing)
	}
	if sys := s.attrs[attrSystem]; sys != nil {
		parts, err := t.jsonAttr(sys, attrSystem, '[')
		if err != nil {
			return nil, err
		}
		m, err := t.genAIParts(traceMessage{Role: "system", at: parts.Start}, parts, attrSystem)
		if err != nil {
			return nil, err
		}
		c.req = append(c.req, m...)
	}
	list, err := t.jsonAttr(in, attrInput, '[')
	if err != nil {
		return nil, err
	}
	c.list = list.Start
	for i, m := range list.Vals {
		msgs, err := t.genAIMessage(m, fmt.Sprintf("%s[%d]", attrInput, i))
		if err != nil {
			return nil, err
		}
		c.req = append(c.req, msgs...)
	}
	outs, err := t.jsonAttr(out, attrOutput, '[')
	if err != nil {
		return nil, err
	}
	if len(outs.Vals) == 0 {
		return nil, t.errorf(outs.Start, "%s: %s: empty; want the model's reply", label, attrOutput)
	}
	reply, err := t.genAIMessage(outs.Vals[0], attrOutput+"[0]")
	if err != nil {
		return nil, err
	}
	return c, t.setReply(c, reply, outs.Vals[0].Start, attrOutput+"[0]")
}

// setReply makes msgs, read from what at offset at, the call's reply: one
// assistant message.
func (t *parsedTrace) setReply(c *chatCall, msgs []traceMessage, at int, what string) error {
	if len(msgs) != 1 || msgs[0].Role != "assistant" {
		role := msgs[0].Role
		if len(msgs) != 1 {
			role = "tool"
		}
		return t.errorf(at, "%s: role %q, want the model's reply: assistant text and tool calls", what, role)
	}
	c.reply = msgs[0]
	return nil
}

// jsonAttr converts an attribute's AnyValue to JSON: structured, or a
// string that holds JSON text; kind is the JSON kind it must be.
func (t *parsedTrace) jsonAttr(v *jsonspan.Node, what string, kind byte) (*jsonspan.Node, error) {
	n, err := t.anyValue(v, what)
	if err != nil {
		return nil, err
	}
	if n.Kind == '"' && kind != '"' {
		if n, err = t.embedded(n, what); err != nil {
			return nil, err
		}
	}
	if n.Kind != kind {
		return nil, t.errorf(n.Start, "%s: want %s, got %s", what, jsonKind(kind), kindName(n.Kind))
	}
	return n, nil
}

// genAIMessage maps one message of gen_ai.input.messages or
// gen_ai.output.messages, {"role", "parts", "name"?}, to chat messages.
func (t *parsedTrace) genAIMessage(m *jsonspan.Node, what string) ([]traceMessage, error) {
	if m.Kind != '{' {
		return nil, t.errorf(m.Start, "%s: want a message, {\"role\": ..., \"parts\": [...]}, got %s", what, kindName(m.Kind))
	}
	role, err := t.textField(m, "role", what, true)
	if err != nil {
		return nil, err
	}
	name, err := t.textField(m, "name", what, false)
	if err != nil {
		return nil, err
	}
	parts := m.Get("parts")
	if parts == nil || parts.Kind != '[' {
		return nil, t.fieldError(m, "parts", what, "a list")
	}
	first := traceMessage{Role: role, Name: name, at: m.Start, fields: map[string]int{"role": m.Get("role").Start}}
	return t.genAIParts(first, parts, what+".parts")
}

// genAIParts maps a list of parts to messages that start as first: text
// parts are its text (one a line), tool_call parts its tool calls; each
// tool_call_response part is a tool message of its own, in its place; a
// blob, uri or file part is a placeholder text, "[image not imported]"
// (its modality, else its type); other parts (reasoning, ...) are not
// replayed. Both are counted in the message's omitted.
func (t *parsedTrace) genAIParts(first traceMessage, parts *jsonspan.Node, what string) ([]traceMessage, error) {
	var out []traceMessage
	cur, texts, open := first, []string(nil), false
	flush := func(last bool) {
		if open || last && len(out) == 0 {
			cur.text = strings.Join(texts, "\n")
			out = append(out, cur)
		}
		cur, texts, open = traceMessage{Role: first.Role, Name: first.Name, fields: first.fields}, nil, false
	}
	for j, p := range parts.Vals {
		pw := fmt.Sprintf("%s[%d]", what, j)
		if !open {
			cur.at = cmp.Or(cur.at, p.Start)
		}
		typ, err := t.textField(p, "type", pw, true)
		if err != nil {
			return nil, err
		}
		switch typ {
		case "text":
			text, err := t.textField(p, "content", pw, true)
			if err != nil {
				return nil, err
			}
			texts, open = append(texts, text), true
		case "tool_call":
			tc, err := t.toolCall(p, p.Get("id"), p.Get("name"), p.Get("arguments"), pw)
			if err != nil {
				return nil, err
			}
			cur.ToolCalls, open = append(cur.ToolCalls, tc), true
		case "tool_call_response":
			flush(false)
			m, err := t.toolResponse(p, pw)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		case "blob", "uri", "file":
			kind := typ // the modality when it is a known one
			if m := p.Get("modality"); m != nil && slices.Contains([]string{"image", "video", "audio", "document"}, m.Str) {
				kind = m.Str
			}
			texts = append(texts, "["+kind+" not imported]")
			cur.omitted, open = append(cur.omitted, kind), true
		default:
			cur.omitted, open = append(cur.omitted, typ), true
		}
	}
	flush(true)
	if !slices.Contains([]string{"system", "developer", "user", "assistant", "tool"}, first.Role) {
		return nil, t.errorf(first.fields["role"], "%s: role %q is not system, user, assistant or tool", strings.TrimSuffix(what, ".parts"), first.Role)
	}
	for _, m := range out {
		if m.Role == "tool" && m.ToolCallID == "" {
			return nil, t.errorf(m.at, "%s: a tool message without a tool_call_response part: want the result of a call", strings.TrimSuffix(what, ".parts"))
		}
	}
	return out, nil
}

// toolCall reads a tool call's id, name and arguments (an object, or a
// string that holds one; absent or null: none).
func (t *parsedTrace) toolCall(at *jsonspan.Node, id, name, args *jsonspan.Node, what string) (openai.ToolCall, error) {
	var tc openai.ToolCall
	for _, f := range []struct {
		n     *jsonspan.Node
		field string
		dst   *string
	}{{name, "name", &tc.Function.Name}, {id, "id", &tc.ID}} {
		if f.n == nil || f.n.Kind != '"' || f.n.Str == "" {
			return tc, t.fieldError(at, f.field, what, "a string")
		}
		*f.dst = f.n.Str
	}
	tc.Type = "function"
	switch {
	case args == nil || args.Kind == '0':
		tc.Function.Arguments = "{}"
	case args.Kind == '"':
		tc.Function.Arguments = args.Str
	default:
		tc.Function.Arguments = compactJSON(args)
	}
	return tc, nil
}

// toolResponse reads a tool_call_response part as a tool message: its id,
// and its response (text as it is, other JSON compact; "result", as in the
// conventions' first drafts, when there is no "response").
func (t *parsedTrace) toolResponse(p *jsonspan.Node, what string) (traceMessage, error) {
	id := p.Get("id")
	if id == nil || id.Kind != '"' || id.Str == "" {
		return traceMessage{}, t.fieldError(p, "id", what, "a string (the call it answers)")
	}
	m := traceMessage{Role: "tool", ToolCallID: id.Str, at: p.Start, fields: map[string]int{"tool_call_id": id.Start}}
	resp := p.Get("response")
	if resp == nil {
		resp = p.Get("result")
	}
	switch {
	case resp == nil:
		return m, t.fieldError(p, "response", what, "the result")
	case resp.Kind == '"':
		m.text = resp.Str
	case resp.Kind != '0':
		m.text = compactJSON(resp)
	}
	m.fields["content"] = resp.Start
	return m, nil
}

// textField returns obj's string member key: "" when it is absent or null
// and not required, else an error.
func (t *parsedTrace) textField(obj *jsonspan.Node, key, what string, required bool) (string, error) {
	if obj.Kind != '{' {
		return "", t.errorf(obj.Start, "%s: want an object, got %s", what, kindName(obj.Kind))
	}
	v := obj.Get(key)
	if v == nil || v.Kind == '0' && !required {
		if required {
			return "", t.fieldError(obj, key, what, "a string")
		}
		return "", nil
	}
	if v.Kind != '"' {
		return "", t.fieldError(obj, key, what, "a string")
	}
	return v.Str, nil
}

// fieldError says that obj's member key is missing or not what it should
// be, at the member or else at obj.
func (t *parsedTrace) fieldError(obj *jsonspan.Node, key, what, want string) error {
	v := obj.Get(key)
	if v == nil {
		return t.errorf(obj.Start, "%s: field %s: missing; want %s", what, key, want)
	}
	return t.errorf(v.Start, "%s: field %s: want %s, got %s", what, key, want, kindName(v.Kind))
}
