package importer

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/jsonspan"
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
		if idx := fields["index"]; idx != nil && idx.Str != "0" {
			continue
		}
		msg := fields["message"]
		if msg == nil {
			return t.errorf(e.n.Start, "%s: no \"message\": want the reply", what)
		}
		if msg.Kind == '"' {
			if msg, err = t.embedded(msg, what+": message"); err != nil {
				return err
			}
		}
		if msg.Kind != '{' {
			return t.errorf(msg.Start, "%s: message: want an object, got %s", what, kindName(msg.Kind))
		}
		m, err := t.eventFields(msg, members(msg), "assistant", what+": message", false)
		if err != nil {
			return err
		}
		if err := t.setReply(c, []traceMessage{m}, msg.Start, what+": message"); err != nil {
			return err
		}
		replied = true
	}
	if !replied {
		return t.errorf(s.n.Start, "%s: no %s attribute and no %s event: a chat span records its input and its output (turn on the capture of message content; "+
			"when the events are log records in a file of their own, give it too: %s)", c.label, attrOutput, eventChoice, t.importHint("LOGS.json"))
	}
	return nil
}

// eventFieldNames are the fields of an event's body the reader takes.
var eventFieldNames = []string{"role", "content", "tool_calls", "id", "index", "finish_reason", "message"}

// eventBody returns an event's fields: the members of its
// gen_ai.event.content JSON, or its attributes (a log record's body's
// members), converted from AnyValues.
func (t *parsedTrace) eventBody(e otelEvent, what string) (map[string]*jsonspan.Node, error) {
	if content := e.attrs["gen_ai.event.content"]; content != nil {
		body, err := t.jsonAttr(content, what+": gen_ai.event.content", '{')
		if err != nil {
			return nil, err
		}
		return members(body), nil
	}
	fields := map[string]*jsonspan.Node{}
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
func members(obj *jsonspan.Node) map[string]*jsonspan.Node {
	out := map[string]*jsonspan.Node{}
	for i, key := range obj.Keys {
		out[key] = obj.Vals[i]
	}
	return out
}

// eventFields maps an event's fields (JSON values) to a message of role,
// unless "role" says another.
func (t *parsedTrace) eventFields(n *jsonspan.Node, fields map[string]*jsonspan.Node, role, what string, input bool) (traceMessage, error) {
	m := traceMessage{Role: role, at: n.Start, fields: map[string]int{}}
	if r := fields["role"]; r != nil && r.Kind != '0' {
		if r.Kind != '"' {
			return m, t.errorf(r.Start, "%s: role: want a string, got %s", what, kindName(r.Kind))
		}
		m.Role, m.fields["role"] = r.Str, r.Start
	}
	if !slices.Contains([]string{"system", "developer", "user", "assistant", "tool"}, m.Role) {
		return m, t.errorf(cmp.Or(m.fields["role"], n.Start), "%s: role %q is not system, user, assistant or tool", what, m.Role)
	}
	if c := fields["content"]; c != nil {
		text, err := t.eventContent(c, what+": content")
		if err != nil {
			return m, err
		}
		m.text, m.fields["content"] = text, c.Start
	}
	if id := fields["id"]; id != nil && input {
		if id.Kind != '"' {
			return m, t.errorf(id.Start, "%s: id: want a string, got %s", what, kindName(id.Kind))
		}
		m.ToolCallID, m.fields["tool_call_id"] = id.Str, id.Start
	}
	if m.Role == "tool" && m.ToolCallID == "" {
		return m, t.errorf(n.Start, "%s: no id: a tool message names the call it answers", what)
	}
	if calls := fields["tool_calls"]; calls != nil && calls.Kind != '0' {
		var err error
		if calls.Kind == '"' {
			if calls, err = t.embedded(calls, what+": tool_calls"); err != nil {
				return m, err
			}
		}
		if calls.Kind != '[' {
			return m, t.errorf(calls.Start, "%s: tool_calls: want a list, got %s", what, kindName(calls.Kind))
		}
		m.fields["tool_calls"] = calls.Start
		for j, call := range calls.Vals {
			cw := fmt.Sprintf("%s: tool_calls[%d]", what, j)
			fn := call.Get("function")
			if call.Kind != '{' || fn == nil || fn.Kind != '{' {
				return m, t.errorf(call.Start, "%s: want {\"id\": ..., \"function\": {\"name\": ..., \"arguments\": ...}}", cw)
			}
			tc, err := t.toolCall(call, call.Get("id"), fn.Get("name"), fn.Get("arguments"), cw)
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
func (t *parsedTrace) eventContent(c *jsonspan.Node, what string) (string, error) {
	switch c.Kind {
	case '"':
		return c.Str, nil
	case '0':
		return "", nil
	case '[':
		var texts []string
		for _, p := range c.Vals {
			if s := cmp.Or(p.Get("text"), p.Get("content")); s != nil && s.Kind == '"' {
				texts = append(texts, s.Str)
			}
		}
		return strings.Join(texts, "\n"), nil
	}
	return "", t.errorf(c.Start, "%s: want a string, null or a list of text parts, got %s", what, kindName(c.Kind))
}
