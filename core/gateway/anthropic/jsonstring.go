package anthropic

import (
	"strconv"
	"unicode/utf8"

	"github.com/toolout/toolout/core/jsonlex"
)

// str reads a string.
func (r *reader) str() (string, error) {
	if r.peek() != '"' {
		return "", r.want("a string")
	}
	raw, escaped, err := r.scanString()
	if err != nil {
		return "", err
	}
	if escaped || !utf8.Valid(raw) {
		return unescape(raw), nil
	}
	return intern(raw), nil
}

// intern returns the API's frequent short strings (types, roles, stop
// reasons) without allocating.
func intern(raw []byte) string {
	switch string(raw) {
	case "":
		return ""
	case "text":
		return "text"
	case "tool_use":
		return "tool_use"
	case "text_delta":
		return "text_delta"
	case "input_json_delta":
		return "input_json_delta"
	case "content_block_delta":
		return "content_block_delta"
	case "content_block_start":
		return "content_block_start"
	case "content_block_stop":
		return "content_block_stop"
	case "ping":
		return "ping"
	case "message":
		return "message"
	case "assistant":
		return "assistant"
	case "end_turn":
		return "end_turn"
	case "thinking":
		return "thinking"
	case "thinking_delta":
		return "thinking_delta"
	case "signature_delta":
		return "signature_delta"
	case "redacted_thinking":
		return "redacted_thinking"
	}
	return string(raw)
}

// scanString consumes a string at r.i (which holds '"') and returns its
// bytes between the quotes, and whether it holds an escape.
func (r *reader) scanString() ([]byte, bool, error) {
	start := r.i
	end, escaped, fault := jsonlex.String(r.b, start)
	switch fault {
	case jsonlex.OK:
		r.i = end
		return r.b[start+1 : end-1], escaped, nil
	case jsonlex.Control:
		return nil, false, r.fail(end, "control character in a string")
	case jsonlex.BadEscape:
		return nil, false, r.fail(end, "invalid escape "+strconv.Quote(string(r.b[end:end+2])))
	case jsonlex.BadHex:
		return nil, false, r.fail(end, `want four hex digits after \u`)
	}
	if end == len(r.b) { // no closing quote: the string's start
		end = start
	}
	return nil, false, r.fail(end, "unterminated string")
}

// unescape decodes the bytes of a valid string (as scanString accepted
// them). Invalid UTF-8 and lone surrogates become U+FFFD, as encoding/json
// does.
func unescape(raw []byte) string {
	return string(jsonlex.Unescape(make([]byte, 0, len(raw)), raw, true))
}
