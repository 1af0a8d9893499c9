package bench

import "strings"

// DeepSeek's special tokens (U+FF5C bars, U+2581 joiners).
const (
	dsCB  = "<｜tool▁calls▁begin｜>"
	dsCE  = "<｜tool▁calls▁end｜>"
	dsB   = "<｜tool▁call▁begin｜>"
	dsE   = "<｜tool▁call▁end｜>"
	dsSep = "<｜tool▁sep｜>"
)

// deepseekAdversarial are the inputs built to make the DeepSeek handlers
// super-linear: tokens that open and never close, separators that are not
// on the call's line, bodies that never end, end tokens far from their call.
var deepseekAdversarial = []adversarial{
	{"deepseek-section-begin-run", func(n int) string { return repeatTo(dsCB, n) }},
	{"deepseek-call-begin-run", func(n int) string { return repeatTo(dsB, n) }},
	{"deepseek-begin-no-sep", func(n int) string { return repeatTo(dsB+"get_weather ", n) }},
	{"deepseek-sep-next-line", func(n int) string { return repeatTo(dsB+"a\n"+dsSep, n) }},
	{"deepseek-sep-after-all", func(n int) string { return repeatTo(dsB+"a <b ", n) + dsSep + "{}" }},
	{"deepseek-open-bodies", func(n int) string { return repeatTo(dsB+"a"+dsSep+"{", n) }},
	{"deepseek-unclosed-strings", func(n int) string { return repeatTo(dsCB+dsB+"a"+dsSep+`{"s":"`, n) }},
	{"deepseek-fences-no-body", func(n int) string { return repeatTo(dsB+"function"+dsSep+"a\n```json\n", n) }},
	{"deepseek-names-one-line", func(n int) string { return repeatTo(dsB+"function"+dsSep+"name ", n) }},
	{"deepseek-calls-no-end", func(n int) string { return repeatTo(dsB+"a"+dsSep+"{} x ", n) + dsE }},
	{"deepseek-end-run", func(n int) string { return dsB + "a" + dsSep + "{} x " + repeatTo(dsE+" ", n) }},
	{"deepseek-long-body", func(n int) string {
		return dsCB + dsB + "a" + dsSep + `{"s": "` + strings.Repeat("x", n) + `"}` + dsE + dsCE
	}},
	{"deepseek-near-miss", func(n int) string {
		return repeatTo("<｜tool▁call <｜tool▁calls▁beg <｜tool▁se <|tool▁call▁begin| <｜tool calls begin｜> ", n)
	}},
	{"deepseek-many-calls", func(n int) string {
		return dsCB + repeatTo(dsB+"get_weather"+dsSep+`{"city": "Paris"}`+dsE+"\n", n) + dsCE
	}},
}
