package bench

import "strings"

// harmonyAdversarial are inputs that try to make the gpt-oss harmony
// handlers (core/leaked family_harmony.go) super-linear: headers that never
// reach <|message|>, call headers with no content or content never closed,
// analysis messages never ended, stripped needles without a body, names at
// the length bound, broken calls each searching for an end token that never
// comes.
var harmonyAdversarial = []adversarial{
	{"harmony-starts", func(n int) string { return repeatTo("<|start|>assistant", n) }},
	{"harmony-channels", func(n int) string { return repeatTo("<|channel|>commentary ", n) }},
	{"harmony-headers-no-message", func(n int) string {
		return repeatTo("<|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json ", n)
	}},
	{"harmony-headers-no-content", func(n int) string {
		return repeatTo("<|channel|>commentary to=functions.a <|constrain|>json<|message|>", n)
	}},
	{"harmony-unclosed-objects", func(n int) string {
		return repeatTo("<|channel|>commentary to=functions.a<|message|>{", n)
	}},
	{"harmony-unclosed-strings", func(n int) string {
		return repeatTo(`<|channel|>commentary to=functions.a<|message|>{"s":"`, n)
	}},
	{"harmony-calls-no-end", func(n int) string {
		return repeatTo(`<|channel|>commentary to=functions.a<|message|>{"x":1} text `, n)
	}},
	{"harmony-analysis-unended", func(n int) string {
		return "<|channel|>analysis<|message|>" + repeatTo(`to=functions.a json{"x":1} `, n)
	}},
	{"harmony-analysis-many", func(n int) string { return repeatTo("<|channel|>analysis<|message|>x", n) }},
	{"harmony-long-content", func(n int) string {
		return `<|channel|>commentary to=functions.a<|message|>{"s":"` + repeatTo("to=functions.b json{", n)
	}},
	{"harmony-stripped-needles", func(n int) string { return repeatTo("assistantcommentary to=functions.", n) }},
	{"harmony-stripped-no-body", func(n int) string { return repeatTo("commentary to=functions.get_weather json ", n) }},
	{"harmony-stripped-long-names", func(n int) string {
		return repeatTo("to=functions."+strings.Repeat("n", 127)+" ", n)
	}},
	{"harmony-stripped-broken", func(n int) string { return repeatTo(`to=functions.a json{"x": `, n) }},
	{"harmony-stripped-calls", func(n int) string { return repeatTo(`to=functions.a json{"x":1}`, n) }},
	{"harmony-end-tokens", func(n int) string { return repeatTo("<|call|><|end|><|return|><|constrain|><|message|>", n) }},
}
