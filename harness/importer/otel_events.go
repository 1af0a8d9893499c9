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
// nanosecond in file order, span events before log records). Those
// conventions put the fields in the event's body: content, role,
// tool_calls and id, and for a choice index, finish_reason and message
// ({content, role, tool_calls}). A log record (resourceLogs) has a body; a
// span event has none, so its attributes hold the fields, or one attribute,
// gen_ai.event.content, holds them all as JSON (as Azure's SDKs write it).
// A structured field may be written as a string that holds its JSON. Only
// the choice of index 0 (or without an index) is the reply; other events
// of the span are ignored.
func (t *parsedTrace) otelEvents(s *otelSpan, c *chatCall) error {
	evs := slices.Clone(s.events)
	slices.SortStableFunc(evs, func(a, b otelEvent) int { return cmp.Compare(a.time, b.time) })
	c.list = s.eventsAt
	replied := false
	for _, e := range evs {
		role, isMessage := eventRoles[e.name]
		if !isMessage && (e.name != eventChoice || replied) {
			continue
		}
		what := fmt.Sprintf("%s: event %s", c.label, e.name)
		fields, err := t.eventBody(e, what)
		if err != nil {
			return err
		}
		if isMessage {
			m, err := t.eventFields(e.n, fields, role, what, true)
			if err != nil {
				return err
			}
			c.req = append(c.req, m)
			continue
		}
		if idx := fields["index"]; idx != nil && idx.text != "0" {
			continue
		}
		msg := fields["message"]
		if msg == nil {
			return t.errorf(e.n.at, "%s: no \"message\": want the reply", what)
		}
		if msg.kind == '"' {
			if msg, err = t.embedded(msg, what+": message"); err != nil {
				return err
			}
		}
		if msg.kind != '{' {
			return t.errorf(msg.at, "%s: message: want an object, got %s", what, jsonKind(msg.kind))
		}
		m, err := t.eventFields(msg, members(msg), "assistant", what+": message", false)
		if err != nil {
			return err
		}
		if err := t.setReply(c, []traceMessage{m}, msg.at, what+": message"); err != nil {
			return err
		}
		replied = true
	}
	if !replied {
		return t.errorf(s.n.at, "%s: no %s attribute and no %s event: a chat span records its input and its output (turn on the capture of message content; "+
			"when the events are log records in a file of their own, give it too: %s)", c.label, attrOutput, eventChoice, t.importHint("LOGS.json"))
	}
	return nil
}

// eventFieldNames are the fields of an event's body the reader takes.
var eventFieldNames = []string{"role", "content", "tool_calls", "id", "index", "finish_reason", "message"}

// eventBody returns an event's fields: the members of its
// gen_ai.event.content JSON, or its attributes (a log record's body's
// members), converted from AnyValues.
func (t *parsedTrace) eventBody(e otelEvent, what string) (map[string]*jnode, error) {
	if content := e.attrs["gen_ai.event.content"]; content != nil {
		body, err := t.jsonAttr(content, what+": gen_ai.event.content", '{')
		if err != nil {
			return nil, err
		}
		return members(body), nil
	}
	fields := map[string]*jnode{}
	for _, key := range eventFieldNames {
		if v := e.attrs[key]; v != nil {
			conv, err := t.anyValue(v, what+": "+key)
			if err != nil {
				return nil, err
			}
			fields[key] = conv
		}
	}
	return fields, nil
}

// members maps an object's keys to their values (the last of a repeated key).
func members(obj *jnode) map[string]*jnode {
	out := map[string]*jnode{}
	for i, key := range obj.keys {
		out[key] = obj.kids[i]
	}
	return out
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
