package importer

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// otelEvents reads a chat span recorded as the conventions before 1.37 do
// it: an event per input message (gen_ai.system.message,
// gen_ai.user.message, gen_ai.assistant.message, gen_ai.tool.message) and a
// gen_ai.choice event per reply, in time order (events at the same
// nanosecond in file order). Those conventions specify the fields as the
// event's body; a span event has no body, so they are its attributes:
// content, role, tool_calls and id, and for a choice index, finish_reason
// and message ({content, role, tool_calls}). A structured field may be
// written as a string that holds its JSON. Only the choice of index 0 (or
// without an index) is the reply; other events of the span are ignored.
func (t *parsedTrace) otelEvents(s *otelSpan, c *chatCall) error {
	evs := slices.Clone(s.events)
	slices.SortStableFunc(evs, func(a, b otelEvent) int { return cmp.Compare(a.time, b.time) })
	c.list = s.eventsAt
	replied := false
	for i, e := range evs {
		what := fmt.Sprintf("%s: event %s", c.label, e.name)
		if role, ok := eventRoles[e.name]; ok {
			m, err := t.eventMessage(e.n, e.attrs, role, what)
			if err != nil {
				return err
			}
			c.req = append(c.req, m)
			continue
		}
		if e.name != eventChoice || replied {
			continue
		}
		if idx := e.attrs["index"]; idx != nil {
			v, err := t.anyValue(idx, what+": index")
			if err != nil {
				return err
			}
			if v.text != "0" {
				continue
			}
		}
		msg := e.attrs["message"]
		if msg == nil {
			return t.errorf(evs[i].n.at, "%s: no \"message\" attribute: want the reply", what)
		}
		body, err := t.jsonAttr(msg, what+": message", '{')
		if err != nil {
			return err
		}
		fields := map[string]*jnode{}
		for k, key := range body.keys {
			fields[key] = body.kids[k]
		}
		m, err := t.eventFields(body, fields, "assistant", what+": message", false)
		if err != nil {
			return err
		}
		if err := t.setReply(c, []traceMessage{m}, body.at, what+": message"); err != nil {
			return err
		}
		replied = true
	}
	if !replied {
		return t.errorf(s.n.at, "%s: no %s attribute and no %s event: a chat span records its input and its output (turn on the capture of message content)",
			c.label, attrOutput, eventChoice)
	}
	return nil
}

// eventMessage reads a message event whose fields are attributes
// (AnyValue nodes).
func (t *parsedTrace) eventMessage(n *jnode, attrs map[string]*jnode, role, what string) (traceMessage, error) {
	fields := map[string]*jnode{}
	for _, key := range []string{"role", "content", "tool_calls", "id"} {
		v := attrs[key]
		if v == nil {
			continue
		}
		conv, err := t.anyValue(v, what+": "+key)
		if err != nil {
			return traceMessage{}, err
		}
		fields[key] = conv
	}
	return t.eventFields(n, fields, role, what, true)
}

// eventFields maps an event's fields (JSON values) to a message of role,
// unless "role" says another.
func (t *parsedTrace) eventFields(n *jnode, fields map[string]*jnode, role, what string, input bool) (traceMessage, error) {
	m := traceMessage{Role: role, at: n.at, fields: map[string]int{}}
	if r := fields["role"]; r != nil && r.kind != 'n' {
		if r.kind != '"' {
			return m, t.errorf(r.at, "%s: role: want a string, got %s", what, jsonKind(r.kind))
		}
		m.Role, m.fields["role"] = r.text, r.at
	}
	if !slices.Contains([]string{"system", "developer", "user", "assistant", "tool"}, m.Role) {
		return m, t.errorf(cmp.Or(m.fields["role"], n.at), "%s: role %q is not system, user, assistant or tool", what, m.Role)
	}
	if c := fields["content"]; c != nil {
		text, err := t.eventContent(c, what+": content")
		if err != nil {
			return m, err
		}
		m.text, m.fields["content"] = text, c.at
	}
	if id := fields["id"]; id != nil && input {
		if id.kind != '"' {
			return m, t.errorf(id.at, "%s: id: want a string, got %s", what, jsonKind(id.kind))
		}
		m.ToolCallID, m.fields["tool_call_id"] = id.text, id.at
	}
	if m.Role == "tool" && m.ToolCallID == "" {
		return m, t.errorf(n.at, "%s: no id: a tool message names the call it answers", what)
	}
	if calls := fields["tool_calls"]; calls != nil && calls.kind != 'n' {
		var err error
		if calls.kind == '"' {
			if calls, err = t.embedded(calls, what+": tool_calls"); err != nil {
				return m, err
			}
		}
		if calls.kind != '[' {
			return m, t.errorf(calls.at, "%s: tool_calls: want a list, got %s", what, jsonKind(calls.kind))
		}
		m.fields["tool_calls"] = calls.at
		for j, call := range calls.kids {
			cw := fmt.Sprintf("%s: tool_calls[%d]", what, j)
			fn := call.get("function")
			if call.kind != '{' || fn == nil || fn.kind != '{' {
				return m, t.errorf(call.at, "%s: want {\"id\": ..., \"function\": {\"name\": ..., \"arguments\": ...}}", cw)
			}
			tc, err := t.toolCall(call, call.get("id"), fn.get("name"), fn.get("arguments"), cw)
			if err != nil {
				return m, err
			}
			m.ToolCalls = append(m.ToolCalls, tc)
		}
	}
	return m, nil
}

// eventContent reads an event's content: a string, null, or a list of
// parts whose "text" (or "content") strings are its text, one a line.
func (t *parsedTrace) eventContent(c *jnode, what string) (string, error) {
	switch c.kind {
	case '"':
		return c.text, nil
	case 'n':
		return "", nil
	case '[':
		var texts []string
		for _, p := range c.kids {
			if s := cmp.Or(p.get("text"), p.get("content")); s != nil && s.kind == '"' {
				texts = append(texts, s.text)
			}
		}
		return strings.Join(texts, "\n"), nil
	}
	return "", t.errorf(c.at, "%s: want a string, null or a list of text parts, got %s", what, jsonKind(c.kind))
}
