package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/harness"
)

// isAnthropicLog tells whether data's first value is an Anthropic Messages
// call (or a list whose first element is one): an object with "request"
// or "response" and no "messages", whose response is {"type": "message"}
// (or "error", the API's error body) or, without a type, holds "content"
// and no "choices" (an OpenAI Chat Completions response holds "choices"
// and no "type"; its errors are {"error": ...}); when the response
// says neither, a request with a top-level "system" (OpenAI requests carry
// the system prompt as a message). A response that is a string, a captured
// event stream, is Anthropic's when it holds message_start.
func isAnthropicLog(data []byte) bool {
	call := firstCall(data)
	if call == nil || child(call, "messages") >= 0 {
		return false
	}
	if stream, ok := stringAt(call, "response"); ok {
		// An event stream: Anthropic's starts with message_start,
		// OpenAI's chunks have no event names.
		return strings.Contains(stream, "message_start")
	}
	if resp := objectAt(call, "response"); resp != nil {
		if child(resp, "type") < 0 && child(resp, "choices") < 0 && child(resp, "content") < 0 {
			if body := objectAt(resp, "body"); body != nil {
				resp = body
			}
		}
		if typ, ok := stringAt(resp, "type"); ok {
			return typ == "message" || typ == "error"
		}
		if child(resp, "choices") >= 0 {
			return false
		}
		if child(resp, "content") >= 0 {
			return true
		}
	}
	if req := objectAt(call, "request"); req != nil {
		return child(req, "system") >= 0
	}
	return false
}

// objectAt returns v from its member name on, if that is an object; nil
// if not, or if v ends after the name (child then returns len(v)).
func objectAt(v []byte, name string) []byte {
	if at := child(v, name); at >= 0 && at < len(v) && v[at] == '{' {
		return v[at:]
	}
	return nil
}

// firstCall returns data from its first value, an object, or from the
// first element of its first value, a list; nil when there is neither.
func firstCall(data []byte) []byte {
	start := jsonlex.Space(data, 0)
	if start < len(data) && data[start] == '[' {
		if at := child(data[start:], 0); at >= 0 {
			start += at
		}
	}
	if start >= len(data) || data[start] != '{' {
		return nil
	}
	return data[start:]
}

// stringAt returns the string member name of the object v, if it is one.
func stringAt(v []byte, name string) (string, bool) {
	at := child(v, name)
	if at < 0 || at >= len(v) || v[at] != '"' {
		return "", false
	}
	var s string
	err := json.NewDecoder(bytes.NewReader(v[at:])).Decode(&s)
	return s, err == nil
}

// parseAnthropicLog reads an Anthropic Messages log: calls {"request":
// {...}, "response": {...}}, one a line (JSONL), or one pretty-printed
// object, or a JSON list of them. Each call's request must extend the one
// before it, answered; the conversation is the last request's messages and
// its reply. See doc.go for the mapping onto chat messages.
func parseAnthropicLog(data []byte, name string) (*parsedTrace, error) {
	t, err := newTrace(data, name)
	if err != nil {
		return nil, err
	}
	spans, err := t.anthSpans()
	if err != nil {
		return nil, err
	}
	if len(spans) == 0 {
		return nil, t.errorf(0, "no LLM call: an Anthropic Messages log holds {\"request\": ..., \"response\": ...} calls, one a line")
	}
	read := func(k int) (*chatCall, error) { return t.anthCall(spans[k]) }
	if err := t.chain(len(spans), read, t.anthExtends); err != nil {
		return nil, err
	}
	if err := t.anthAnswers(); err != nil {
		return nil, err
	}
	if err := t.checkCalls(); err != nil {
		return nil, err
	}
	return t, nil
}

// anthSpans splits the log into calls, their syntax checked: a JSON list
// (the input starts with '['), one object pretty-printed (its first line
// is a lone '{'), else JSONL, one call a line, blank lines skipped.
func (t *parsedTrace) anthSpans() ([]span, error) {
	data := t.data
	start := jsonlex.Space(data, 0)
	if start == len(data) {
		return nil, nil
	}
	firstLine := data[start:]
	if i := bytes.IndexByte(firstLine, '\n'); i >= 0 {
		firstLine = firstLine[:i]
	}
	whole := data[start] == '[' || string(bytes.TrimSpace(firstLine)) == "{"
	if whole {
		if at, msg := syntaxOffset(data); at >= 0 {
			return nil, t.errorf(at, "%s", msg)
		}
		end := len(bytes.TrimRight(data, " \t\r\n"))
		if data[start] == '{' {
			line, _ := jsonlex.LineCol(data, start)
			return []span{{start, end, line}}, nil
		}
		items, err := t.items(start)
		if err != nil {
			return nil, err
		}
		spans := make([]span, len(items))
		line, from := 1, 0
		for i, it := range items {
			line += bytes.Count(data[from:it.at], []byte{'\n'})
			from = it.at
			spans[i] = span{it.at, it.at + len(it.data), line}
		}
		return spans, nil
	}
	spans := jsonLines(data)
	for _, s := range spans {
		if at, msg := syntaxOffset(data[s.start:s.end]); at >= 0 {
			return nil, t.errorf(s.start+at, "%s", msg)
		}
	}
	return spans, nil
}

// items splits the JSON list at offset off of t.data, its syntax checked.
func (t *parsedTrace) items(off int) ([]rawMessage, error) {
	lt := *t
	lt.list = off
	return lt.splitList()
}

// anthCall reads the call in span s: its request's system prompt and
// messages, and its response.
func (t *parsedTrace) anthCall(s span) (*chatCall, error) {
	obj := jsonlex.Space(t.data, s.start)
	if t.data[obj] != '{' {
		return nil, t.errorf(obj, "want an LLM call, {\"request\": ..., \"response\": ...}, got %s", jsonKind(t.data[obj]))
	}
	req, err := t.member(obj, "request")
	if err != nil {
		return nil, err
	}
	stream := t.streamed(obj, s.end)
	resp := stream
	if stream < 0 {
		if resp, err = t.member(obj, "response"); err != nil {
			return nil, err
		}
	}
	c := &chatCall{label: fmt.Sprintf("line %d", s.line), words: &requestWords}
	if c.list, err = t.listAt(req, s.end, "request", "messages"); err != nil {
		return nil, err
	}
	if at := child(t.data[req:s.end], "system"); at >= 0 {
		sys, err := t.anthSystem(req + at)
		if err != nil {
			return nil, err
		}
		if sys.text != "" {
			c.req = append(c.req, sys)
		}
	}
	msgs, err := t.items(c.list)
	if err != nil {
		return nil, err
	}
	for k, m := range msgs {
		if c.req, err = t.anthMessage(k, m, c.req); err != nil {
			return nil, err
		}
	}
	if n := len(msgs); n > 0 && c.req[len(c.req)-1].Role == "assistant" {
		// The reply continues the prefill: replaying them as two turns
		// would script a conversation that did not happen.
		last := msgs[n-1]
		return nil, t.fieldErr(last.at, last.data, fmt.Sprintf("request.messages[%d]", n-1), []any{"role"},
			"the request ends with an assistant message, a prefill its reply continues: a log replays whole turns")
	}
	if stream >= 0 {
		c.reply, err = t.anthStream(stream)
		return c, err
	}
	c.reply, err = t.anthReply(resp)
	return c, err
}

// anthExtends checks that c's request starts with prev's request and
// reply, as the agent sent them on (see sameAnth), and gives each message
// the record of its blocks left out from its earliest appearance (an
// agent may drop the thinking of earlier turns from its requests).
func (t *parsedTrace) anthExtends(prev, c *chatCall) error {
	want := append(slices.Clip(prev.req), prev.reply)
	w := c.words
	for i, m := range want {
		if i >= len(c.req) {
			return t.errorf(c.list, "the %s ends before %s's %s and %s do: %s", w.req, prev.label, w.req, w.reply, w.rule)
		}
		if !sameAnth(m, c.req[i]) {
			from := w.req
			if i == len(prev.req) {
				from = w.reply
			}
			at, where := differsAt(m, c.req[i])
			return t.errorf(at, "%s differs from %s's %s: %s", where, prev.label, from, w.rule)
		}
		if len(m.omitted) > len(c.req[i].omitted) {
			c.req[i].omitted = m.omitted
		}
	}
	return nil
}

// differsAt returns where b, which says something else than a, differs:
// the offset and JSON path of its role, its tool_use_id or its content,
// when it has that member, else of b itself.
func differsAt(a, b traceMessage) (int, string) {
	field := "content"
	switch {
	case a.Role != b.Role:
		field = "role"
	case a.ToolCallID != b.ToolCallID:
		field = "tool_use_id"
	}
	if at := child(b.raw, field); at >= 0 {
		return b.at + at, b.path + "." + field
	}
	return b.at, b.path
}

// sameAnth tells whether a and b say the same: role, text, tool_use_id,
// and tool calls (id, name, and input: the same JSON, whatever its
// spacing, key order or number spelling, since a client decodes the
// response's input and encodes it again in its next request).
func sameAnth(a, b traceMessage) bool {
	return a.Role == b.Role && a.text == b.text && a.ToolCallID == b.ToolCallID && len(a.ToolCalls) == len(b.ToolCalls) &&
		slices.EqualFunc(a.ToolCalls, b.ToolCalls, func(x, y openai.ToolCall) bool {
			return x.ID == y.ID && x.Function.Name == y.Function.Name && jsonEqual(x.Function.Arguments, y.Function.Arguments)
		})
}

// jsonEqual tells whether a and b are the same JSON value.
func jsonEqual(a, b string) bool {
	if a == b {
		return true
	}
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// anthAnswers checks the pairing of tool_result blocks (answers) at
// their tool_use_id.
func (t *parsedTrace) anthAnswers() error {
	return t.answersOnce(answerWords{"tool_use_id", "tool_use", "tool_use of an earlier assistant message"},
		func(m *traceMessage) int { return m.at + locate(m.raw, "tool_use_id") })
}

// answerWords name, in a wire's own terms, the field of a result that
// names its call, a call, and where a call must stand.
type answerWords struct{ field, call, earlier string }

// answersOnce checks that each tool message answers a call of an earlier
// assistant turn that no result answered yet (the latest with its id, as
// checkCalls pairs them); an error stands at the offset at gives.
func (t *parsedTrace) answersOnce(w answerWords, at func(m *traceMessage) int) error {
	open := map[string]int{}
	answered := map[string]bool{}
	for i := range t.msgs {
		m := &t.msgs[i]
		for _, tc := range m.ToolCalls {
			open[tc.ID]++
		}
		if m.Role != "tool" {
			continue
		}
		if id := m.ToolCallID; open[id] > 0 {
			open[id]--
			answered[id] = true
			continue
		}
		if answered[m.ToolCallID] {
			return t.errorf(at(m), "%s.%s: %q: that %s was already answered", m.path, w.field, harness.Clip(m.ToolCallID), w.call)
		}
		return t.errorf(at(m), "%s.%s: %q answers no %s", m.path, w.field, harness.Clip(m.ToolCallID), w.earlier)
	}
	return nil
}
