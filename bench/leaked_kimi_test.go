package bench

import "strings"

// kimiAdversarial are the inputs built against Kimi K2's handlers: section
// and call tokens that never close, ids with no arguments, arguments never
// closed, and the stripped id (functions.) repeated, nested in its own name
// or followed by objects that never close.
var kimiAdversarial = []adversarial{
	{"kimi-sections-unclosed", func(n int) string { return repeatTo("<|tool_calls_section_begin|>", n) }},
	{"kimi-section-calls-open", func(n int) string { return repeatTo("<|tool_calls_section_begin|><|tool_call_begin|>", n) }},
	{"kimi-calls-no-args", func(n int) string {
		return repeatTo("<|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>", n)
	}},
	{"kimi-calls-open-brace", func(n int) string {
		return repeatTo("<|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{", n)
	}},
	{"kimi-calls-open-string", func(n int) string {
		return repeatTo(`<|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{"s":"`, n)
	}},
	{"kimi-calls-text-after", func(n int) string {
		return repeatTo(`<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{"x":1} x `, n) +
			"<|tool_calls_section_end|>"
	}},
	{"kimi-long-section", func(n int) string {
		return "<|tool_calls_section_begin|>" +
			repeatTo(`<|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{"x":1}<|tool_call_end|>`, n)
	}},
	{"kimi-stripped-needles", func(n int) string { return repeatTo("functions.", n) }},
	{"kimi-stripped-ids", func(n int) string { return repeatTo("functions.a:0", n) }},
	{"kimi-stripped-open-brace", func(n int) string { return repeatTo("functions.a:0{", n) }},
	{"kimi-stripped-open-string", func(n int) string { return repeatTo(`functions.a:0 {"s":"`, n) }},
	{"kimi-stripped-dotted", func(n int) string { return "functions." + strings.Repeat("a.", n/2) + ":0{}" }},
	{"kimi-stripped-calls", func(n int) string { return repeatTo(`functions.get_weather:0{"city":"Paris"} `, n) }},
}
