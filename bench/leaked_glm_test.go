package bench

import "strings"

// glmAdversarial are inputs built to make the GLM handler super-linear:
// keys and values never closed, names at the length bound, pairs that
// never end.
var glmAdversarial = []adversarial{
	{"glm-unclosed-keys", func(n int) string { return repeatTo("<tool_call>a<arg_key>", n) }},
	{"glm-unclosed-values", func(n int) string { return repeatTo("<tool_call>a<arg_key>x</arg_key><arg_value>", n) }},
	{"glm-keys-without-values", func(n int) string { return repeatTo("<tool_call>a<arg_key>x</arg_key>", n) }},
	{"glm-keys-with-lt", func(n int) string { return repeatTo("<tool_call>a<arg_key>x<", n) }},
	{"glm-values-then-keys", func(n int) string {
		return "<tool_call>a" + repeatTo("<arg_key>x</arg_key><arg_value>1", n)
	}},
	{"glm-many-pairs", func(n int) string {
		return "<tool_call>a" + repeatTo("<arg_key>x</arg_key><arg_value>1</arg_value>", n) + "</tool_call>"
	}},
	{"glm-many-distinct-keys", func(n int) string {
		var b strings.Builder
		b.WriteString("<tool_call>a")
		for k := 0; b.Len() < n; k++ {
			b.WriteString("<arg_key>k")
			b.WriteString(strings.Repeat("x", k%7))
			b.WriteString(string(rune('a' + k%26)))
			b.WriteString("</arg_key><arg_value>1</arg_value>")
		}
		return b.String()
	}},
	{"glm-long-names", func(n int) string { return repeatTo("<tool_call>"+strings.Repeat("n", 128)+" ", n) }},
	{"glm-names-over-bound", func(n int) string { return "<tool_call>" + strings.Repeat("n", n) }},
	{"glm-no-argument-calls", func(n int) string { return repeatTo("<tool_call>get_time</tool_call>", n) }},
	{"glm-stray-values", func(n int) string {
		return "<tool_call>a<arg_key>x</arg_key><arg_value>1</arg_value>" + repeatTo("<arg_value>", n)
	}},
}
