package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core/gateway/openai"
)

// The texts that stand for content the importer does not replay as it was
// (see doc.go): an image or a document in a user message or a tool result
// becomes a placeholder of its kind.
const (
	imagePlaceholder    = "[image not imported]"
	documentPlaceholder = "[document not imported]"
)

// The joiners of text blocks: what the agent and the model saw. A user
// message's and the system prompt's blocks are separate paragraphs of the
// prompt; an assistant message's are one reply (the API splits a text
// around its citations, with the spaces inside the blocks) and a tool
// result's one output (as toolout's gateway reads it: N bytes of text in
// any number of blocks are those N bytes).
const (
	promptJoiner = "\n"
	replyJoiner  = ""
)

// fieldErr returns an error at the value that path leads to in raw, the
// JSON value at offset at of the trace whose JSON path is where: "where.path:
// problem".
func (t *parsedTrace) fieldErr(at int, raw []byte, where string, path []any, format string, args ...any) error {
	for _, step := range path {
		if i, ok := step.(int); ok {
			where += fmt.Sprintf("[%d]", i)
		} else {
			where += "." + step.(string)
		}
	}
	return t.errorf(at+locate(raw, path...), "%s: %s", where, fmt.Sprintf(format, args...))
}

// decodeAt decodes raw, an object at offset at named where, into v; a
// value of the wrong type is an error at that value.
func (t *parsedTrace) decodeAt(raw []byte, at int, where string, v any) error {
	if raw[0] != '{' {
		return t.fieldErr(at, raw, where, nil, "want an object, got %s", jsonKind(raw[0]))
	}
	err := json.Unmarshal(raw, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		var path []any
		for _, f := range strings.Split(te.Field, ".") {
			path = append(path, f)
		}
		return t.fieldErr(at, raw, where, path, "%s", typeError(err))
	}
	if err != nil {
		return t.fieldErr(at, raw, where, nil, "%s", typeError(err))
	}
	return nil
}

// anthSystem reads the request's system prompt at offset at: a string, a
// list of text blocks (joined by promptJoiner), or null.
func (t *parsedTrace) anthSystem(at int) (traceMessage, error) {
	return t.systemText(at, "request.system")
}

// systemText reads a system text at offset at, named path: the request's
// "system", or the content of a system message inside its messages.
func (t *parsedTrace) systemText(at int, path string) (traceMessage, error) {
	raw := t.valueAt(at)
	m := traceMessage{Role: "system", raw: raw, at: at, path: path}
	switch raw[0] {
	case 'n':
		return m, nil
	case '"':
		err := json.Unmarshal(raw, &m.text)
		return m, err
	case '[':
	default:
		return m, t.errorf(at, "%s: want a string or a list of text blocks, got %s", path, jsonKind(raw[0]))
	}
	blocks, err := t.items(at)
	if err != nil {
		return m, err
	}
	var parts []string
	for j, b := range blocks {
		var tb struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		where := fmt.Sprintf("%s[%d]", path, j)
		if err := t.decodeAt(b.data, b.at, where, &tb); err != nil {
			return m, err
		}
		if tb.Type != "text" {
			return m, t.fieldErr(b.at, b.data, where, []any{"type"}, "want a text block, got type %q", tb.Type)
		}
		if tb.Text == nil {
			return m, t.fieldErr(b.at, b.data, where, []any{"text"}, "missing")
		}
		parts = append(parts, *tb.Text)
	}
	m.text = strings.Join(parts, promptJoiner)
	return m, nil
}

// anthMessage maps request.messages[k] onto chat messages, appended to
// out: an assistant message is one message (its text, its tool_use blocks
// as tool calls); a user message is a tool message per tool_result block,
// in order, then a user message of its other blocks, if it has any or no
// tool_result; a system message (Claude Code sends its environment as one)
// is a system message in its place, read as the request's system is, left
// out when its text is empty.
func (t *parsedTrace) anthMessage(k int, raw rawMessage, out []traceMessage) ([]traceMessage, error) {
	where := fmt.Sprintf("request.messages[%d]", k)
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := t.decodeAt(raw.data, raw.at, where, &m); err != nil {
		return nil, err
	}
	switch m.Role {
	case "user", "assistant":
	case "system":
		return t.anthSystemMessage(raw, where, m.Content, out)
	case "":
		return nil, t.fieldErr(raw.at, raw.data, where, []any{"role"}, "missing")
	default:
		return nil, t.fieldErr(raw.at, raw.data, where, []any{"role"}, "want \"user\", \"assistant\" or \"system\", got %q", m.Role)
	}
	msg := traceMessage{Role: m.Role, raw: raw.data, at: raw.at, path: where}
	c, err := t.anthContent(&msg, m.Content)
	if err != nil {
		return nil, err
	}
	out = append(out, c.results...)
	if m.Role == "assistant" || c.parts != nil || c.results == nil {
		joiner := promptJoiner
		if m.Role == "assistant" {
			joiner = replyJoiner
		}
		msg.text = strings.Join(c.parts, joiner)
		out = append(out, msg)
	}
	return out, nil
}

// anthSystemMessage appends the system message raw, named where, whose
// content is content, to out: its text, unless empty. Its content is
// required (null is missing), a string or a list of text blocks.
func (t *parsedTrace) anthSystemMessage(raw rawMessage, where string, content json.RawMessage, out []traceMessage) ([]traceMessage, error) {
	if content == nil || string(content) == "null" {
		return nil, t.fieldErr(raw.at, raw.data, where, []any{"content"}, "missing")
	}
	sys, err := t.systemText(raw.at+locate(raw.data, "content"), where+".content")
	if err != nil {
		return nil, err
	}
	sys.raw, sys.at, sys.path = raw.data, raw.at, where // a difference is named at its role or content
	if sys.text == "" {
		return out, nil
	}
	return append(out, sys), nil
}

// anthReply maps the response at offset at: {"type": "message", "role":
// "assistant", "content": [...], ...} onto an assistant message.
func (t *parsedTrace) anthReply(at int) (traceMessage, error) {
	raw := t.valueAt(at)
	msg := traceMessage{Role: "assistant", raw: raw, at: at, path: "response"}
	var r struct {
		Type    *string         `json:"type"`
		Role    *string         `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := t.decodeAt(raw, at, "response", &r); err != nil {
		return msg, err
	}
	if r.Type != nil && *r.Type != "message" {
		return msg, t.fieldErr(at, raw, "response", []any{"type"}, "want \"message\", got %q: a log replays the calls that were answered", *r.Type)
	}
	if r.Role != nil && *r.Role != "assistant" {
		return msg, t.fieldErr(at, raw, "response", []any{"role"}, "want \"assistant\", got %q", *r.Role)
	}
	c, err := t.anthContent(&msg, r.Content)
	msg.text = strings.Join(c.parts, replyJoiner)
	return msg, err
}

// anthContents is what a message's content maps to: its texts (text
// blocks and placeholders) and the tool messages of its tool_result
// blocks.
type anthContents struct {
	parts   []string
	results []traceMessage
}

// anthContent reads the content of msg (an assistant or user message, or
// a response): a string, or a list of blocks. It sets msg's tool calls and
// the kinds of the blocks left out.
func (t *parsedTrace) anthContent(msg *traceMessage, content json.RawMessage) (anthContents, error) {
	var c anthContents
	at := msg.at + locate(msg.raw, "content")
	switch {
	case content == nil || string(content) == "null":
		return c, t.fieldErr(msg.at, msg.raw, msg.path, []any{"content"}, "missing")
	case content[0] == '"':
		var s string
		_ = json.Unmarshal(content, &s)
		c.parts = []string{s}
		return c, nil
	case content[0] != '[':
		return c, t.errorf(at, "%s.content: want a string or a list of content blocks, got %s", msg.path, jsonKind(content[0]))
	}
	blocks, err := t.items(at)
	if err != nil {
		return c, err
	}
	c.parts = []string{} // a list of blocks: the message stays, even empty
	for j, b := range blocks {
		if err := t.anthBlock(msg, &c, fmt.Sprintf("%s.content[%d]", msg.path, j), b); err != nil {
			return c, err
		}
	}
	if len(c.parts) == 0 && c.results != nil {
		c.parts = nil // only tool results: no user message after them
	}
	return c, nil
}

// anthBlock maps one content block of msg, named where, into c.
func (t *parsedTrace) anthBlock(msg *traceMessage, c *anthContents, where string, b rawMessage) error {
	var head struct {
		Type string `json:"type"`
	}
	if err := t.decodeAt(b.data, b.at, where, &head); err != nil {
		return err
	}
	user := msg.Role == "user"
	switch head.Type {
	case "text":
		var tb struct {
			Text *string `json:"text"`
		}
		if err := t.decodeAt(b.data, b.at, where, &tb); err != nil {
			return err
		}
		if tb.Text == nil {
			return t.fieldErr(b.at, b.data, where, []any{"text"}, "missing")
		}
		c.parts = append(c.parts, *tb.Text)
	case "image", "document":
		if !user {
			return t.fieldErr(b.at, b.data, where, []any{"type"}, "an %s block in an assistant message", head.Type)
		}
		c.parts = append(c.parts, placeholder(head.Type))
		msg.omitted = append(msg.omitted, head.Type)
	case "thinking", "redacted_thinking":
		if user {
			return t.fieldErr(b.at, b.data, where, []any{"type"}, "a %s block in a user message", head.Type)
		}
		msg.omitted = append(msg.omitted, head.Type)
	case "tool_use":
		if user {
			return t.fieldErr(b.at, b.data, where, []any{"type"}, "a tool_use block in a user message: the assistant calls tools")
		}
		return t.anthToolUse(msg, where, b)
	case "tool_result":
		if !user {
			return t.fieldErr(b.at, b.data, where, []any{"type"}, "a tool_result block in an assistant message: the user answers calls")
		}
		r, err := t.anthToolResult(where, b)
		c.results = append(c.results, r)
		return err
	case "":
		return t.fieldErr(b.at, b.data, where, []any{"type"}, "missing")
	default:
		return t.fieldErr(b.at, b.data, where, []any{"type"},
			"block type %q is not imported (text, tool_use and tool_result are; thinking is left out; image and document become placeholders)", head.Type)
	}
	return nil
}

func placeholder(kind string) string {
	if kind == "image" {
		return imagePlaceholder
	}
	return documentPlaceholder
}

// anthToolUse adds the tool_use block b, named where, to msg's tool calls:
// its id, its name, and its input (an object, {} when absent) as the
// arguments, compact, its keys in their order.
func (t *parsedTrace) anthToolUse(msg *traceMessage, where string, b rawMessage) error {
	var tu struct {
		ID    *string         `json:"id"`
		Name  *string         `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if err := t.decodeAt(b.data, b.at, where, &tu); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"id", tu.ID}, {"name", tu.Name}} {
		if f.v == nil || *f.v == "" {
			return t.fieldErr(b.at, b.data, where, []any{f.name}, "missing")
		}
	}
	args := []byte("{}")
	if tu.Input != nil && string(tu.Input) != "null" {
		if tu.Input[0] != '{' {
			return t.fieldErr(b.at, b.data, where, []any{"input"}, "want an object, got %s", jsonKind(tu.Input[0]))
		}
		var buf bytes.Buffer
		_ = json.Compact(&buf, tu.Input) // checked: it is JSON
		args = buf.Bytes()
	}
	tc := openai.ToolCall{ID: *tu.ID, Type: "function"}
	tc.Function.Name, tc.Function.Arguments = *tu.Name, string(args)
	msg.ToolCalls = append(msg.ToolCalls, tc)
	return nil
}

// anthToolResult maps the tool_result block b, named where, onto a tool
// message: its tool_use_id, and its content's text (a string; a list of
// text blocks, concatenated, an image or a document a placeholder; null
// or absent: empty). is_error is recorded among the blocks left out.
func (t *parsedTrace) anthToolResult(where string, b rawMessage) (traceMessage, error) {
	m := traceMessage{Role: "tool", raw: b.data, at: b.at, path: where}
	var tr struct {
		ToolUseID *string         `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
		IsError   *bool           `json:"is_error"`
	}
	if err := t.decodeAt(b.data, b.at, where, &tr); err != nil {
		return m, err
	}
	if tr.ToolUseID == nil || *tr.ToolUseID == "" {
		return m, t.fieldErr(b.at, b.data, where, []any{"tool_use_id"}, "missing")
	}
	m.ToolCallID = *tr.ToolUseID
	if tr.IsError != nil && *tr.IsError {
		m.omitted = append(m.omitted, "is_error")
	}
	switch {
	case tr.Content == nil || string(tr.Content) == "null":
		return m, nil
	case tr.Content[0] == '"':
		_ = json.Unmarshal(tr.Content, &m.text)
		return m, nil
	case tr.Content[0] != '[':
		return m, t.fieldErr(b.at, b.data, where, []any{"content"}, "want a string or a list of content blocks, got %s", jsonKind(tr.Content[0]))
	}
	at := b.at + locate(b.data, "content")
	items, err := t.items(at)
	if err != nil {
		return m, err
	}
	var text strings.Builder
	for j, it := range items {
		inner := fmt.Sprintf("%s.content[%d]", where, j)
		var tb struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if err := t.decodeAt(it.data, it.at, inner, &tb); err != nil {
			return m, err
		}
		switch {
		case tb.Type == "text" && tb.Text != nil:
			text.WriteString(*tb.Text)
		case tb.Type == "text":
			return m, t.fieldErr(it.at, it.data, inner, []any{"text"}, "missing")
		case tb.Type == "image" || tb.Type == "document":
			text.WriteString(placeholder(tb.Type))
			m.omitted = append(m.omitted, tb.Type)
		default:
			return m, t.fieldErr(it.at, it.data, inner, []any{"type"}, "want a text, image or document block in a tool_result, got type %q", tb.Type)
		}
	}
	m.text = text.String()
	return m, nil
}
