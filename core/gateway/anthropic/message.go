package anthropic

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/jsonlex"
)

// message is a Messages API response, as far as this package maps it.
type message struct {
	id, role, model string
	content         []block
	stopReason      *string // nil is null
	stopSequence    *string
	usage           []field // in order; input_tokens and output_tokens always present
}

// block is a text, tool_use, thinking or redacted_thinking content block.
type block struct {
	typ      string // "text", "tool_use", "thinking" or "redacted_thinking"
	text     string
	id, name string
	input    []byte // tool_use: a compact JSON object
	// thinking: its text and signature; redacted_thinking: its data. Each
	// is the bytes of a JSON string, escapes as they came (see thinking.go).
	thinking, signature, data []byte
}

// field is one usage member; val is compact JSON.
type field struct {
	key string
	val []byte
}

var messageKeys = []string{"id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage", "error"}

// readMessage reads a message object. An error body becomes an *APIError.
func readMessage(r *reader) (message, error) {
	var m message
	var typ string
	var apiErr *APIError
	start := r.i
	err := r.object(messageKeys, func(k int) error {
		var err error
		switch k {
		case 0:
			m.id, err = r.str()
		case 1:
			typ, err = r.str()
		case 2:
			m.role, err = r.str()
		case 3:
			m.model, err = r.str()
		case 4:
			err = r.array(func(int) error {
				b, err := readBlock(r)
				m.content = append(m.content, b)
				return err
			})
		case 5:
			m.stopReason, err = r.optStr()
		case 6:
			m.stopSequence, err = r.optStr()
		case 7:
			m.usage, err = readUsage(r, m.usage)
		case 8:
			apiErr, err = readAPIError(r)
		}
		return err
	})
	switch {
	case err != nil:
		return m, err
	case typ == "error" && apiErr != nil:
		return m, &Error{Offset: start, Msg: "error: " + oneLine(apiErr.Type) + ": " + oneLine(apiErr.Message), Err: apiErr}
	case typ != "message" && typ != "":
		return m, r.fail(start, "want type \"message\", got "+quote(typ))
	}
	if m.role == "" {
		m.role = "assistant"
	}
	m.usage = withTokens(m.usage)
	return m, nil
}

var blockKeys = []string{"type", "text", "id", "name", "input", "citations", "thinking", "signature", "data"}

// readBlock reads a text, tool_use, thinking or redacted_thinking block;
// other types are unsupported.
func readBlock(r *reader) (block, error) {
	f, b, err := startBlock(r, blockKeys)
	if err != nil {
		return b, err
	}
	switch b.typ {
	case "text":
		cited := false
		if b.text, err = f.str(1); err == nil {
			err = f.read(5, func(r *reader) (err error) { cited, err = readCitations(r); return err })
		}
		if err == nil && cited {
			err = within(unsupported(f.at[5], "text block with citations"), "citations")
		}
	case "tool_use":
		err = readToolUse(f, &b)
	case "thinking", "redacted_thinking":
		err = readThinking(f, 6, b.typ, &b)
	case "":
		err = r.fail(f.start, "content block without a type")
	default:
		err = unsupported(f.start, "content block of type "+quote(b.typ))
	}
	return b, err
}

// startBlock reads a block's fields by keys, whose first five are type,
// text, id, name and input (in blockKeys as in paramBlockKeys), and its type.
func startBlock(r *reader, keys []string) (fields, block, error) {
	f, err := readFields(r, keys)
	if err != nil {
		return f, block{}, err
	}
	var b block
	b.typ, err = f.str(0)
	return f, b, err
}

// readToolUse reads a tool_use block's id, name and input (keys 2 to 4 of
// startBlock's); a block without input has {}.
func readToolUse(f fields, b *block) error {
	b.input = []byte("{}")
	var err error
	if b.id, err = f.str(2); err == nil {
		b.name, err = f.str(3)
	}
	if err == nil {
		err = f.read(4, func(r *reader) (err error) { b.input, err = readInput(r); return err })
	}
	return err
}

// readCitations reads a text block's citations and reports whether there
// are any (null and [] are none).
func readCitations(r *reader) (bool, error) {
	if r.null() {
		return false, nil
	}
	n := 0
	err := r.array(func(int) error { n++; return r.skip() })
	return n > 0, err
}

// readInput reads a tool input, which must be an object, and returns it
// compact.
func readInput(r *reader) ([]byte, error) {
	if r.peek() != '{' {
		return nil, r.want("an object")
	}
	raw, err := r.raw()
	if err != nil {
		return nil, err
	}
	return compact(raw), nil
}

// compact returns valid JSON without insignificant white space, in a new
// slice. Escapes inside strings are kept as they are; invalid UTF-8 (which
// can only be inside strings) becomes U+FFFD, so that the value can travel
// inside a JSON string (partial_json) and come back the same.
func compact(raw []byte) []byte {
	buf := bytes.NewBuffer(make([]byte, 0, len(raw)))
	if json.Compact(buf, raw) != nil {
		return []byte("null") // not reached: raw was validated
	}
	if !utf8.Valid(buf.Bytes()) {
		return bytes.ToValidUTF8(buf.Bytes(), []byte("\ufffd"))
	}
	return buf.Bytes()
}

// maxUsage bounds the members of a usage object (the API's have about 8).
const maxUsage = 64

// readUsage reads a usage object into fields, overriding the values of
// keys already in fields; a null value leaves a field as it was.
// input_tokens and output_tokens must be non-negative integers.
func readUsage(r *reader, fields []field) ([]field, error) {
	if r.null() {
		return fields, nil
	}
	err := r.members(func(key string) error {
		r.peek()
		at := r.i
		var val []byte
		switch {
		case r.null():
			return nil
		case key == "input_tokens" || key == "output_tokens":
			n, err := r.integer()
			if err != nil {
				return err
			}
			val = strconv.AppendInt(nil, int64(n), 10)
		default:
			raw, err := r.raw()
			if err != nil {
				return err
			}
			val = compact(raw)
		}
		for i := range fields {
			if fields[i].key == key {
				fields[i].val = val
				return nil
			}
		}
		if len(fields) == maxUsage {
			return r.fail(at, "usage with more than "+strconv.Itoa(maxUsage)+" members")
		}
		fields = append(fields, field{key, val})
		return nil
	})
	return fields, err
}

// withTokens adds input_tokens and output_tokens (0) when missing.
func withTokens(fields []field) []field {
	for _, key := range []string{"input_tokens", "output_tokens"} {
		if !slices.ContainsFunc(fields, func(f field) bool { return f.key == key }) {
			fields = append(fields, field{key, []byte("0")})
		}
	}
	return fields
}

// tokens returns the value of an integer usage field, or -1 when it is
// missing.
func tokens(fields []field, key string) int {
	for _, f := range fields {
		if f.key == key {
			n, err := strconv.Atoi(string(f.val))
			if err != nil || n < 0 {
				return -1
			}
			return n
		}
	}
	return -1
}

var apiErrorKeys = []string{"type", "message"}

func readAPIError(r *reader) (*APIError, error) {
	var e APIError
	err := r.object(apiErrorKeys, func(k int) error {
		var err error
		if k == 0 {
			e.Type, err = r.str()
		} else {
			e.Message, err = r.str()
		}
		return err
	})
	return &e, err
}

// marshal renders the message as the API's JSON, keys in the API's order.
func (m message) marshal() []byte {
	b := make([]byte, 0, 256)
	b = append(b, `{"id":`...)
	b = jsonlex.Append(b, m.id)
	b = append(b, `,"type":"message","role":`...)
	b = jsonlex.Append(b, m.role)
	b = append(b, `,"model":`...)
	b = jsonlex.Append(b, m.model)
	b = append(b, `,"content":[`...)
	for i, c := range m.content {
		if i > 0 {
			b = append(b, ',')
		}
		b = c.appendJSON(b, false)
	}
	b = append(b, `],"stop_reason":`...)
	b = appendOptString(b, m.stopReason)
	b = append(b, `,"stop_sequence":`...)
	b = appendOptString(b, m.stopSequence)
	b = append(b, `,"usage":`...)
	b = appendUsage(b, m.usage)
	return append(b, '}')
}

// appendJSON renders the block; empty renders it as a content_block_start
// does (text "", input {}, thinking and signature "").
func (c block) appendJSON(b []byte, empty bool) []byte {
	if isThinking(c.typ) {
		return c.appendThinking(b, empty)
	}
	if c.typ == "text" {
		text := c.text
		if empty {
			text = ""
		}
		b = append(b, `{"type":"text","text":`...)
		return append(jsonlex.Append(b, text), '}')
	}
	b = append(b, `{"type":"tool_use","id":`...)
	b = jsonlex.Append(b, c.id)
	b = append(b, `,"name":`...)
	b = jsonlex.Append(b, c.name)
	b = append(b, `,"input":`...)
	if empty {
		b = append(b, "{}"...)
	} else {
		b = append(b, c.input...)
	}
	return append(b, '}')
}

func appendUsage(b []byte, fields []field) []byte {
	b = append(b, '{')
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonlex.Append(b, f.key)
		b = append(b, ':')
		b = append(b, f.val...)
	}
	return append(b, '}')
}

func appendOptString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return jsonlex.Append(b, *s)
}

// EncodeResponse renders resp as a Messages API response body: a text block
// when resp.Text is not empty, then one tool_use block per call (input
// {} when the call's Arguments are not a JSON object), stop_reason from
// [StopReason], stop_sequence null, and usage input_tokens and
// output_tokens.
func EncodeResponse(resp core.Response, id, model string) []byte {
	return fromResponse(resp, id, model).marshal()
}

func fromResponse(resp core.Response, id, model string) message {
	m := message{id: id, role: "assistant", model: model}
	if resp.Text != "" {
		m.content = append(m.content, block{typ: "text", text: resp.Text})
	}
	for _, tc := range resp.ToolCalls {
		m.content = append(m.content, block{typ: "tool_use", id: tc.ID, name: tc.Name, input: objectOrEmpty(tc.Arguments)})
	}
	stop := StopReason(resp)
	m.stopReason = &stop
	m.usage = []field{
		{"input_tokens", strconv.AppendInt(nil, int64(max(resp.Usage.InputTokens, 0)), 10)},
		{"output_tokens", strconv.AppendInt(nil, int64(max(resp.Usage.OutputTokens, 0)), 10)},
	}
	return m
}

// objectOrEmpty returns args compact when they are a JSON object, else {}.
func objectOrEmpty(args []byte) []byte {
	r := reader{b: args}
	if r.peek() != '{' {
		return []byte("{}")
	}
	raw, err := r.raw()
	if err != nil || r.end() != nil {
		return []byte("{}")
	}
	return compact(raw)
}

// StopReason is the stop_reason of resp: "max_tokens" when FinishReason is
// "length" or "max_tokens"; else "tool_use" when it has tool calls; else
// FinishReason itself when it is one of the API's other reasons
// (stop_sequence, pause_turn, refusal, model_context_window_exceeded);
// else "end_turn".
func StopReason(resp core.Response) string {
	switch fr := resp.FinishReason; {
	case fr == core.FinishLength || fr == "max_tokens":
		return "max_tokens"
	case len(resp.ToolCalls) > 0:
		return "tool_use"
	case fr == "stop_sequence" || fr == "pause_turn" || fr == "refusal" || fr == "model_context_window_exceeded":
		return fr
	}
	return "end_turn"
}

// FinishReason maps a stop_reason to core's: end_turn → "stop", tool_use →
// "tool_calls", max_tokens → "length", null → ""; others stay as they are.
func FinishReason(stopReason string) string {
	switch stopReason {
	case "end_turn":
		return core.FinishStop
	case "tool_use":
		return core.FinishToolCalls
	case "max_tokens":
		return core.FinishLength
	}
	return stopReason
}

// DecodeResponse maps a Messages API response body to a core.Response: the
// text blocks' texts concatenated as they are, the tool_use blocks as tool
// calls (Arguments the compact input), FinishReason from [FinishReason],
// usage input_tokens and output_tokens. thinking and redacted_thinking
// blocks are skipped: core.Response has no field for them (the message
// JSON keeps them; see [AssembleStream]). An error body gives an [*Error]
// wrapping an [*APIError]; a block of another type (server tools, ...), or
// a text block with citations, an error wrapping [ErrUnsupported].
func DecodeResponse(body []byte) (core.Response, error) {
	m, err := parseMessage(body, "response")
	if err != nil {
		return core.Response{}, err
	}
	return m.response(), nil
}

// parseMessage reads a whole body holding one message.
func parseMessage(body []byte, input string) (message, error) {
	r := reader{b: body}
	m, err := readMessage(&r)
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return message{}, locate(err, input, body)
	}
	return m, nil
}

func (m message) response() core.Response {
	var resp core.Response
	var text []byte
	for _, c := range m.content {
		switch c.typ {
		case "text":
			text = append(text, c.text...)
		case "tool_use":
			resp.ToolCalls = append(resp.ToolCalls, core.ToolCall{ID: c.id, Name: c.name, Arguments: json.RawMessage(c.input)})
		} // thinking blocks: core.Response has no field for them
	}
	resp.Text = string(text)
	if m.stopReason != nil {
		resp.FinishReason = FinishReason(*m.stopReason)
	}
	resp.Usage = core.Usage{InputTokens: max(tokens(m.usage, "input_tokens"), 0), OutputTokens: max(tokens(m.usage, "output_tokens"), 0)}
	return resp
}
