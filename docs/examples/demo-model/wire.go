package main

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// The fixed parts of every answer.
const (
	created     = 1767225600
	openaiID    = "chatcmpl-demo"
	anthropicID = "msg_demo"
	callID      = "call_demo"
	toolUseID   = "toolu_demo"
	expandTool  = "expand_context"
	piece       = 12 // characters per streamed piece
)

// obj is a JSON object whose keys keep their order.
type obj []kv

type kv struct {
	k string
	v any
}

// arr is a JSON array.
type arr []any

// args is the JSON text of expand_context's arguments.
func args(shadow string) string { return string(dumps(obj{{"shadow_id", shadow}})) }

func openaiUsage() obj {
	return obj{{"prompt_tokens", 10}, {"completion_tokens", 5}, {"total_tokens", 15}}
}

func openaiBody(t turn) []byte {
	message := obj{{"role", "assistant"}, {"content", t.Text}}
	finish := "stop"
	if t.Shadow != "" {
		message = obj{{"role", "assistant"}, {"content", nil}, {"tool_calls", arr{obj{{"id", callID}, {"type", "function"},
			{"function", obj{{"name", expandTool}, {"arguments", args(t.Shadow)}}}}}}}
		finish = "tool_calls"
	}
	return append(dumps(obj{{"id", openaiID}, {"object", "chat.completion"}, {"created", created}, {"model", t.Model},
		{"choices", arr{obj{{"index", 0}, {"message", message}, {"finish_reason", finish}}}},
		{"usage", openaiUsage()}}), '\n')
}

func openaiStream(t turn) []byte {
	chunk := func(choices arr, usage any) obj {
		c := obj{{"id", openaiID}, {"object", "chat.completion.chunk"}, {"created", created}, {"model", t.Model}, {"choices", choices}}
		if t.Usage {
			c = append(c, kv{"usage", usage})
		}
		return c
	}
	delta := func(d obj, finish any) obj {
		return chunk(arr{obj{{"index", 0}, {"delta", d}, {"finish_reason", finish}}}, nil)
	}
	var out []byte
	if t.Shadow != "" {
		out = event(out, "", delta(obj{{"role", "assistant"}, {"content", nil}, {"tool_calls", arr{obj{{"index", 0}, {"id", callID},
			{"type", "function"}, {"function", obj{{"name", expandTool}, {"arguments", ""}}}}}}}, nil))
		for _, p := range pieces(args(t.Shadow)) {
			out = event(out, "", delta(obj{{"tool_calls", arr{obj{{"index", 0}, {"function", obj{{"arguments", p}}}}}}}, nil))
		}
		out = event(out, "", delta(obj{}, "tool_calls"))
	} else {
		out = event(out, "", delta(obj{{"role", "assistant"}, {"content", ""}}, nil))
		for _, p := range pieces(t.Text) {
			out = event(out, "", delta(obj{{"content", p}}, nil))
		}
		out = event(out, "", delta(obj{}, "stop"))
	}
	if t.Usage {
		out = event(out, "", chunk(arr{}, openaiUsage()))
	}
	return append(out, "data: [DONE]\n\n"...)
}

func openaiError(typ, msg string) []byte {
	return append(dumps(obj{{"error", obj{{"message", msg}, {"type", typ}}}}), '\n')
}

func anthropicBody(t turn) []byte {
	return append(dumps(anthropicMessage(t, content(t), stopReason(t), obj{{"input_tokens", 10}, {"output_tokens", 5}})), '\n')
}

func anthropicMessage(t turn, content arr, stop any, usage obj) obj {
	return obj{{"id", anthropicID}, {"type", "message"}, {"role", "assistant"}, {"model", t.Model}, {"content", content},
		{"stop_reason", stop}, {"stop_sequence", nil}, {"usage", usage}}
}

func content(t turn) arr {
	if t.Shadow != "" {
		return arr{obj{{"type", "tool_use"}, {"id", toolUseID}, {"name", expandTool}, {"input", obj{{"shadow_id", t.Shadow}}}}}
	}
	return arr{obj{{"type", "text"}, {"text", t.Text}}}
}

func stopReason(t turn) string {
	if t.Shadow != "" {
		return "tool_use"
	}
	return "end_turn"
}

func anthropicStream(t turn) []byte {
	out := event(nil, "message_start", obj{{"type", "message_start"},
		{"message", anthropicMessage(t, arr{}, nil, obj{{"input_tokens", 10}, {"output_tokens", 5}})}})
	start, deltas := obj{{"type", "text"}, {"text", ""}}, arr{}
	if t.Shadow != "" {
		start = obj{{"type", "tool_use"}, {"id", toolUseID}, {"name", expandTool}, {"input", obj{}}}
		for _, p := range pieces(args(t.Shadow)) {
			deltas = append(deltas, obj{{"type", "input_json_delta"}, {"partial_json", p}})
		}
	} else {
		for _, p := range pieces(t.Text) {
			deltas = append(deltas, obj{{"type", "text_delta"}, {"text", p}})
		}
	}
	out = event(out, "content_block_start", obj{{"type", "content_block_start"}, {"index", 0}, {"content_block", start}})
	for _, d := range deltas {
		out = event(out, "content_block_delta", obj{{"type", "content_block_delta"}, {"index", 0}, {"delta", d}})
	}
	out = event(out, "content_block_stop", obj{{"type", "content_block_stop"}, {"index", 0}})
	out = event(out, "message_delta", obj{{"type", "message_delta"}, {"delta", obj{{"stop_reason", stopReason(t)},
		{"stop_sequence", nil}}}, {"usage", obj{{"output_tokens", 5}}}})
	return event(out, "message_stop", obj{{"type", "message_stop"}})
}

func anthropicError(typ, msg string) []byte {
	return append(dumps(obj{{"type", "error"}, {"error", obj{{"type", typ}, {"message", msg}}}}), '\n')
}

// event appends one server-sent event: "event: NAME" when name is set, then "data: JSON".
func event(b []byte, name string, data obj) []byte {
	if name != "" {
		b = append(append(append(b, "event: "...), name...), '\n')
	}
	return append(appendJSON(append(b, "data: "...), data), "\n\n"...)
}

// pieces cuts s into pieces of 12 characters (runes), the last one shorter.
func pieces(s string) []string {
	var out []string
	for s != "" {
		n, i := 0, 0
		for i < len(s) && n < piece {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			n++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// dumps renders v as Python's json.dumps does by default.
func dumps(v any) []byte { return appendJSON(nil, v) }

// appendJSON appends v (obj, arr, string, int, bool or nil) with ", " and ": " between items and
// every character outside printable ASCII escaped.
func appendJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case string:
		return appendString(b, v)
	case arr:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendJSON(b, x)
		}
		return append(b, ']')
	case obj:
		b = append(b, '{')
		for i, f := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(appendString(b, f.k), ": "...)
			b = appendJSON(b, f.v)
		}
		return append(b, '}')
	}
	panic(fmt.Sprintf("demo-model: no JSON for %T", v))
}

// appendString quotes s as json.dumps(ensure_ascii=True) does: \" \\ \n \r \t \b \f, and \uXXXX
// (a surrogate pair above U+FFFF) for any other character outside ' '…'~'.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	u := func(b []byte, r rune) []byte {
		return append(b, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
	}
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r >= ' ' && r <= '~':
			b = append(b, byte(r))
		case r > 0xffff:
			r -= 0x10000
			b = u(u(b, 0xd800+r>>10), 0xdc00+r&0x3ff)
		default:
			b = u(b, r)
		}
	}
	return append(b, '"')
}
