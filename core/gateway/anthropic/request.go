package anthropic

import (
	"strings"

	"github.com/toolout/toolout/core"
)

// Path is the Messages API endpoint.
const Path = "/v1/messages"

var requestKeys = []string{"max_tokens", "system", "messages", "tools", "stream"}

// DecodeRequest maps a Messages API request body to a core.Request with the
// given tag, and reports whether it asks to stream. Errors are [*Error]
// values with the position in body. The mapping:
//
//   - "system", a string or text blocks (joined by "\n"), becomes a first
//     system message, left out when empty. "max_tokens" is MaxOutputTokens;
//     "stream" is returned. "messages" is required; model, temperature,
//     tool_choice, metadata, thinking (adaptive or budgeted),
//     context_management, output_config and other members are validated
//     as JSON and not mapped.
//   - A message's role is "user", "assistant" or "system" (anything else
//     is an error) and its content is required. A system message inside
//     "messages" (Claude Code sends its environment as one, after the
//     first user message) is read as "system" is (a string, or its text
//     blocks joined by "\n"; content null is an error) and becomes a
//     system message in its place, left out when empty: it is system text
//     (fakes.Texts joins every system message, in order, into the text a
//     step's match.system sees), not a turn. Members of a message other
//     than role and content (Claude Code's per-message output_config) are
//     validated and ignored. String content is one message.
//     In block content, text blocks (joined by "\n", as the gateway's
//     adapter joins them, so both see the same text) and tool_use blocks
//     (ToolCalls: id, name, Arguments the compact input, {} when absent)
//     make one message of the role; each tool_result block becomes a tool
//     message of its own at its place, ToolCallID its tool_use_id, Name the
//     name of the tool_use with that id in the last message with tool_use
//     blocks (the API requires the message just before), Content its
//     content (a string, or its text blocks' texts concatenated, as [Wire]
//     reads them; other blocks left out). So a user turn
//     [tool_result A, tool_result B, text] maps to tool A, tool B, user.
//   - is_error of a tool_result is validated but not kept: core.Message has
//     no field for it (the gateway's adapter reads it from the body).
//   - thinking and redacted_thinking blocks, which clients replay in
//     assistant messages (the API requires it with tools and extended
//     thinking), are accepted and left out of core.Request, which has no
//     field for them; their thinking, signature and data must be strings
//     when present. They are accepted in any message: the API, not this
//     package, says where they may stand.
//   - Other blocks (image, document, server tool blocks, ...) are left out
//     of the text view too; a message with nothing left stays as an empty
//     message of its role, so turns keep their order. cache_control is
//     ignored wherever it stands (system blocks, message blocks, tools).
//   - "tools": name, description and input_schema (compact); other
//     members (cache_control, defer_loading, ...) are ignored. A server
//     tool ({"type":"web_search_20250305","name":...}, no input_schema)
//     keeps its name only.
func DecodeRequest(body []byte, tag core.Tag) (core.Request, bool, error) {
	r := reader{b: body}
	var c conversation
	req := core.Request{Tag: tag}
	var system string
	var stream, hasMessages bool
	r.peek()
	start := r.i
	err := r.object(requestKeys, func(k int) error {
		var err error
		switch k {
		case 0:
			req.MaxOutputTokens, err = r.integer()
		case 1:
			system, err = readText(&r, "\n")
		case 2:
			hasMessages = true
			err = r.array(func(int) error { return c.message(&r) })
		case 3:
			err = r.array(func(int) error {
				t, err := readTool(&r)
				req.Tools = append(req.Tools, t)
				return err
			})
		case 4:
			stream, err = r.boolean()
		}
		return err
	})
	if err == nil && !hasMessages {
		err = r.fail(start, "no messages array")
	}
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return core.Request{}, false, locate(err, "request", body)
	}
	if system != "" {
		req.Messages = append(req.Messages, core.Message{Role: core.RoleSystem, Content: system})
	}
	req.Messages = append(req.Messages, c.msgs...)
	return req, stream, nil
}

// conversation collects the messages of a request.
type conversation struct {
	msgs []core.Message
	// calls are the tool calls of the last message that had some; names
	// maps their ids to their names, built when a tool_result needs it.
	calls []core.ToolCall
	names map[string]string
}

// name returns the name of the tool_use with the given id in the last
// message with tool calls (the API requires a tool_result to answer a
// tool_use of the message just before it), or "".
func (c *conversation) name(id string) string {
	if c.names == nil {
		c.names = make(map[string]string, len(c.calls))
		for _, tc := range c.calls {
			c.names[tc.ID] = tc.Name
		}
	}
	return c.names[id]
}

var messageParamKeys = []string{"role", "content"}

// message reads one entry of "messages": a user or assistant turn, or a
// system message (Claude Code sends its environment as one between turns).
func (c *conversation) message(r *reader) error {
	f, err := readFields(r, messageParamKeys)
	if err != nil {
		return err
	}
	role, err := f.str(0)
	switch {
	case err != nil:
		return err
	case role != "user" && role != "assistant" && role != "system":
		at := f.start
		if f.has(0) {
			at = f.at[0]
		}
		return within(r.fail(at, "want role \"user\", \"assistant\" or \"system\", got "+quote(role)), "role")
	case !f.has(1):
		return r.fail(f.start, "message without content")
	case role == "system":
		return f.read(1, c.system)
	}
	return f.read(1, func(r *reader) error {
		switch r.peek() {
		case '"':
			s, err := r.str()
			c.msgs = append(c.msgs, core.Message{Role: core.Role(role), Content: s})
			return err
		case '[':
			return c.blocks(r, core.Role(role))
		}
		return r.want("a string or an array of content blocks")
	})
}

// system reads the content of a system message inside "messages" as the
// top-level "system" is read (a string, or text blocks joined by "\n",
// other blocks left out), and adds it as a system message in its place,
// unless it is empty. Its content may not be null.
func (c *conversation) system(r *reader) error {
	if r.peek() != '"' && r.peek() != '[' {
		return r.want("a string or an array of content blocks")
	}
	s, err := readText(r, "\n")
	if err == nil && s != "" {
		c.msgs = append(c.msgs, core.Message{Role: core.RoleSystem, Content: s})
	}
	return err
}

// blocks reads a content array. Text and tool_use blocks make one message
// of the role; each tool_result is a tool message of its own, in place.
func (c *conversation) blocks(r *reader, role core.Role) error {
	var text []string
	var calls []core.ToolCall
	emitted := false
	flush := func() {
		if len(text) > 0 || len(calls) > 0 {
			c.msgs = append(c.msgs, core.Message{Role: role, Content: strings.Join(text, "\n"), ToolCalls: calls})
			if len(calls) > 0 {
				c.calls, c.names = calls, nil
			}
			text, calls, emitted = nil, nil, true
		}
	}
	err := r.array(func(int) error {
		b, err := readParamBlock(r)
		switch {
		case err != nil:
			return err
		case b.typ == "text":
			text = append(text, b.text)
		case b.typ == "tool_use":
			calls = append(calls, core.ToolCall{ID: b.id, Name: b.name, Arguments: b.input})
		case b.typ == "tool_result":
			flush()
			c.msgs = append(c.msgs, core.Message{Role: core.RoleTool, Content: b.text, ToolCallID: b.id, Name: c.name(b.id)})
			emitted = true
		}
		return nil
	})
	flush()
	if !emitted {
		c.msgs = append(c.msgs, core.Message{Role: role})
	}
	return err
}

var paramBlockKeys = []string{"type", "text", "id", "name", "input", "tool_use_id", "content", "is_error", "thinking", "signature", "data"}

// readParamBlock reads a request content block. For a tool_result, id is
// its tool_use_id and text the text of its content. A thinking or
// redacted_thinking block (a client replays them in assistant messages) is
// validated (its values are strings) and comes back with only its type,
// as does a block of another type.
func readParamBlock(r *reader) (block, error) {
	f, b, err := startBlock(r, paramBlockKeys)
	if err != nil {
		return b, err
	}
	switch b.typ {
	case "text":
		b.text, err = f.str(1)
	case "tool_use":
		err = readToolUse(f, &b)
	case "tool_result":
		if b.id, err = f.str(5); err == nil {
			err = f.read(6, func(r *reader) (err error) { b.text, err = readText(r, ""); return err })
		}
		if err == nil {
			err = f.read(7, func(r *reader) error { _, err := r.boolean(); return err })
		}
	case "thinking", "redacted_thinking":
		err = readThinking(f, 8, b.typ, nil) // validated, not kept
	case "":
		err = r.fail(f.start, "content block without a type")
	}
	return b, err
}

var textBlockKeys = []string{"type", "text"}

// readText reads a string, null (""), or an array of blocks whose text
// blocks' texts it joins with sep (other blocks are left out): "\n" for
// system, "" for a tool_result's content, which Wire reads as the
// concatenation too.
func readText(r *reader, sep string) (string, error) {
	switch r.peek() {
	case '"':
		return r.str()
	case 'n':
		if r.null() {
			return "", nil
		}
	case '[':
		var parts []string
		err := r.array(func(int) error {
			f, err := readFields(r, textBlockKeys)
			if err != nil {
				return err
			}
			if typ, err := f.str(0); err != nil || typ != "text" {
				return err
			}
			text, err := f.str(1)
			parts = append(parts, text)
			return err
		})
		return strings.Join(parts, sep), err
	}
	return "", r.want("a string or an array of content blocks")
}

var toolKeys = []string{"name", "description", "input_schema"}

// readTool reads one entry of "tools". A server tool (no input_schema)
// keeps its name only.
func readTool(r *reader) (core.Tool, error) {
	var t core.Tool
	err := r.object(toolKeys, func(k int) error {
		var err error
		switch k {
		case 0:
			t.Name, err = r.str()
		case 1:
			if !r.null() {
				t.Description, err = r.str()
			}
		case 2:
			t.InputSchema, err = readInput(r)
		}
		return err
	})
	return t, err
}
