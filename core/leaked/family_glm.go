package leaked

import "fmt"

// The reading this file implements (core/leaked/doc.go summarizes it
// under Model families):
//
// GLM 4.5, 4.6, 4.7 and 5 write a call inside <tool_call> as the tool's
// name followed by key and value pairs:
// <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call>,
// with white space allowed between the parts (GLM-4.5's template puts each
// on its own line, GLM-4.7's none). The body of a <tool_call> is read this
// way first, before a container, an XML-parameter call or JSON: it is a GLM
// call when the name (after white space: at most 128 bytes, no white space
// or '<' inside, not starting with '{' or '[') is followed, after white
// space, by <arg_key>. A key is the text up to </arg_key>, trimmed, with no
// '<' in it; a value is the text between <arg_value> and the first
// </arg_value> before the next <arg_key>, verbatim (so it may hold
// </tool_call> or markup), typed like an XML parameter (below). Tags are
// case-insensitive. A repeated key keeps its first place and its last
// value. Patterns report "<tool_call>" and "<arg_key>".
//
// A missing </tool_call> is recoverable as for any wrapper: the call ends
// after its last </arg_value> and the text after it stays (a </tool_call>
// after that text, before any other block, still goes with the call). A key
// not closed by </arg_key>, a key without its <arg_value>, a value not
// closed by </arg_value> before the next <arg_key> or the end of input, and
// an <arg_value> without its key make the call a broken attempt: the block
// runs to its </tool_call>, the next block or the end of input, and is
// removed and listed in Dropped. (vLLM's glm4_moe parser skips a pair
// without </arg_value> and runs the call without that argument; a call with
// an argument missing is not run here.)
//
// A call without arguments, <tool_call>NAME</tool_call>, cannot be told
// from a word in a wrapper ("<tool_call> hello </tool_call>" is prose): it
// is recovered only when Options.Tools declares NAME (Tools.Declares), with
// arguments {}; otherwise it stays text. With GLM's special tokens
// stripped ("get_weather\n<arg_key>city</arg_key>…" without <tool_call>),
// nothing tells where the name starts without looking back before
// <arg_key>, which the scan never does: the text stays. <arg_key> pairs in
// another wrapper (<tools>, <function_call>) are not GLM's and stay text.

// GLM 4.5 to 5 write a call inside <tool_call> as its name, then each
// argument as a key and a value, white space between the parts (newlines in
// GLM-4.5's template, none in GLM-4.7's):
//
//	<tool_call>get_weather
//	<arg_key>city</arg_key>
//	<arg_value>Paris</arg_value>
//	</tool_call>
const (
	glmKey      = "<arg_key>"
	glmKeyEnd   = "</arg_key>"
	glmValue    = "<arg_value>"
	glmValueEnd = "</arg_value>"
)

// glmMaxName bounds a GLM call's name (tool names are at most 64 characters
// on the APIs that serve them): its end is found by a bounded local check.
const glmMaxName = 128

// glm reads a GLM call in the body of the wrapper w that opens at s[i] and
// whose tag ends at after. It is a call when w is <tool_call> and a name
// (one word, not JSON) is followed by <arg_key>, or, when the tool list
// declares that name, directly by </tool_call> (a call without arguments;
// without a list "<tool_call> hello </tool_call>" is prose). Anything else
// is not GLM (ok false): the wrapper's other readings follow.
func (sc *scanner) glm(i, w, after int) (int, bool) {
	if wrappers[w] != "tool_call" {
		return 0, false
	}
	s := sc.s
	name, k, ok := sc.glmName(after)
	if !ok {
		return 0, false
	}
	closeTag := closeTags[w]
	switch {
	case hasPrefixFold(s[k:], glmKey):
	case hasPrefixFold(s[k:], closeTag) && sc.opts.Tools.Declares(name):
		sc.params.reset()
		sc.enter()
		sc.seen(openTags[w])
		sc.addParamsCall(name)
		sc.remove(i, k+len(closeTag))
		return sc.closers(k + len(closeTag)), true
	default:
		return 0, false
	}
	end, err := sc.glmArgs(name, k)
	if err != nil {
		return sc.glmBroken(i, w, err), true
	}
	sc.enter()
	sc.seen(openTags[w], glmKey)
	sc.addParamsCall(name)
	return sc.finish(i, w, closeTag, end), true
}

// glmName reads the name at s[after] (after white space): up to
// glmMaxName bytes that are neither white space nor '<', not starting like
// JSON. It returns the name and where the next tag starts, after white
// space; ok is false when a '<' does not follow.
func (sc *scanner) glmName(after int) (string, int, bool) {
	s := sc.s
	j := sc.skip(after)
	e := j
	for e < len(s) && e-j <= glmMaxName && s[e] != '<' && !isSpace(s[e]) {
		e++
	}
	if e == j || e-j > glmMaxName || s[j] == '{' || s[j] == '[' {
		return "", 0, false
	}
	k := sc.skip(e)
	if k >= len(s) || s[k] != '<' {
		return "", 0, false
	}
	return s[j:e], k, true
}

// glmArgs reads the key and value pairs that start at s[k] into sc.params
// and returns the index after the last </arg_value>. A key not closed by
// </arg_key> on its own (no '<' inside), a key without its <arg_value>, a
// value not closed by </arg_value> before the next <arg_key>, and a value
// without its key make the call broken.
func (sc *scanner) glmArgs(name string, k int) (int, *formError) {
	s := sc.s
	sc.params.reset()
	end := k
	for hasPrefixFold(s[k:], glmKey) {
		kstart := k + len(glmKey)
		kend := sc.find(glmKeyEnd, kstart)
		if kend == len(s) || sc.nextByte(&sc.lt, '<', kstart) < kend {
			return 0, &formError{k, "an <arg_key> not closed by </arg_key>"}
		}
		key := trimSpace(s[kstart:kend])
		v := sc.skip(kend + len(glmKeyEnd))
		if !hasPrefixFold(s[v:], glmValue) {
			return 0, &formError{v, fmt.Sprintf("argument %q has no <arg_value>", key)}
		}
		vstart := v + len(glmValue)
		vend := sc.find(glmValueEnd, vstart)
		if vend == len(s) || sc.find(glmKey, vstart) < vend {
			return 0, &formError{vstart, fmt.Sprintf("argument %q is not closed by </arg_value>", key)}
		}
		sc.params.set(key, s[vstart:vend], sc.kindOf(name, key, kindAuto), &sc.json)
		end = vend + len(glmValueEnd)
		k = sc.skip(end)
	}
	if hasPrefixFold(s[k:], glmValue) {
		return 0, &formError{k, "an <arg_value> without its <arg_key>"}
	}
	return end, nil
}

// glmBroken drops the GLM call in the wrapper w that opens at s[i]: from
// its opening tag to its closing tag, the next block or the end of input.
func (sc *scanner) glmBroken(i, w int, err *formError) int {
	end := sc.brokenEnd(i, closeTags[w], err.at)
	sc.enter()
	sc.seen(openTags[w], glmKey)
	sc.drop(openTags[w], i, sc.s[i:end], err.reason)
	sc.remove(i, end)
	return sc.closers(end)
}

// trimSpace trims the white space of isSpace from both ends of t.
func trimSpace(t string) string {
	a, b := 0, len(t)
	for a < b && isSpace(t[a]) {
		a++
	}
	for b > a && isSpace(t[b-1]) {
		b--
	}
	return t[a:b]
}
