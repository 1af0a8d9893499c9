package bench

import "strings"

// DeepSeek's special tokens (U+FF5C bars, U+2581 joiners) and DSML's tags.
const (
	dsCB  = "<｜tool▁calls▁begin｜>"
	dsCE  = "<｜tool▁calls▁end｜>"
	dsB   = "<｜tool▁call▁begin｜>"
	dsE   = "<｜tool▁call▁end｜>"
	dsSep = "<｜tool▁sep｜>"

	dsmlFC = "<｜DSML｜function_calls>"
	dsmlFE = "</｜DSML｜function_calls>"
	dsmlI  = `<｜DSML｜invoke name="a">`
	dsmlIE = "</｜DSML｜invoke>"
	dsmlP  = `<｜DSML｜parameter name="x" string="true">`
	dsmlPE = "</｜DSML｜parameter>"
)

// deepseekAdversarial are the inputs built to make the DeepSeek and DSML
// handlers super-linear: tokens that open and never close, separators that
// are not on the call's line, bodies and values that never end, closing
// tags far from their call or inside values.
var deepseekAdversarial = append([]adversarial{
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
}, dsmlAdversarial...)

var dsmlAdversarial = []adversarial{
	{"dsml-wrapper-run", func(n int) string { return repeatTo(dsmlFC, n) }},
	{"dsml-invoke-run", func(n int) string { return repeatTo(dsmlI, n) }},
	{"dsml-invoke-name-unclosed", func(n int) string { return repeatTo(`<｜DSML｜invoke name="`, n) }},
	{"dsml-param-tags-unclosed", func(n int) string { return dsmlI + repeatTo(`<｜DSML｜parameter name="x" `, n) }},
	{"dsml-invokes-param-open", func(n int) string { return repeatTo(dsmlI+dsmlP, n) }},
	{"dsml-wrappers-param-open", func(n int) string { return repeatTo(dsmlFC+dsmlI+dsmlP+"v", n) }},
	{"dsml-values-with-close-tags", func(n int) string {
		return repeatTo(dsmlI+dsmlP+strings.Repeat(dsmlPE+"x", 50)+dsmlPE+dsmlIE, n)
	}},
	{"dsml-params-then-near-misses", func(n int) string {
		return dsmlI + repeatTo(dsmlP+"1"+dsmlPE, n/2) + dsmlIE + repeatTo("<｜DSML｜parameterx ", n/2)
	}},
	{"dsml-invokes-no-close", func(n int) string { return repeatTo(dsmlI+dsmlP+"1"+dsmlPE+" x ", n) + dsmlFE }},
	{"dsml-long-value", func(n int) string { return dsmlFC + dsmlI + dsmlP + strings.Repeat("v", n) + dsmlPE + dsmlIE + dsmlFE }},
	{"dsml-many-calls", func(n int) string {
		return dsmlFC + "\n" + repeatTo(dsmlI+"\n"+dsmlP+"Paris"+dsmlPE+"\n"+dsmlIE+"\n", n) + dsmlFE
	}},
}
