package importer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/harness"
)

// isResponsesLog tells whether data's first value (or its list's first
// element) is an OpenAI Responses API call: an object with no "messages"
// whose request has an "input" (and no "messages"), or whose response is
// a Responses event stream (its events are named response.*) or an object
// with "output", or {"object": "response"}.
func isResponsesLog(data []byte) bool {
	call := firstCall(data)
	if call == nil || child(call, "messages") >= 0 {
		return false
	}
	if req := objectAt(call, "request"); req != nil && child(req, "messages") < 0 && child(req, "input") >= 0 {
		return true
	}
	if stream, ok := stringAt(call, "response"); ok {
		return strings.Contains(stream, "response.created") || strings.Contains(stream, "response.completed")
	}
	resp := objectAt(call, "response")
	if resp == nil {
		return false
	}
	if child(resp, "output") < 0 {
		if body := objectAt(resp, "body"); body != nil {
			resp = body
		}
	}
	if obj, ok := stringAt(resp, "object"); ok {
		return obj == "response"
	}
	return child(resp, "output") >= 0
}

// parseResponsesLog reads a log of Responses API calls, {"request":
// {"instructions", "input", "previous_response_id", ...}, "response":
// {"id", "status", "output": [...]}} (or the response's event stream
// text): JSONL, one call a line, or one pretty-printed object, or a JSON
// list. Each call's conversation (the history its previous_response_id
// names, then its input) must extend the one before it, answered; the
// conversation is the last call's instructions, its conversation and its
// reply. See doc.go for the mapping of items onto chat messages.
func parseResponsesLog(data []byte, name string) (*parsedTrace, error) {
	t, err := newTrace(data, name)
	if err != nil {
		return nil, err
	}
	spans, err := t.anthSpans()
	if err != nil {
		return nil, err
	}
	if len(spans) == 0 {
		return nil, t.errorf(0, "no LLM call: a Responses log holds {\"request\": ..., \"response\": ...} calls, one a line")
	}
	t.wire = "responses"
	l := &respLog{t: t, byID: map[string]*chatCall{}, linked: map[*chatCall]bool{}}
	var system []traceMessage
	read := func(k int) (*chatCall, error) {
		c, id, sys, err := l.call(spans[k])
		if err == nil && id != "" {
			l.byID[id] = c
		}
		l.last, system = c, sys
		return c, err
	}
	if err := t.chain(len(spans), read, l.extends); err != nil {
		return nil, err
	}
	t.msgs = append(system, t.msgs...)
	if err := t.respAnswers(); err != nil {
		return nil, err
	}
	return t, t.checkCalls()
}

// respLog is the state of a Responses log's reading: the calls read by
// their response's id, the last one, and the calls that continue the one
// before them by its id (linked).
type respLog struct {
	t      *parsedTrace
	byID   map[string]*chatCall
	last   *chatCall
	linked map[*chatCall]bool
}

// extends checks that c's conversation starts with prev's and its reply
// (anthExtends), unless c names prev's response as its previous one: it
// then holds prev's messages themselves, and comparing them call after
// call would cost the square of the calls.
func (l *respLog) extends(prev, c *chatCall) error {
	if l.linked[c] {
		return nil
	}
	return l.t.anthExtends(prev, c)
}

// call reads the call in span s: its conversation (see
// parseResponsesLog), its reply, its response's id, and the system
// message of its instructions (none when it has none).
func (l *respLog) call(s span) (*chatCall, string, []traceMessage, error) {
	t := l.t
	// request.input and response.output are read an item at a time.
	n := lazyTree(t.data[s.start:s.end], s.start, "input", "output")
	what := fmt.Sprintf("line %d", s.line)
	if n.Kind != '{' {
		return nil, "", nil, t.errorf(n.Start, "want an LLM call, {\"request\": ..., \"response\": ...}, got %s", kindName(n.Kind))
	}
	req := n.Get("request")
	if req == nil {
		req = n.Get("body") // the Batch API's line
	}
	if req == nil || req.Kind != '{' {
		return nil, "", nil, t.fieldError(n, "request", what, "an object")
	}
	c := &chatCall{label: what, words: &requestWords, list: req.Start}
	var system []traceMessage
	if ins := req.Get("instructions"); ins != nil && ins.Kind != '0' {
		if ins.Kind != '"' {
			return nil, "", nil, t.errorf(ins.Start, "request.instructions: want a string, got %s", kindName(ins.Kind))
		}
		if ins.Str != "" {
			system = []traceMessage{{Role: "system", text: ins.Str, at: ins.Start, path: "request.instructions", fields: map[string]int{"role": ins.Start, "content": ins.Start}}}
		}
	}
	r := &respReader{t: t}
	if err := l.history(c, req, r); err != nil {
		return nil, "", nil, err
	}
	if err := r.input(req); err != nil {
		return nil, "", nil, err
	}
	c.req = r.out
	if last := c.req[len(c.req)-1]; last.Role == "assistant" {
		return nil, "", nil, t.errorf(last.at, "%s: the request ends with the assistant's turn, which its reply would continue: a log replays whole turns", last.path)
	}
	reply, id, err := t.respReply(n, what)
	c.reply = reply
	return c, id, system, err
}

// history starts r with the conversation that the request's
// previous_response_id names: that call's and its reply. Continuing the
// last call, r appends to its messages in place (each call of a long
// chain would copy them all: the square of the calls); any other call's
// are copied, so that the calls after it keep theirs.
func (l *respLog) history(c *chatCall, req *jsonspan.Node, r *respReader) error {
	prev := req.Get("previous_response_id")
	if prev == nil || prev.Kind == '0' {
		return nil
	}
	if prev.Kind != '"' {
		return l.t.errorf(prev.Start, "request.previous_response_id: want a string, got %s", kindName(prev.Kind))
	}
	p := l.byID[prev.Str]
	switch {
	case p == nil:
		return l.t.errorf(prev.Start, "request.previous_response_id: %q names no response of an earlier call of the log: its history is held by the provider", harness.Clip(prev.Str))
	case p == l.last:
		r.out = append(p.req, p.reply)
		l.linked[c] = true
	default:
		r.out = append(slices.Clip(p.req), p.reply)
	}
	return nil
}

// input maps the request's input: a string, the user's message, or a
// list of items.
func (r *respReader) input(req *jsonspan.Node) error {
	in := req.Get("input")
	switch {
	case in == nil || in.Kind == '0':
		return r.t.fieldError(req, "input", "request", "a string or a list of items")
	case in.Kind == '"':
		r.open = false
		r.add(traceMessage{Role: "user", text: in.Str, at: in.Start, path: "request.input", fields: map[string]int{"role": in.Start, "content": in.Start}})
		return nil
	case in.Kind != '[':
		return r.t.errorf(in.Start, "request.input: want a string or a list of items, got %s", kindName(in.Kind))
	}
	r.open = false // the history's reply, if any, is a turn of its own
	if err := in.Each(func(k int, it *jsonspan.Node) error { return r.item(it, fmt.Sprintf("request.input[%d]", k)) }); err != nil {
		return err
	}
	r.finish()
	if len(r.out) == 0 {
		return r.t.errorf(in.Start, "request.input: no message")
	}
	return nil
}

// respReply reads the response of the call n (named what): an object, or
// wrapped {"status_code", "body": {...}}, or the text of its event
// stream. Its output items must all be the model's (one assistant turn).
func (t *parsedTrace) respReply(n *jsonspan.Node, what string) (traceMessage, string, error) {
	resp := n.Get("response")
	switch {
	case resp == nil:
		return traceMessage{}, "", t.fieldError(n, "response", what, "an object")
	case resp.Kind == '"':
		return t.respStream(resp)
	case resp.Kind != '{':
		return traceMessage{}, "", t.errorf(resp.Start, "response: want an object or an event stream's text, got %s", kindName(resp.Kind))
	}
	if resp.Get("output") == nil && resp.Get("body") != nil && resp.Get("body").Kind == '{' {
		resp = resp.Get("body")
	}
	return t.respOutput(resp, "response")
}

// respOutput reads the response object resp, named where: its status, its
// error, and its output, mapped onto one assistant message; and its id.
func (t *parsedTrace) respOutput(resp *jsonspan.Node, where string) (traceMessage, string, error) {
	if st := resp.Get("status"); st != nil && st.Kind == '"' && !slices.Contains([]string{"completed", "incomplete"}, st.Str) {
		return traceMessage{}, "", t.errorf(st.Start, "%s.status: %q: a log replays the calls that were answered", where, st.Str)
	}
	if e := resp.Get("error"); e != nil && e.Kind != '0' {
		return traceMessage{}, "", t.errorf(e.Start, "%s.error: the call failed: a log replays the calls that were answered", where)
	}
	out := resp.Get("output")
	if out == nil || out.Kind != '[' {
		return traceMessage{}, "", t.fieldError(resp, "output", where, "a list of items")
	}
	r := &respReader{t: t}
	if err := out.Each(func(k int, it *jsonspan.Node) error { return r.item(it, fmt.Sprintf("%s.output[%d]", where, k)) }); err != nil {
		return traceMessage{}, "", err
	}
	r.finish()
	if len(r.out) == 0 {
		return traceMessage{}, "", t.errorf(out.Start, "%s.output: empty: no reply", where)
	}
	if i := slices.IndexFunc(r.out, func(m traceMessage) bool { return m.Role != "assistant" }); i >= 0 {
		m := r.out[i]
		return traceMessage{}, "", t.errorf(m.at, "%s: a %s item in the output: a response holds the model's items", m.path, m.Role)
	}
	id, _ := t.textField(resp, "id", where, false)
	return r.out[0], id, nil
}
