package bench

import "strings"

// jsonFamiliesAdversarial are the inputs that try to make the JSON-bodied
// families' handlers (core/leaked: Llama 3/4, a message of bare JSON calls,
// Mistral, Nemotron, Phi-4) super-linear: tokens with no body or a body
// never closed, repeated at every position, long runs of calls, and a
// message that starts like JSON calls and is not one. Their names start
// with "json-": -bench 'Leaked/input=json-' runs them.
var jsonFamiliesAdversarial = []adversarial{
	// Llama 3.x / 4.
	{"json-llama-tags", func(n int) string { return repeatTo("<|python_tag|>", n) }},
	{"json-llama-tag-braces", func(n int) string { return repeatTo("<|python_tag|>{", n) }},
	{"json-llama-tag-strings", func(n int) string { return repeatTo(`<|python_tag|>{"s":"`, n) }},
	{"json-llama-tag-no-call", func(n int) string { return repeatTo(`<|python_tag|>{"q":1}<|eom_id|> `, n) }},
	{"json-llama-semicolon-calls", func(n int) string {
		return "<|python_tag|>" + repeatTo(`{"name":"a","parameters":{"k":1}}; `, n) + "<|eom_id|>"
	}},
	{"json-llama-function-open", func(n int) string { return repeatTo("<function=a>{", n) }},
	{"json-llama-function-strings", func(n int) string { return repeatTo(`<function=a>{"s":"`, n) }},
	{"json-llama-function-calls", func(n int) string { return repeatTo(`<function=a>{"k":1}</function>`, n) }},
	{"json-llama-end-tokens", func(n int) string { return repeatTo("<|eom_id|><|eot_id|><|python_end|>", n) }},
	// A message that starts like bare JSON calls.
	{"json-bare-object-not-call", func(n int) string {
		return `{"name":"report","body":"` + repeatTo("lorem ipsum dolor sit amet ", n) + `"}`
	}},
	{"json-bare-semicolon-calls", func(n int) string { return repeatTo(`{"name":"a","parameters":{"k":1}}; `, n) }},
	{"json-bare-calls-then-text", func(n int) string { return repeatTo(`{"name":"a","parameters":{"k":1}}; `, n) + "not a call" }},
	{"json-bare-calls-then-data", func(n int) string { return repeatTo(`{"name":"a","parameters":{"k":1}} `, n) + `{"x":1}` }},
	{"json-bare-brace-prose", func(n int) string { return "{" + repeatTo("the model wrote prose ", n) }},
	{"json-bare-nested", func(n int) string { return repeatTo(`{"a":`, n) }},
	{"json-bare-array-calls", func(n int) string {
		return "[" + strings.TrimSuffix(repeatTo(`{"name":"a","arguments":{"k":1}},`, n), ",") + "]"
	}},
	// Mistral.
	{"json-mistral-tokens", func(n int) string { return repeatTo("[TOOL_CALLS]", n) }},
	{"json-mistral-array-open", func(n int) string { return repeatTo("[TOOL_CALLS][{", n) }},
	{"json-mistral-args-no-body", func(n int) string { return repeatTo("[TOOL_CALLS]get_weather[ARGS]", n) }},
	{"json-mistral-args-open", func(n int) string { return repeatTo(`[TOOL_CALLS]a[ARGS]{"s":"`, n) }},
	{"json-mistral-long-names", func(n int) string { return repeatTo("[TOOL_CALLS]"+strings.Repeat("n", 63)+"[CALL_ID]", n) }},
	{"json-mistral-calls", func(n int) string { return repeatTo(`[TOOL_CALLS]a[ARGS]{"k":1}`, n) + "</s>" }},
	{"json-mistral-array-never-closed", func(n int) string {
		return "[TOOL_CALLS][" + repeatTo(`{"name":"a","arguments":{"k":1}},`, n)
	}},
	// Nemotron (a wrapper of the scan).
	{"json-nemotron-open", func(n int) string { return repeatTo("<TOOLCALL>[", n) }},
	{"json-nemotron-unclosed-calls", func(n int) string { return repeatTo(`<TOOLCALL>[{"name":"a","arguments":{}}] `, n) }},
	{"json-nemotron-array-never-closed", func(n int) string {
		return "<TOOLCALL>[" + repeatTo(`{"name":"a","arguments":{"k":1}},`, n)
	}},
	// Phi-4-mini.
	{"json-phi4-needles", func(n int) string { return repeatTo("functools[", n) }},
	{"json-phi4-open", func(n int) string { return repeatTo("functools[{", n) }},
	{"json-phi4-unclosed-arrays", func(n int) string { return repeatTo(`functools[{"name":"a","arguments":{}}`, n) }},
	{"json-phi4-near-miss", func(n int) string { return repeatTo("functools.partial functools [ functools[] ", n) }},
	{"json-phi4-calls", func(n int) string { return repeatTo(`functools[{"name":"a","arguments":{"k":1}}]<|end|>`, n) }},
}
