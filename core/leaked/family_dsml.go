package leaked

import (
	"fmt"
	"strings"
)

// The reading this file implements (core/leaked/doc.go summarizes it
// under Model families):
//
// DeepSeek V3.2 and V4 DSML. Calls are XML-like tags whose names start with
// the token ｜DSML｜: a wrapper <｜DSML｜function_calls> (V4:
// <｜DSML｜tool_calls>) around invokes <｜DSML｜invoke name="NAME"> holding
// parameters <｜DSML｜parameter name="KEY" string="true|false">V
// </｜DSML｜parameter>, closed by </｜DSML｜invoke> and the wrapper's
// closing tag. They are read as MiniMax's invokes are: an invoke is a call
// only when a parameter tag or its closing tag follows it (after white
// space) and its name is not blank; a wrapper is an attempt only when such
// an invoke follows it; otherwise the tags are text. An invoke may stand
// without the wrapper (pattern <｜DSML｜invoke>), and a wrapper's closing
// tag right after it is removed with it. The parameter tag's attributes
// come in any order, in double or single quotes; its name is required. A
// value is the text up to the first </｜DSML｜parameter> that structure
// follows (another parameter tag, the invoke's or a wrapper's closing tag,
// another invoke, the end of input), so a value may hold that tag itself;
// one leading and one trailing newline are stripped, as for every XML
// parameter. string="true" makes the value a string, verbatim ("007",
// "true", "{…}" stay strings); string="false" makes it JSON when it is
// valid JSON and a string otherwise (null is null here); without the
// attribute, or with another value, the rule of XML parameters applies.
// With a tool list, the declared type wins over the attribute (a parameter
// declared integer is decoded from string="true">5; one declared string
// stays "12" from string="false">12). Tags written with ASCII bars
// (<|DSML|function_calls>) are read the same; patterns report the
// canonical spelling.
//
// Broken or recoverable, as for MiniMax: a missing </｜DSML｜invoke> is
// recoverable (the call ends after its last parameter), and so is a
// missing wrapper closing tag (the block runs to the end of input, or
// text follows it and a wrapper closing tag after that text, before any
// other block, is removed too). A parameter not closed before the next
// parameter tag, the invoke's closing tag or the end of input (a truncated
// output), and a malformed parameter tag, break the invoke, and the whole
// wrapper is dropped through its closing tag (or the next DSML wrapper or
// block opener, else the end of input): the unclosed value may have run
// into the invokes after it. Unlike DeepSeek V3's calls, which their
// tokens delimit, a DSML block is judged whole.
//
// Stripped of the ｜DSML｜ token, the tags are no longer DSML: the
// invokes (<invoke name="…"><parameter name="…" string="true">…) are
// MiniMax's form and come out as such (pattern <invoke>, values typed by
// the rule of XML parameters, the string attribute ignored), and the
// <function_calls> tags around them, no wrapper of ours, stay text.

// DeepSeek V3.2 and V4 write their calls in DSML, XML-like tags whose names
// start with the token ｜DSML｜ (U+FF5C bars; ASCII bars are read too):
//
//	<｜DSML｜function_calls>
//	<｜DSML｜invoke name="get_weather">
//	<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>
//	<｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>
//	</｜DSML｜invoke>
//	</｜DSML｜function_calls>
//
// V4 names the wrapper tool_calls. string="true" marks a string, verbatim;
// string="false" a JSON value.

var (
	dsmlOpens     = [...]tok{tokens("<｜DSML｜function_calls>"), tokens("<｜DSML｜tool_calls>")}
	dsmlCloses    = [...]tok{tokens("</｜DSML｜function_calls>"), tokens("</｜DSML｜tool_calls>")}
	dsmlInvoke    = tokens("<｜DSML｜invoke")
	dsmlInvokeEnd = tokens("</｜DSML｜invoke>")
	dsmlParam     = tokens("<｜DSML｜parameter")
	dsmlParamEnd  = tokens("</｜DSML｜parameter>")
)

// The patterns of DSML's blocks: the two wrappers, and an invoke without one.
var dsmlPatterns = [...]string{"<｜DSML｜function_calls>", "<｜DSML｜tool_calls>"}

const patternDSMLInvoke = "<｜DSML｜invoke>"

// dsml handles a DSML wrapper followed by an invoke, or an invoke without a
// wrapper, at s[i]. An invoke is a call only when a parameter tag or its
// closing tag follows it; otherwise (a wrapper followed by prose, a cut-off
// invoke tag) the tags are text.
func (sc *scanner) dsml(i int) (int, bool) {
	s := sc.s
	for w, t := range dsmlOpens {
		if end, ok := t.at(s, i); ok {
			j := sc.skip(end)
			if _, _, ok := sc.dsmlInvokeAt(j); !ok {
				return 0, false
			}
			return sc.dsmlBlock(i, w, j), true
		}
	}
	if _, _, ok := sc.dsmlInvokeAt(i); ok {
		return sc.dsmlBlock(i, bare, i), true
	}
	return 0, false
}

// dsmlInvokeAt recognizes an invoke at s[j]: <｜DSML｜invoke name="NAME">
// followed, after white space, by a parameter tag or </｜DSML｜invoke>. It
// returns the name and the index after the tag.
func (sc *scanner) dsmlInvokeAt(j int) (string, int, bool) {
	s := sc.s
	k, ok := dsmlInvoke.at(s, j)
	if !ok || k >= len(s) || !isSpace(s[k]) {
		return "", 0, false
	}
	name, body, ok := sc.attrName(k)
	if !ok {
		return "", 0, false
	}
	n := sc.skip(body)
	if _, _, _, ok := sc.dsmlParamAt(n); ok {
		return name, body, true
	}
	_, ok = dsmlInvokeEnd.at(s, n)
	return name, body, ok
}

// dsmlParamAt recognizes a parameter tag at s[k]:
// <｜DSML｜parameter name="KEY" string="true|false"> (attributes in any
// order, single quotes allowed, string optional). It returns the key, how
// its value is typed (kindString for string="true", kindJSON for "false",
// else kindAuto) and the index after the tag.
func (sc *scanner) dsmlParamAt(k int) (string, valueKind, int, bool) {
	s := sc.s
	p, ok := dsmlParam.at(s, k)
	if !ok || p >= len(s) || !isSpace(s[p]) {
		return "", kindAuto, 0, false
	}
	gt := sc.nextByte(&sc.gt, '>', p)
	if gt >= len(s) || sc.nextByte(&sc.lt, '<', p) < gt || sc.lineEnd(p) < gt {
		return "", kindAuto, 0, false
	}
	key, hint, ok := dsmlAttrs(s[p:gt])
	return key, hint, gt + 1, ok
}

// dsmlAttrs reads the attributes of a parameter tag: name (required, not
// blank, trimmed) and string. Anything that is not name="value" makes the
// tag malformed.
func dsmlAttrs(tag string) (string, valueKind, bool) {
	key, hint, named := "", kindAuto, false
	for k := skipSpace(tag, 0); k < len(tag); k = skipSpace(tag, k) {
		eq := strings.IndexByte(tag[k:], '=')
		if eq <= 0 || k+eq+1 >= len(tag) || (tag[k+eq+1] != '"' && tag[k+eq+1] != '\'') {
			return "", kindAuto, false
		}
		attr, q := tag[k:k+eq], tag[k+eq+1]
		start := k + eq + 2
		end := strings.IndexByte(tag[start:], q)
		if end < 0 {
			return "", kindAuto, false
		}
		val := tag[start : start+end]
		switch attr {
		case "name":
			key, named = strings.TrimSpace(val), true
		case "string":
			switch val {
			case "true":
				hint = kindString
			case "false":
				hint = kindJSON
			}
		}
		k = start + end + 1
	}
	return key, hint, named && key != ""
}

// dsmlBlock reads the invokes of the block that opens at s[i]: back to back
// from s[first] inside wrapper w (an index into dsmlOpens), or one invoke
// when w is bare. A broken invoke drops the whole block, as a broken
// MiniMax invoke does its <minimax:tool_call>: a value not closed may have
// run into the invokes after it.
func (sc *scanner) dsmlBlock(i, w, first int) int {
	pattern := patternDSMLInvoke
	if w != bare {
		pattern = dsmlPatterns[w]
	}
	mark := len(sc.calls)
	end := first
	for j := first; ; j = sc.skip(end) {
		name, body, ok := sc.dsmlInvokeAt(j)
		if !ok {
			break
		}
		e, err := sc.dsmlCall(name, body)
		if err != nil {
			clear(sc.calls[mark:])
			sc.calls = sc.calls[:mark]
			return sc.dsmlBroken(i, w, pattern, err)
		}
		sc.addParamsCall(name)
		end = e
		if w == bare {
			break
		}
	}
	sc.enter()
	sc.seen(pattern)
	return sc.closers(sc.dsmlClose(i, end))
}

// dsmlCall reads the parameters of the invoke named name whose tag ends at
// body into sc.params, and returns the index after its closing tag (after
// its last parameter when the closing tag is missing, the end of input
// when it is cut off there). A parameter not closed before the next
// parameter tag, the invoke's closing tag or the end of input, and a
// malformed parameter tag, make it broken.
func (sc *scanner) dsmlCall(name string, body int) (int, *formError) {
	s := sc.s
	sc.params.reset()
	end := body
	k := sc.skip(end)
	for {
		key, hint, vstart, ok := sc.dsmlParamAt(k)
		if !ok {
			if _, pre := dsmlParam.at(s, k); pre {
				return 0, &formError{k, "a malformed <｜DSML｜parameter> tag"}
			}
			break
		}
		vend, ok := sc.dsmlValueEnd(vstart)
		if !ok {
			return 0, &formError{vstart, fmt.Sprintf("parameter %q is not closed by </｜DSML｜parameter>", key)}
		}
		sc.params.set(key, s[vstart:vend], sc.kindOf(name, key, hint), &sc.json)
		end, _ = dsmlParamEnd.at(s, vend)
		k = sc.skip(end)
	}
	if e, ok := dsmlInvokeEnd.at(s, k); ok {
		return e, nil
	}
	if k < len(s) && dsmlInvokeEnd.cut(s[k:]) {
		return len(s), nil
	}
	return end, nil
}

// dsmlValueEnd returns where the value that starts at vstart ends: at the
// first </｜DSML｜parameter> that structure follows (dsmlStructural), so
// that a value may hold that closing tag itself; else at the first one.
// Only closing tags before the next parameter tag and the invoke's closing
// tag count; ok is false when there is none.
func (sc *scanner) dsmlValueEnd(vstart int) (int, bool) {
	limit := min(sc.nextTok(dsmlParam, vstart), sc.nextTok(dsmlInvokeEnd, vstart))
	first := -1
	for c := sc.nextTok(dsmlParamEnd, vstart); c < limit; c = sc.nextTok(dsmlParamEnd, c+1) {
		if first < 0 {
			first = c
		}
		if e, _ := dsmlParamEnd.at(sc.s, c); sc.dsmlStructural(e) {
			return c, true
		}
	}
	return first, first >= 0
}

// dsmlStructural reports whether what follows s[p], after white space, can
// follow a parameter: the end of input, a parameter tag (even a malformed
// one), the invoke's or a wrapper's closing tag (also cut off at the end
// of input), or another invoke.
func (sc *scanner) dsmlStructural(p int) bool {
	s := sc.s
	k := sc.skip(p)
	if k == len(s) {
		return true
	}
	if s[k] != '<' {
		return false
	}
	rest := s[k:]
	for _, t := range dsmlAfterValue {
		if _, ok := t.at(s, k); ok || t.cut(rest) {
			return true
		}
	}
	return false
}

// dsmlAfterValue are the tags that may follow a parameter's value.
var dsmlAfterValue = [...]tok{dsmlParam, dsmlInvoke, dsmlInvokeEnd, dsmlCloses[0], dsmlCloses[1]}

// dsmlCloseAt returns the index after a wrapper's closing tag at s[j].
func dsmlCloseAt(s string, j int) (int, bool) {
	for _, t := range dsmlCloses {
		if e, ok := t.at(s, j); ok {
			return e, true
		}
	}
	return 0, false
}

// nextDSMLOpen returns the start of the next DSML wrapper or invoke tag, or
// of another block opener, at or after j.
func (sc *scanner) nextDSMLOpen(j int) int {
	return min(sc.nextTok(dsmlOpens[0], j), sc.nextTok(dsmlOpens[1], j), sc.nextTok(dsmlInvoke, j), sc.nextOpen(j))
}

// dsmlClose removes a block that starts at s[i] and whose last invoke ends
// at end, through a wrapper's closing tag when one follows (either name:
// an invoke on its own is often what is left of a wrapper whose opening
// tag was lost), and returns where scanning resumes. When only white space
// or a cut-off closing tag follows, the block runs to the end of input;
// when text follows, it stays, and a wrapper's closing tag after it,
// before any other block, is removed too.
func (sc *scanner) dsmlClose(i, end int) int {
	s := sc.s
	j := sc.skip(end)
	if e, ok := dsmlCloseAt(s, j); ok {
		sc.remove(i, e)
		return e
	}
	if j == len(s) || dsmlCloses[0].cut(s[j:]) || dsmlCloses[1].cut(s[j:]) {
		sc.remove(i, len(s))
		return len(s)
	}
	sc.remove(i, end)
	c := min(sc.nextTok(dsmlCloses[0], j), sc.nextTok(dsmlCloses[1], j))
	if c >= len(s) || c > sc.nextDSMLOpen(j) {
		return end
	}
	e, _ := dsmlCloseAt(s, c)
	sc.remove(c, e)
	return e
}

// dsmlBroken drops the block at s[i] whose invoke is broken: from its start
// to the wrapper's closing tag (for an invoke on its own, the invoke's
// closing tag and a wrapper's closing tag right after it), the next block
// or the end of input.
func (sc *scanner) dsmlBroken(i, w int, pattern string, err *formError) int {
	s := sc.s
	from := err.at
	end := min(sc.nextTok(dsmlOpens[0], from), sc.nextTok(dsmlOpens[1], from), sc.nextOpen(from))
	closes := dsmlCloses[:]
	if w == bare {
		end = min(end, sc.nextTok(dsmlInvoke, from))
		closes = []tok{dsmlInvokeEnd}
	}
	for _, t := range closes {
		if c := sc.nextTok(t, from); c < end {
			end, _ = t.at(s, c)
		}
	}
	if w == bare {
		if e, ok := dsmlCloseAt(s, sc.skip(end)); ok {
			end = e
		}
	}
	end = max(end, i+1)
	sc.enter()
	sc.seen(pattern)
	sc.drop(pattern, i, s[i:end], err.reason)
	sc.remove(i, end)
	return sc.closers(end)
}
