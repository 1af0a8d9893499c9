package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/toolout/toolout/core/gateway/openai"
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

// chatCall is one line of a chat completions log: its request's messages
// and its response's assistant message, at their offsets in the log.
type chatCall struct {
	label string // names the call in errors: "line 3"
	words *callWords
	list  int // byte offset of the request's list of messages
	req   []traceMessage
	reply traceMessage
}

// callWords name a format's calls' parts in errors: the request, the
// reply, and the rule that each call extends the one before.
type callWords struct{ req, reply, rule string }

var chatLogWords = callWords{"request", "reply", "each call's request extends the one before it"}

// parseChatLog reads a chat completions log: one LLM call a line,
// {"request": {"messages": [...]}, "response": {"choices": [{"message":
// {...}}]}} ("body" for "request", and a response wrapped as {"body":
// {...}}, are accepted too). Each call's request must extend the one
// before it, answered: its messages start with the earlier request's and
// that call's reply. The conversation is the last request's messages and
// its reply; the trace's positions are those of the log.
func parseChatLog(data []byte, name string) (*parsedTrace, error) {
	t := &parsedTrace{name: name, data: data}
	if off := invalidUTF8(data); off >= 0 {
		return nil, t.errorf(off, "invalid UTF-8 (byte 0x%02x): a trace is UTF-8 JSON", data[off])
	}
	var prev *chatCall
	for start, line := 0, 1; start < len(data); line++ {
		end := len(data)
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			end = start + i
		}
		if len(bytes.TrimSpace(data[start:end])) > 0 {
			c, err := t.chatCall(start, end, line)
			if err != nil {
				return nil, err
			}
			if prev != nil {
				if err := t.extends(prev, c); err != nil {
					return nil, err
				}
			}
			prev = c
		}
		start = end + 1
	}
	if prev == nil {
		return nil, t.errorf(0, "no LLM call: a chat completions log holds one {\"request\": ..., \"response\": ...} a line")
	}
	t.list, t.msgs = prev.list, append(prev.req, prev.reply)
	if err := t.checkCalls(); err != nil {
		return nil, err
	}
	return t, nil
}

// chatCall parses the line of data from start to end, number line.
func (t *parsedTrace) chatCall(start, end, line int) (*chatCall, error) {
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
	resp, err := t.member(obj, "response")
	if err != nil {
		return nil, err
	}
	if child(t.data[resp:end], "choices") < 0 && child(t.data[resp:end], "body") >= 0 {
		if resp, err = t.member(resp, "body"); err != nil {
			return nil, err
		}
	}
	c := &chatCall{label: fmt.Sprintf("line %d", line), words: &chatLogWords}
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

// extends checks that c's request starts with prev's request and reply.
func (t *parsedTrace) extends(prev, c *chatCall) error {
	want := append(slices.Clip(prev.req), prev.reply)
	w := c.words
	for i, m := range want {
		if i >= len(c.req) {
			return t.errorf(c.list, "the %s holds %d messages, not the %d of %s's %s and %s before its own: %s",
				w.req, len(c.req), len(want), prev.label, w.req, w.reply, w.rule)
		}
		if !sameMessage(m, c.req[i]) {
			from := w.req
			if i == len(prev.req) {
				from = w.reply
			}
			return t.errorf(c.req[i].at, "message %d differs from %s's %s: %s", i, prev.label, from, w.rule)
		}
	}
	return nil
}

// sameMessage tells whether a and b say the same: role, content text, tool
// calls (id, name, arguments) and tool_call_id.
func sameMessage(a, b traceMessage) bool {
	return a.Role == b.Role && a.text == b.text && a.ToolCallID == b.ToolCallID &&
		slices.EqualFunc(a.ToolCalls, b.ToolCalls, func(x, y openai.ToolCall) bool {
			return x.ID == y.ID && x.Function.Name == y.Function.Name && x.Function.Arguments == y.Function.Arguments
		})
}
