package importer

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// traceMessage is one OpenAI-style chat message of a trace.
type traceMessage struct {
	Role       string            `json:"role"`
	Content    json.RawMessage   `json:"content"`
	Name       string            `json:"name"`
	ToolCallID string            `json:"tool_call_id"`
	ToolCalls  []openai.ToolCall `json:"tool_calls"`

	text string // the content as text, redacted
	raw  []byte // the message as written in the trace
	at   int    // byte offset of the message in the trace
	// For a tool result: the call it answers (see checkCalls): its name
	// and arguments, the assistant message that made it and its place among
	// that message's calls (native, or recovered from its text: leaked).
	callName, callArgs string
	callMsg, callIndex int
	leaked             bool
	// For a message of an Anthropic Messages log: its JSON path in the
	// call (for errors), and the kinds of the blocks the scenario does not
	// replay as they were (thinking, redacted_thinking, image, document,
	// is_error), which the provenance counts.
	path    string
	omitted []string
	// For a message read from a JSON text that is not the message itself
	// (OTel's parts): raw is nil, and fields holds the offsets in the trace
	// of what stands for its fields (role, content, tool_calls,
	// tool_call_id). Its omitted are its parts that are not replayed.
	fields map[string]int
}

// parsedTrace is a parsed trace: its messages, and what positions its errors.
type parsedTrace struct {
	name string
	data []byte
	list int // byte offset of the list of messages
	msgs []traceMessage
	err  error // the first error of a walk (see otelSpans)
	// segs are the files of a trace given in several (empty for one).
	segs []segment
	// traceID picks the conversation of an OTel trace (see stitch).
	traceID string
	// command is the program as the user runs it (ImportOptions.Command),
	// which hints name (see importHint).
	command string
	// wire is the API the trace's model spoke when its format tells it
	// ("responses" for a Codex rollout or a Responses log), else "": an
	// imported session scenario names it, so that its model answers in
	// that API's bytes, custom tool calls included.
	wire string
	// format is the format it was read in (a FormatX name; "" for
	// OpenTelemetry spans, read from several files at once).
	format string
	// outer is the log that holds this trace, a message assembled from
	// an event stream at offset outerAt of outer (see sse.go).
	outer   *parsedTrace
	outerAt int
}

// errorf returns an error at byte offset off of the trace, as
// "name:line:col: ...", the column in characters.
func (t *parsedTrace) errorf(off int, format string, args ...any) error {
	if t.outer != nil {
		return t.outerError(fmt.Sprintf(format, args...))
	}
	name, line, col := t.position(off)
	return fmt.Errorf("%s:%d:%d: %s", name, line, col, escapeControls(fmt.Sprintf(format, args...)))
}

// escapeControls keeps an error on one line whatever a trace's keys and
// values hold: each control character (C0 and DEL) is written as Go
// escapes it (\r, \n, \x00).
func escapeControls(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// msgErrorf returns an error about message i at the value that path leads
// to in it (see locate), or at the message.
func (t *parsedTrace) msgErrorf(i int, path []any, format string, args ...any) error {
	m := t.msgs[i]
	at := m.at + locate(m.raw, path...)
	if len(path) > 0 && m.fields != nil {
		if off, ok := m.fields[fmt.Sprint(path[0])]; ok {
			at = off
		}
	}
	return t.errorf(at, "message %d: %s", i, fmt.Sprintf(format, args...))
}

// skipSpace returns the offset of the next value in data from i: past white
// space and the ',' or ':' before it.
func skipSpace(data []byte, i int) int {
	for i < len(data) && strings.IndexByte(" \t\r\n,:", data[i]) >= 0 {
		i++
	}
	return i
}

// locate returns the byte offset in v, one JSON value, of the value at path
// (object keys matched as encoding/json matches fields: the last key equal
// to the name regardless of case; list indexes as ints), or of the deepest
// part of the path that exists.
func locate(v []byte, path ...any) int {
	off := skipSpace(v, 0)
	for _, step := range path {
		found := child(v[off:], step)
		if found < 0 {
			break
		}
		off += found
	}
	return off
}

// parseTrace reads a bare list of messages or {"messages": [...]}, and
// checks that every tool result answers a call. Every error names the
// trace and the line:col of the problem: bad JSON, a byte that is not
// UTF-8, a wrong type, a missing field, a result without its call.
func parseTrace(data []byte, name string) (*parsedTrace, error) {
	if err := syntaxError(data, name); err != nil {
		return nil, err
	}
	t, err := newTrace(data, name)
	if err != nil {
		return nil, err
	}
	raws, err := t.messageList()
	if err != nil {
		return nil, err
	}
	t.msgs = make([]traceMessage, len(raws))
	for i, raw := range raws {
		t.msgs[i].raw, t.msgs[i].at = raw.data, raw.at
		if err := t.parseMessage(i); err != nil {
			return nil, err
		}
	}
	if err := t.checkCalls(); err != nil {
		return nil, err
	}
	return t, nil
}

// newTrace starts the trace of data, named name: an error at the first
// byte of data that is not UTF-8.
func newTrace(data []byte, name string) (*parsedTrace, error) {
	t := &parsedTrace{name: name, data: data}
	if off := invalidUTF8(data); off >= 0 {
		return nil, t.errorf(off, "invalid UTF-8 (byte 0x%02x): a trace is UTF-8 JSON", data[off])
	}
	return t, nil
}

// invalidUTF8 returns the offset of the first byte of data that is not
// part of a UTF-8 character, or -1.
func invalidUTF8(data []byte) int {
	if utf8.Valid(data) {
		return -1
	}
	for off := 0; ; {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size == 1 {
			return off
		}
		off += size
	}
}

type rawMessage struct {
	data []byte
	at   int
}

// messageList finds the list of messages, bare or under "messages" (the
// last key that encoding/json would take for it), and splits it.
func (t *parsedTrace) messageList() ([]rawMessage, error) {
	start := skipSpace(t.data, 0)
	t.list = start
	if start < len(t.data) && t.data[start] == '{' {
		at := child(t.data[start:], "messages")
		if at < 0 {
			return nil, t.errorf(start, "want a list of messages, bare or under \"messages\"")
		}
		t.list = start + at
		if t.data[t.list] != '[' {
			return nil, t.errorf(t.list, "field messages: want a list, got %s", jsonKind(t.data[t.list]))
		}
	} else if start < len(t.data) && t.data[start] != '[' {
		return nil, t.errorf(start, "want a JSON list of messages, bare or under \"messages\", got %s", jsonKind(t.data[start]))
	}
	return t.splitList()
}

// splitList splits the list of messages at t.list, whose syntax is
// checked: each message a slice of the trace, not a copy.
func (t *parsedTrace) splitList() ([]rawMessage, error) {
	var list []rawMessage
	for i := t.list + 1; ; {
		i = jsonlex.Space(t.data, i)
		if i >= len(t.data) || t.data[i] == ']' {
			return list, nil
		}
		if len(list) > 0 {
			i = jsonlex.Space(t.data, i+1) // the ','
		}
		end, ok := skipValue(t.data, i)
		if !ok {
			return nil, t.errorf(end, "invalid JSON")
		}
		list = append(list, rawMessage{t.data[i:end], i})
		i = end
	}
}

// jsonKind names the JSON value that starts with c.
func jsonKind(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// kindName is what a node of kind k is, for an error: jsonspan's kinds,
// where 'n' is a number and '0' null.
func kindName(k byte) string {
	switch k {
	case 'n':
		return "a number"
	case '0':
		return "null"
	}
	return jsonKind(k)
}

// parseMessage decodes and checks message i.
func (t *parsedTrace) parseMessage(i int) error {
	m := &t.msgs[i]
	if m.raw[0] != '{' {
		return t.msgErrorf(i, nil, "want an object, got %s", jsonKind(m.raw[0]))
	}
	if err := json.Unmarshal(m.raw, m); err != nil { // sets the JSON fields only
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			var path []any
			for _, f := range strings.Split(te.Field, ".") {
				path = append(path, f)
			}
			return t.msgErrorf(i, path[:1], "field %s: %s", te.Field, typeError(err))
		}
		return t.msgErrorf(i, nil, "%s", typeError(err))
	}
	switch m.Role {
	case "system", "developer", "user", "assistant", "tool":
	case "":
		return t.msgErrorf(i, nil, "field role: missing")
	default:
		return t.msgErrorf(i, []any{"role"}, "field role: %q is not system, user, assistant or tool", m.Role)
	}
	text, err := contentText(m.Content)
	if err != nil {
		return t.msgErrorf(i, []any{"content"}, "field content: %v", err)
	}
	m.text = text
	for j, tc := range m.ToolCalls {
		if tc.Function.Name == "" {
			return t.msgErrorf(i, []any{"tool_calls", j}, "field tool_calls[%d].function.name: missing", j)
		}
		if tc.ID == "" {
			return t.msgErrorf(i, []any{"tool_calls", j}, "field tool_calls[%d].id: missing", j)
		}
	}
	if m.Role == "tool" && m.ToolCallID == "" {
		return t.msgErrorf(i, nil, "field tool_call_id: missing on a tool message")
	}
	return nil
}

// checkCalls matches every tool result with the call it answers. A native
// call first: the latest one with its tool_call_id, made by an earlier
// assistant message and not yet answered (models that number their calls
// per turn reuse ids). Failing that, a call leaked as text that the agent
// recovered (an assistant message without native calls whose text holds
// calls, as RecoverLeaked finds them): the agent gave it an id of its own,
// which the trace cannot tie to the text, so the result answers the
// earliest unanswered leaked call with the tool message's name, or, when it
// has none or no such call is open, the earliest unanswered call of the
// latest message that leaked some. A result that answers no call, comes
// before its call, or answers a call a second time is an error at its
// tool_call_id; so is a trace with no user message to start a session from.
func (t *parsedTrace) checkCalls() error {
	type call struct{ msg, index int }
	open := map[string][]call{}  // unanswered native calls by id, oldest first
	answered := map[string]int{} // the last message that answered each id
	var leakedOpen []leakedRef   // unanswered leaked calls, in order
	human := false
	for i := range t.msgs {
		m := &t.msgs[i]
		human = human || m.Role == "user" && !strings.HasPrefix(m.text, "TURN-FAILED")
		if m.Role == "assistant" {
			for j, tc := range m.ToolCalls {
				open[tc.ID] = append(open[tc.ID], call{i, j})
			}
			if len(m.ToolCalls) == 0 {
				for j, c := range components.RecoverLeaked(m.text).Calls {
					leakedOpen = append(leakedOpen, leakedRef{msg: i, index: j, name: c.Name, args: string(c.Arguments)})
				}
			}
		}
		if m.Role != "tool" {
			continue
		}
		if calls := open[m.ToolCallID]; len(calls) > 0 {
			c := calls[len(calls)-1]
			open[m.ToolCallID] = calls[:len(calls)-1]
			answered[m.ToolCallID] = i
			tc := t.msgs[c.msg].ToolCalls[c.index]
			m.callName, m.callArgs, m.callMsg, m.callIndex = tc.Function.Name, tc.Function.Arguments, c.msg, c.index
			continue
		}
		k := answeredLeaked(leakedOpen, m.Name)
		if k < 0 {
			return t.unanswerable(i, answered)
		}
		c := leakedOpen[k]
		leakedOpen = slices.Delete(leakedOpen, k, k+1)
		m.callName, m.callArgs, m.callMsg, m.callIndex, m.leaked = c.name, c.args, c.msg, c.index, true
		answered[m.ToolCallID] = i
	}
	if !human {
		return t.errorf(t.list, "no user message (other than TURN-FAILED retries): a session starts from the user's question")
	}
	return nil
}

// leakedRef is a call recovered from an assistant message's text: the
// message, its place among that message's calls, its name and arguments.
type leakedRef struct {
	msg, index int
	name, args string
}

// answeredLeaked picks which of the open leaked calls a tool result named
// name answers: the earliest with that name, else the earliest of the
// latest message among them; -1 when none is open.
func answeredLeaked(open []leakedRef, name string) int {
	if name != "" {
		if k := slices.IndexFunc(open, func(c leakedRef) bool { return c.name == name }); k >= 0 {
			return k
		}
	}
	if len(open) == 0 {
		return -1
	}
	last := open[len(open)-1].msg
	return slices.IndexFunc(open, func(c leakedRef) bool { return c.msg == last })
}

// unanswerable explains why tool result i matches no open call.
func (t *parsedTrace) unanswerable(i int, answered map[string]int) error {
	id := t.msgs[i].ToolCallID
	at := []any{"tool_call_id"}
	if prev, ok := answered[id]; ok {
		return t.msgErrorf(i, at, "tool_call_id %q: that call was already answered by message %d", harness.Clip(id), prev)
	}
	for j := i + 1; j < len(t.msgs); j++ {
		for _, tc := range t.msgs[j].ToolCalls {
			if tc.ID == id && t.msgs[j].Role == "assistant" {
				return t.msgErrorf(i, at, "tool_call_id %q: the call with that id comes later, in message %d; a result follows its call", harness.Clip(id), j)
			}
		}
	}
	return t.msgErrorf(i, at, "tool_call_id %q matches no tool call of an earlier assistant message", harness.Clip(id))
}

func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("want a string, null or a list of text parts")
	}
	var texts []string
	for _, p := range parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}
