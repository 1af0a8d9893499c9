package bench

import "strings"

// gemmaAdversarial are the inputs built against Gemma 4's handlers: call
// tokens with no body, bodies and strings never closed, lists nested as
// deep as the input, calls followed by text, and the stripped call: needle
// repeated or opening bodies that never parse.
var gemmaAdversarial = []adversarial{
	{"gemma-tokens-unclosed", func(n int) string { return repeatTo("<|tool_call>", n) }},
	{"gemma-bodies-open", func(n int) string { return repeatTo("<|tool_call>call:a{", n) }},
	{"gemma-strings-open", func(n int) string { return repeatTo(`<|tool_call>call:a{x:<|"|>`, n) }},
	{"gemma-lists-open", func(n int) string { return repeatTo("<|tool_call>call:a{x:[", n) }},
	{"gemma-text-after", func(n int) string { return repeatTo("<|tool_call>call:a{x:1} t ", n) + "<tool_call|>" }},
	{"gemma-long-string", func(n int) string {
		return `<|tool_call>call:a{x:<|"|>` + repeatTo("a, {b} ", n) + `<|"|>}<tool_call|>`
	}},
	{"gemma-deep-lists", func(n int) string { return "<|tool_call>call:a{x:" + strings.Repeat("[", n) }},
	{"gemma-calls", func(n int) string {
		return repeatTo(`<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3,tags:[1,2]}<tool_call|>`, n)
	}},
	{"gemma-stripped-needles", func(n int) string { return repeatTo("call:", n) }},
	{"gemma-stripped-bodies-open", func(n int) string { return repeatTo("call:a{", n) }},
	{"gemma-stripped-members-open", func(n int) string { return repeatTo("call:a{x:1,", n) }},
	{"gemma-stripped-objects-open", func(n int) string { return repeatTo("call:a{x:{", n) }},
	{"gemma-stripped-strings-open", func(n int) string { return repeatTo(`call:a{x:<|"|>`, n) }},
	{"gemma-stripped-long-key", func(n int) string { return "call:a{" + repeatTo("k", n) }},
	{"gemma-stripped-long-value", func(n int) string { return "call:a{x:" + repeatTo("v ", n) }},
	{"gemma-stripped-calls", func(n int) string { return repeatTo("call:get_weather{city:Paris,days:3} ", n) }},
}
