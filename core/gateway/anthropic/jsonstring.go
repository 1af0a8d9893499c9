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

// appendString appends s as a JSON string. Unlike encoding/json it leaves
// <, > and & as they are (markers such as <<<SHADOW:...>>> stay readable);
// like it, it escapes U+2028 and U+2029 and turns invalid UTF-8 into U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
