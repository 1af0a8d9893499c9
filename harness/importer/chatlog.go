package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// isChatLog tells whether data's first value is an object that holds an
// LLM call, a request or a response, rather than messages.
func isChatLog(data []byte) bool {
	start := skipSpace(data, 0)
	if start >= len(data) || data[start] != '{' {
		return false
	}
	first := data[start:]
	return child(first, "messages") < 0 && (child(first, "request") >= 0 || child(first, "response") >= 0)
}

// parseChatLog reads a chat completions log: one LLM call a line,
// {"request": {"messages": [...]}, "response": {"choices": [{"message":
// {...}}]}} ("body" for "request", and a response wrapped as {"body":
// {...}}, are accepted too). Each call's request must extend the one
// before it, answered: its messages start with the earlier request's and
// that call's reply. The conversation is the last request's messages and
// its reply; the trace's positions are those of the log.
func parseChatLog(data []byte, name string) (*parsedTrace, error) {
	t, err := newTrace(data, name)
	if err != nil {
		return nil, err
	}
	lines := jsonLines(data)
	if len(lines) == 0 {
		return nil, t.errorf(0, "no LLM call: a chat completions log holds one {\"request\": ..., \"response\": ...} a line")
	}
	read := func(k int) (*chatCall, error) { return t.chatCall(lines[k]) }
	if err := t.chain(len(lines), read, t.extends); err != nil {
		return nil, err
	}
	if err := t.checkCalls(); err != nil {
		return nil, err
	}
	return t, nil
}

// chatCall parses the line of data in s.
func (t *parsedTrace) chatCall(s span) (*chatCall, error) {
	start, end := s.start, s.end
	if at, msg := syntaxOffset(t.data[start:end]); at >= 0 {
		return nil, t.errorf(start+at, "%s", msg)
	}
	obj := skipSpace(t.data, start)
	if t.data[obj] != '{' {
		return nil, t.errorf(obj, "want an LLM call, {\"request\": ..., \"response\": ...}, got %s", jsonKind(t.data[obj]))
	}
	req, err := t.member(obj, "request", "body")
	if err != nil {
		return nil, err
	}
	if stream := t.streamed(obj, end); stream >= 0 {
		return t.chatStreamCall(s, req, stream)
	}
	resp, err := t.member(obj, "response")
	if err != nil {
		return nil, err
	}
	if child(t.data[resp:end], "choices") < 0 && child(t.data[resp:end], "body") >= 0 {
		if resp, err = t.member(resp, "body"); err != nil {
			return nil, err
		}
	}
	c := &chatCall{label: fmt.Sprintf("line %d", s.line), words: &requestWords}
	if c.list, err = t.listAt(req, end, "request", "messages"); err != nil {
		return nil, err
	}
	choices, err := t.listAt(resp, end, "response", "choices")
	if err != nil {
		return nil, err
	}
	lt := &parsedTrace{name: t.name, data: t.data, list: c.list}
	raws, err := lt.splitList()
	if err != nil {
		return nil, err
	}
	first := child(t.data[choices:end], 0)
	if first < 0 {
		return nil, t.errorf(choices, "field response.choices: empty; want the reply in choices[0].message")
	}
	msg, err := t.member(choices+first, "message")
	if err != nil {
		return nil, err
	}
	raws = append(raws, rawMessage{t.valueAt(msg), msg})
	lt.msgs = make([]traceMessage, len(raws))
	for i, raw := range raws {
		lt.msgs[i].raw, lt.msgs[i].at = raw.data, raw.at
		if err := lt.parseMessage(i); err != nil {
			return nil, err
		}
	}
	c.req, c.reply = lt.msgs[:len(raws)-1], lt.msgs[len(raws)-1]
	if c.reply.Role != "assistant" {
		return nil, lt.msgErrorf(len(raws)-1, []any{"role"}, "the response's message: role %q, want assistant", c.reply.Role)
	}
	return c, nil
}

// chatStreamCall reads the call in s whose request is at req and whose
// response is the event stream at stream.
func (t *parsedTrace) chatStreamCall(s span, req, stream int) (*chatCall, error) {
	c := &chatCall{label: fmt.Sprintf("line %d", s.line), words: &requestWords}
	var err error
	if c.list, err = t.listAt(req, s.end, "request", "messages"); err != nil {
		return nil, err
	}
	lt := &parsedTrace{name: t.name, data: t.data, list: c.list}
	raws, err := lt.splitList()
	if err != nil {
		return nil, err
	}
	lt.msgs = make([]traceMessage, len(raws))
	for i, raw := range raws {
		lt.msgs[i].raw, lt.msgs[i].at = raw.data, raw.at
		if err := lt.parseMessage(i); err != nil {
			return nil, err
		}
	}
	c.req = lt.msgs
	if c.reply, err = t.chatStream(stream); err != nil {
		return nil, err
	}
	if c.reply.Role != "assistant" {
		return nil, t.errorf(stream, "response: the event stream's message: role %q, want assistant", c.reply.Role)
	}
	return c, nil
}

// valueAt returns the JSON value at offset at of t.data (its syntax checked).
func (t *parsedTrace) valueAt(at int) []byte {
	var raw json.RawMessage
	_ = json.NewDecoder(bytes.NewReader(t.data[at:])).Decode(&raw)
	return raw
}

// member returns the offset of the object at obj's first member among
// names that exists, which must be an object.
func (t *parsedTrace) member(obj int, names ...string) (int, error) {
	for _, n := range names {
		if at := child(t.data[obj:], n); at >= 0 {
			if t.data[obj+at] != '{' {
				return 0, t.errorf(obj+at, "field %s: want an object, got %s", n, jsonKind(t.data[obj+at]))
			}
			return obj + at, nil
		}
	}
	missing := fmt.Sprintf("%q", names[0])
	if len(names) > 1 {
		missing += fmt.Sprintf(" (or %q)", names[1])
	}
	return 0, t.errorf(obj, "want an LLM call, {\"request\": ..., \"response\": ...}: no %s", missing)
}

// listAt returns the offset of the list field of the object at obj.
func (t *parsedTrace) listAt(obj, end int, what, field string) (int, error) {
	at := child(t.data[obj:end], field)
	if at < 0 {
		return 0, t.errorf(obj, "field %s.%s: missing", what, field)
	}
	if t.data[obj+at] != '[' {
		return 0, t.errorf(obj+at, "field %s.%s: want a list, got %s", what, field, jsonKind(t.data[obj+at]))
	}
	return obj + at, nil
}
