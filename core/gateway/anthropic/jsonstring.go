package anthropic

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
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
	b := r.b
	start := r.i + 1
	escaped := false
	for i := start; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			r.i = i + 1
			return b[start:i], escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				return nil, false, r.fail(i, "unterminated string")
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					return nil, false, r.fail(i, `want four hex digits after \u`)
				}
				i += 5
			default:
				return nil, false, r.fail(i, "invalid escape "+strconv.Quote(string(b[i:i+2])))
			}
		case c < 0x20:
			return nil, false, r.fail(i, "control character in a string")
		}
	}
	return nil, false, r.fail(r.i, "unterminated string")
}

func isHex4(h []byte) bool {
	for _, c := range h {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// unescape decodes the bytes of a valid string (as scanString accepted
// them). Invalid UTF-8 and lone surrogates become U+FFFD, as encoding/json
// does.
func unescape(raw []byte) string {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			r, n := utf8.DecodeRune(raw[i:])
			out = utf8.AppendRune(out, r)
			i += n
			continue
		}
		switch raw[i+1] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(raw[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if dec := utf16.DecodeRune(r, hex4(raw[i+2:i+6])); dec != utf8.RuneError {
						out = utf8.AppendRune(out, dec)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		default: // '"', '\\', '/'
			out = append(out, raw[i+1])
		}
		i += 2
	}
	return string(out)
}

func hex4(h []byte) rune {
	var r rune
	for _, c := range h {
		r <<= 4
		switch {
		case c <= '9':
			r |= rune(c - '0')
		case c >= 'a':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
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
