package leaked

import (
	"fmt"
	"strings"
)

// form is the opening tag of an XML-parameter call: Qwen3-Coder's
// <function=NAME> or MiniMax's <invoke name="NAME">.
type form struct {
	qwen bool
	name string
	at   int // index of the '<'
	body int // index after the tag's '>'
}

func (f form) closeTag() string {
	if f.qwen {
		return "</function>"
	}
	return "</invoke>"
}

func (f form) pattern() string {
	if f.qwen {
		return "<function=>"
	}
	return "<invoke>"
}

// stray is the closing tag of the wrapper that usually surrounds the form;
// it often comes without its opening tag, which servers strip as a special
// token.
func (f form) stray() string {
	if f.qwen {
		return "</tool_call>"
	}
	return "</minimax:tool_call>"
}

// formAt recognizes an XML-parameter call at s[j]: its opening tag followed,
// after white space, by a parameter tag or its closing tag.
func (sc *scanner) formAt(j int) (form, bool) {
	s := sc.s
	f := form{at: j}
	ok := false
	switch {
	case hasPrefixFold(s[j:], "<function="):
		f.qwen = true
		f.name, f.body, ok = sc.eqName(j + len("<function="))
	case hasPrefixFold(s[j:], "<invoke") && j+len("<invoke") < len(s) && isSpace(s[j+len("<invoke")]):
		f.name, f.body, ok = sc.attrName(j + len("<invoke"))
	}
	if !ok {
		return f, false
	}
	k := sc.skip(f.body)
	if _, _, pok := sc.paramAt(k); pok || hasPrefixFold(s[k:], f.closeTag()) {
		return f, true
	}
	return f, false
}

// paramAt recognizes a parameter tag at s[k], <parameter=KEY> or
// <parameter name="KEY">, and returns the key and the index after the tag.
func (sc *scanner) paramAt(k int) (string, int, bool) {
	s := sc.s
	const p = "<parameter"
	switch {
	case hasPrefixFold(s[k:], p+"="):
		return sc.eqName(k + len(p) + 1)
	case hasPrefixFold(s[k:], p) && k+len(p) < len(s) && isSpace(s[k+len(p)]):
		return sc.attrName(k + len(p))
	}
	return "", 0, false
}

// eqName reads NAME> at s[k]: a name up to the next '>', on one line and
// without '<', trimmed and not empty. It returns the index after the '>'.
func (sc *scanner) eqName(k int) (string, int, bool) {
	s := sc.s
	gt := sc.nextByte(&sc.gt, '>', k)
	if gt >= len(s) || sc.nextByte(&sc.lt, '<', k) < gt || sc.lineEnd(k) < gt {
		return "", 0, false
	}
	name := strings.TrimSpace(s[k:gt])
	return name, gt + 1, name != ""
}

// attrName reads ` name="NAME">` at s[k] (single quotes too): the name on
// one line and without '<', trimmed and not empty; other attributes may
// follow up to the '>'. It returns the index after the '>'.
func (sc *scanner) attrName(k int) (string, int, bool) {
	s := sc.s
	k = sc.skip(k)
	if !hasPrefixFold(s[k:], "name=") || k+len("name=") >= len(s) {
		return "", 0, false
	}
	q := s[k+len("name=")]
	m := &sc.dq
	switch q {
	case '"':
	case '\'':
		m = &sc.sq
	default:
		return "", 0, false
	}
	start := k + len("name=") + 1
	end := sc.nextByte(m, q, start)
	if end >= len(s) || sc.nextByte(&sc.lt, '<', start) < end || sc.lineEnd(start) < end {
		return "", 0, false
	}
	gt := sc.nextByte(&sc.gt, '>', end)
	if gt >= len(s) || sc.nextByte(&sc.lt, '<', end) < gt {
		return "", 0, false
	}
	name := strings.TrimSpace(s[start:end])
	return name, gt + 1, name != ""
}

// formCall is one parsed XML-parameter call.
type formCall struct {
	name string
	args []byte
	end  int // index after the closing tag, or after the last parameter when unclosed
}

// formError is a broken XML-parameter call: at is where the failure was found.
type formError struct {
	at     int
	reason string
}

// parseForm reads the parameters of the call that opens with f inside the
// wrapper w (bare for none), up to its closing tag. A malformed parameter
// tag, or a parameter that nothing closes (see paramEnd), makes the call
// broken. A missing closing tag of the call is not an error: the call ends
// after its last parameter (or at the end of input, when only a cut-off
// closing tag follows).
func (sc *scanner) parseForm(f form, w int) (formCall, *formError) {
	s := sc.s
	sc.params.reset()
	end := f.body
	k := sc.skip(end)
	for {
		key, vstart, ok := sc.paramAt(k)
		if !ok {
			if hasPrefixFold(s[k:], "<parameter") {
				return formCall{}, &formError{k, "a malformed <parameter> tag"}
			}
			break
		}
		vend, next, ok := sc.paramEnd(f, w, vstart)
		if !ok {
			return formCall{}, &formError{vstart, fmt.Sprintf("parameter %q is not closed by </parameter>", key)}
		}
		sc.params.set(key, s[vstart:vend], sc.kindOf(f.name, key, kindAuto), &sc.json)
		end = next
		k = sc.skip(end)
	}
	switch {
	case hasPrefixFold(s[k:], f.closeTag()):
		end = k + len(f.closeTag())
	case k < len(s) && isClosePrefix(s[k:], f.closeTag()):
		end = len(s)
	}
	return formCall{name: f.name, args: sc.params.object(&sc.arena), end: end}, nil
}

const closeParam = "</parameter>"

// paramEnd returns where the value that starts at vstart ends, and where
// the call goes on after it: at the first </parameter> that structure
// follows (see structural), so that a value may hold "</parameter>" itself;
// else at the first </parameter>. Only closing tags before the next
// parameter tag and the call's closing tag count.
//
// A Qwen3-Coder value with no </parameter> there ends, as the serving
// stacks read it, at the first of: the next parameter tag, the call's
// </function>, the wrapper's closing tag (</tool_call> for a bare call),
// the next block's opening tag (openEnd); these are not consumed. ok is
// false when nothing closes the value (the end of input, or a MiniMax
// <invoke>, whose parameters need </parameter>).
func (sc *scanner) paramEnd(f form, w, vstart int) (end, next int, ok bool) {
	limit := min(sc.nextParam(vstart), sc.find(f.closeTag(), vstart))
	first := -1
	for c := sc.find(closeParam, vstart); c < limit; c = sc.find(closeParam, c+1) {
		if first < 0 {
			first = c
		}
		if sc.structural(f, c+len(closeParam)) {
			return c, c + len(closeParam), true
		}
	}
	if first >= 0 {
		return first, first + len(closeParam), true
	}
	if !f.qwen {
		return 0, 0, false
	}
	end = sc.openEnd(w, vstart, limit)
	return end, end, end < len(sc.s)
}

// openEnd returns where a Qwen3-Coder value that starts at vstart and has
// no </parameter> before limit (the next parameter tag or </function>)
// ends: limit, or the closing tag of the wrapper w (</tool_call> or
// </seed:tool_call> when bare) or the next block's opening tag (a wrapper
// or a call) when one comes first; len(s) when none is there.
func (sc *scanner) openEnd(w, vstart, limit int) int {
	var end int
	if w != bare {
		end = min(limit, sc.find(closeTags[w], vstart))
	} else {
		end = min(limit, sc.find("</tool_call>", vstart), sc.find(seedClose, vstart))
	}
	return min(end, sc.nextOpen(vstart))
}

// structural reports whether what follows s[p], after white space, is the
// end of input or a tag that can follow a parameter: another parameter tag
// (even a malformed one), a closing tag of the call or of a wrapper (also cut
// off at the end of input), or another call.
func (sc *scanner) structural(f form, p int) bool {
	s := sc.s
	k := sc.skip(p)
	switch {
	case k == len(s):
		return true
	case s[k] != '<':
		return false
	case hasPrefixFold(s[k:], f.closeTag()) || isClosePrefix(s[k:], f.closeTag()):
		return true
	case strings.HasPrefix(s[k:], "</"):
		for _, t := range closeTags {
			if hasPrefixFold(s[k:], t) || isClosePrefix(s[k:], t) {
				return true
			}
		}
		return false
	}
	return hasPrefixFold(s[k:], "<parameter") || sc.isFormAt(k) // even a malformed parameter tag
}

// nextParam returns the start of the next parameter tag at or after j, or
// len(s).
func (sc *scanner) nextParam(j int) int {
	s := sc.s
	if j >= len(s) {
		return sc.reached(len(s))
	}
	return sc.reached(sc.param.next(j, len(s), func(j, limit int) int {
		for p := j; p < limit; p++ {
			k := indexFold(s[p:min(limit+len("<parameter")-1, len(s))], "<parameter")
			if k < 0 {
				return -1
			}
			p += k
			if _, _, ok := sc.paramAt(p); ok {
				return p
			}
		}
		return -1
	}))
}

// xmlBlock handles XML-parameter calls: inside a wrapper w whose opening tag
// at s[i] ends at after (a sequence of calls), or bare (i == after: one call).
func (sc *scanner) xmlBlock(i, w, after int) int {
	mark := len(sc.calls)
	var forms [2]string // the patterns of its calls, in order of first appearance
	nforms := 0
	var last form
	for j := sc.skip(after); ; {
		f, ok := sc.formAt(j)
		if !ok {
			break
		}
		last = f
		c, err := sc.parseForm(f, w)
		if err != nil {
			clear(sc.calls[mark:])
			sc.calls = sc.calls[:mark] // the whole block is dropped
			return sc.brokenForm(i, w, f, err)
		}
		sc.calls = append(more(sc.calls), Call{Name: c.name, Arguments: c.args}) // IDs come at the end
		if p := f.pattern(); !contains(forms[:nforms], p) {
			forms[nforms] = p
			nforms++
		}
		after = c.end
		if w == bare {
			break
		}
		j = sc.skip(c.end)
	}
	sc.enter()
	if w != bare {
		sc.seen(openTags[w])
	}
	sc.seen(forms[:nforms]...)
	if w == bare {
		return sc.finish(i, w, sc.strayAt(last, after), after)
	}
	return sc.finish(i, w, closeTags[w], after)
}

// brokenForm drops a block whose call f is broken: from its start to its
// closing tag (the wrapper's, or for a bare call its own followed by a stray
// wrapper closing tag), the next block or the end of input.
func (sc *scanner) brokenForm(i, w int, f form, err *formError) int {
	s := sc.s
	var pattern string
	var end int
	if w == bare {
		pattern = f.pattern()
		end = sc.brokenEnd(i, f.closeTag(), err.at)
		if j, stray := sc.skip(end), sc.strayAt(f, end); hasPrefixFold(s[j:], stray) {
			end = j + len(stray)
		}
	} else {
		pattern = openTags[w]
		end = sc.brokenEnd(i, closeTags[w], err.at)
	}
	sc.enter()
	sc.seen(pattern)
	if w != bare {
		sc.seen(f.pattern())
	}
	sc.drop(pattern, i, s[i:end], err.reason)
	sc.remove(i, end)
	return sc.closers(end)
}
