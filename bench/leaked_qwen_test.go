package bench

import "strings"

// qwenAdversarial are inputs built to make the Qwen3-Coder close fix, the
// Seed-OSS forms and <seed:think> super-linear.
var qwenAdversarial = []adversarial{
	// Open parameters closed by each way the close fix knows.
	{"qwen-param-closed-by-function", func(n int) string { return repeatTo("<function=a><parameter=x>1</function>", n) }},
	{"qwen-param-closed-by-tool-call", func(n int) string { return repeatTo("<function=a><parameter=x>1</tool_call>", n) }},
	{"qwen-params-closed-by-next", func(n int) string { return "<function=a>" + repeatTo("<parameter=x>1", n) }},
	{"qwen-param-closed-by-next-wrapper", func(n int) string { return repeatTo("<tool_call><function=a><parameter=x>1", n) }},
	// An open parameter followed by many mentions that open no call.
	{"qwen-param-then-near-misses", func(n int) string {
		return "<function=a><parameter=x>" + repeatTo("<function=b> </functio </tool_cal ", n)
	}},
	{"qwen-param-then-close-params", func(n int) string {
		return "<tool_call><function=a><parameter=x>" + repeatTo("</parameter>x ", n)
	}},
	// Seed-OSS: wrappers never closed, stray closing tags, thinking.
	{"seed-wrappers-unclosed", func(n int) string { return repeatTo("<seed:tool_call><function=a><parameter=x>", n) }},
	{"seed-stray-closes", func(n int) string {
		return repeatTo("<function=a><parameter=x>1</parameter></function></seed:tool_call> ", n)
	}},
	{"seed-cut-closes", func(n int) string { return repeatTo("<function=a><parameter=x>1</parameter></seed:tool_ca ", n) }},
	{"seed-think-unclosed", func(n int) string {
		return "<seed:think>" + repeatTo("<seed:tool_call><function=a><parameter=x>1</parameter></function></seed:tool_call>", n)
	}},
	{"seed-think-opens", func(n int) string { return repeatTo("<seed:think>", n) }},
	{"seed-think-near-misses", func(n int) string { return repeatTo("<seed:thin <seed:think <seed:tool_cal ", n) }},
	{"seed-big-value-closed-by-wrapper", func(n int) string {
		return "<seed:tool_call><function=a><parameter=x>" + strings.Repeat("v", n) + "</seed:tool_call>"
	}},
}
