package leaked

import (
	"encoding/json"
	"slices"
	"strings"
)

// block handles a block that may start at s[i]: an opening wrapper tag or a
// bare XML-parameter form. It returns the index where scanning resumes and
// false when no block starts there.
func (sc *scanner) block(i int) (int, bool) {
	if w, after, ok := sc.openTag(i); ok {
		if next, ok := sc.wrapperFamily(i, w, after); ok {
			return next, true
		}
		j := sc.skip(after)
		switch {
		case sc.isWrapperAt(j):
			// A container: its tags go when a block inside it goes. Deeper
			// than maxDepth, the opening tag stays text.
			if len(sc.stack) < maxDepth {
				sc.stack = append(sc.stack, container{w: w, start: i, end: j})
			}
			return j, true
		case sc.isFormAt(j):
			return sc.xmlBlock(i, w, after), true
		}
		return sc.jsonBlock(i, w, after), true
	}
	if sc.isFormAt(i) {
		return sc.xmlBlock(i, bare, i), true
	}
	return sc.familyTag(i)
}

func (sc *scanner) isWrapperAt(j int) bool {
	_, _, ok := sc.openTag(j)
	return ok
}

func (sc *scanner) isFormAt(j int) bool {
	_, ok := sc.formAt(j)
	return ok
}

// body is the JSON found after an opening tag.
type body struct {
	started bool // the body starts like a JSON value: an attempt
	repairs []string
	err     error // the first value that is not valid JSON
	end     int   // index after the last value (and its closing fence)
}

// jsonStart reports whether a JSON value that could hold a call starts at
// s[j]: an object, or an array whose first element is an object.
func jsonStart(s string, j int) bool {
	if j >= len(s) {
		return false
	}
	if s[j] == '{' {
		return true
	}
	if s[j] == '[' {
		k := skipSpace(s, j+1)
		return k < len(s) && s[k] == '{'
	}
	return false
}

// startsJSON is jsonStart, with the white space it reads accounted for (reach).
func (sc *scanner) startsJSON(j int) bool {
	if j < len(sc.s) && sc.s[j] == '[' {
		sc.reached(sc.skip(j + 1))
	}
	return jsonStart(sc.s, j)
}

// parseBody reads the JSON values after an opening tag that ends at after:
// white space, an optional code fence, then values back to back. It calls
// each with every valid value, repaired, until each returns false; parsed
// says that sc.json holds the value's members (it was valid as written, and
// read in one pass). A value that is not valid as written is scanned for its
// extent and repaired, then validated again by encoding/json.
func (sc *scanner) parseBody(after int, each func(value string, parsed bool) bool) body {
	s := sc.s
	var b body
	j := sc.skip(after)
	fenced := false
	if strings.HasPrefix(s[j:], "```") {
		if k := sc.skip(sc.lineEnd(j)); sc.startsJSON(k) {
			fenced, j = true, k
		}
	}
	if !sc.startsJSON(j) {
		return b
	}
	b.started = true
	for sc.startsJSON(j) {
		end := sc.reached(sc.json.value(s, j))
		parsed := end >= 0
		text := s[j:max(end, j)]
		if !parsed {
			var fixed []byte
			var reps []string
			var err error
			end, fixed, reps, err = scanJSON(s, j)
			sc.reached(end)
			text = s[j:end]
			if fixed != nil {
				text = string(fixed)
			}
			if err == nil {
				err = validJSON(text)
			}
			if err != nil {
				b.err = err
				return b
			}
			for _, r := range reps {
				if !contains(b.repairs, r) {
					b.repairs = append(b.repairs, r)
				}
			}
		}
		if !each(text, parsed) {
			return b
		}
		b.end = end
		j = sc.skip(end)
	}
	if fenced {
		if strings.HasPrefix(s[j:], "```") {
			b.end = j + 3
		}
		b.repairs = append([]string{RepairCodeFence}, b.repairs...)
	}
	return b
}

// validJSON returns the decoder's error when text is not valid JSON (the
// scan only finds its extent).
func validJSON(text string) error {
	var p strict
	if len(text) > 0 && p.value(text, 0) == len(text) || json.Valid([]byte(text)) {
		return nil
	}
	var v json.RawMessage
	return json.Unmarshal([]byte(text), &v)
}

// jsonBlock handles a wrapper whose opening tag at s[i] ends at after and is
// not followed by a block or an XML-parameter form.
//
// One pass decodes the values and keeps what it decoded from the first
// attempt at a call on, all of which the result reports; the values before
// it are not calls and are not kept, so that a long body of values that are
// not calls costs no memory, and are decoded again, only when an attempt
// follows them, to be reported.
func (sc *scanner) jsonBlock(i, w, after int) int {
	s := sc.s
	pattern := openTags[w]
	kept := sc.kept[:0]
	firstAt, n := -1, 0
	defs := true // every value so far is an echoed tool definition
	b := sc.parseBody(after, func(v string, parsed bool) bool {
		mark := len(kept)
		kept = decodeCalls(kept, &sc.json, v, parsed)
		defs = defs && !slices.ContainsFunc(kept[mark:], notDefinition)
		if firstAt < 0 {
			if slices.ContainsFunc(kept[mark:], isAttempt) {
				firstAt = n
			} else {
				clear(kept[mark:])
				kept = kept[:mark]
			}
		}
		n++
		return true
	})
	defer func() {
		clear(kept)
		sc.kept = kept[:0]
	}()
	if !b.started {
		return sc.notJSON(i, w, after)
	}
	if b.err != nil {
		end, closed := sc.closedAt(w, after)
		if !closed {
			// JSON cut off by the end of input, or broken JSON followed by
			// more text, and no closing tag: the tag is text, kept byte for
			// byte, and scanning goes on right after it.
			sc.flush()
			return after
		}
		sc.enter()
		sc.seen(pattern)
		sc.drop(pattern, i, s[i:end], "invalid JSON: "+b.err.Error())
		sc.remove(i, end)
		return sc.closers(end)
	}
	if firstAt < 0 {
		if end, closed := sc.closedAt(w, b.end); closed && !defs {
			return sc.noCall(i, w, after, end, b.repairs)
		}
		sc.flush()
		return b.end // unclosed, or echoed tool definitions: text
	}
	sc.enter()
	sc.seen(pattern)
	for _, r := range b.repairs {
		sc.repairs = append(sc.repairs, Repair{Pattern: pattern, Offset: i, Kind: r})
	}
	mark := len(sc.dropped)
	if firstAt > 0 {
		n = 0
		sc.parseBody(after, func(v string, parsed bool) bool {
			if n == firstAt {
				return false
			}
			n++
			for _, d := range decodeCalls(nil, &sc.json, v, parsed) {
				sc.report(pattern, i, d)
			}
			return true
		})
	}
	for _, d := range kept {
		sc.report(pattern, i, d)
	}
	next := sc.finish(i, w, closeTags[w], b.end)
	sc.rawOfSpans(mark)
	return next
}

// notDefinition reports whether a decoded value is anything but an echoed
// tool definition.
func notDefinition(d decoded) bool { return d.reason != toolDefinition }

// notJSON handles a wrapper whose opening tag at s[i] ends at after and
// whose body does not start like a JSON call. Empty or white space only,
// it is recorded apart (never listed; removed only when the text yields a
// call or a dropped block: result); closed, its body is prose, an attempt
// that the spec strips: removed and listed; unclosed, or with a family's
// needle in its body, the tag is prose and stays, and scanning goes on
// right after it.
func (sc *scanner) notJSON(i, w, after int) int {
	s := sc.s
	if j := sc.skip(after); hasPrefixFold(s[j:], closeTags[w]) {
		end := j + len(closeTags[w])
		sc.empties = append(sc.empties, Span{Offset: i, Length: end - i})
		return sc.closers(end)
	}
	end, closed := sc.closedAt(w, after)
	if !closed || sc.nextFamily(after) < end-len(closeTags[w]) {
		// Unclosed, or holding a family's needle (a pythonic list, a
		// stripped form), which the scan reads next: the tag is text.
		sc.flush()
		return after
	}
	sc.enter()
	sc.seen(openTags[w])
	sc.drop(openTags[w], i, s[i:end], notJSONReason)
	sc.remove(i, end)
	return sc.closers(end)
}

const notJSONReason = "not JSON: the wrapper holds prose or a value that is not an object"

// closedAt returns the end of the closing tag of the wrapper w that closes
// a body read up to from: the first one at or after from, when it comes
// before the next block opener and the closing tag of the enclosing
// container; false when the wrapper is not closed.
func (sc *scanner) closedAt(w, from int) (int, bool) {
	c := sc.find(closeTags[w], from)
	if c >= len(sc.s) || c > sc.nextOpen(from) {
		return 0, false
	}
	if n := len(sc.stack); n > 0 && sc.find(closeTags[sc.stack[n-1].w], from) < c {
		return 0, false
	}
	return c + len(closeTags[w]), true
}

// noCall removes the closed wrapper at s[i], whose JSON body is well-formed
// but yields no call and is not only echoed tool definitions, up to end,
// and lists each of its values.
func (sc *scanner) noCall(i, w, after, end int, repairs []string) int {
	pattern := openTags[w]
	sc.enter()
	sc.seen(pattern)
	for _, r := range repairs {
		sc.repairs = append(sc.repairs, Repair{Pattern: pattern, Offset: i, Kind: r})
	}
	mark := len(sc.dropped)
	sc.parseBody(after, func(v string, parsed bool) bool {
		for _, d := range decodeCalls(nil, &sc.json, v, parsed) {
			sc.report(pattern, i, d)
		}
		return true
	})
	sc.remove(i, end)
	sc.rawOfSpans(mark)
	return sc.closers(end)
}

// rawOfSpans sets the raw text of the dropped entries from mark on, values
// of a block that also yielded calls, to the span removed at their offset
// (the block's opening tag): raw is exactly what was removed there.
func (sc *scanner) rawOfSpans(mark int) {
	for k := mark; k < len(sc.dropped); k++ {
		d := &sc.dropped[k]
		for n := len(sc.spans) - 1; n >= 0 && sc.spans[n].Offset >= d.Offset; n-- {
			if sp := sc.spans[n]; sp.Offset == d.Offset {
				d.Raw = sc.s[sp.Offset : sp.Offset+sp.Length]
				break
			}
		}
	}
}

// report adds a decoded value of the block at s[i] to the result: a call,
// or a dropped value with its reason.
func (sc *scanner) report(pattern string, i int, d decoded) {
	if d.kind != isCall {
		sc.drop(pattern, i, d.raw, d.reason)
		return
	}
	sc.calls = append(more(sc.calls), Call{Name: d.name, Arguments: sc.arena.compact(d.args)}) // IDs come at the end
}

// finish removes a block that starts at s[i] and whose body ends at end, up
// to its closing tag closeTag when one follows, and returns where scanning
// resumes. w is the wrapper (bare for an XML-parameter call on its own).
func (sc *scanner) finish(i, w int, closeTag string, end int) int {
	s := sc.s
	j := sc.skip(end)
	switch {
	case hasPrefixFold(s[j:], closeTag):
		sc.remove(i, j+len(closeTag))
		return sc.closers(j + len(closeTag))
	case j == len(s) || isClosePrefix(s[j:], closeTag) || w != bare && anyClosePrefix(s[j:]):
		// Missing closing tag (servers often strip it as a special token), or
		// a closing tag cut at the end of input: the span ends there.
		sc.remove(i, len(s))
		return len(s)
	}
	if k, _ := sc.closerAt(j); k >= 0 {
		sc.remove(i, end)
		return sc.closers(end) // the enclosing container closes
	}
	if n := closeTagAt(s, j); w != bare && n > 0 {
		// A closing tag of another wrapper name right after the body (a
		// <tool_call> body closed by </tool_calls>): it goes with the block.
		sc.remove(i, j+n)
		return sc.closers(j + n)
	}
	sc.remove(i, end)
	// Text follows the body; it stays. A closing tag that comes after it,
	// before any other block, still belongs to this block.
	if c := sc.find(closeTag, j); c < len(s) && c < sc.nextOpen(j) {
		sc.remove(c, c+len(closeTag))
		return sc.closers(c + len(closeTag))
	}
	if w != bare && len(sc.stack) < maxDepth && sc.isOpener(j) {
		// Unclosed, and another block follows: it may be inside this wrapper,
		// whose closing tag is then removed after it, like a container's.
		sc.stack = append(sc.stack, container{w: w, start: i, end: i, productive: true})
		return j
	}
	return sc.closers(end)
}

// closeTagAt returns the length of the closing wrapper tag at s[j], of any
// wrapper name, or 0.
func closeTagAt(s string, j int) int {
	if !strings.HasPrefix(s[j:], "</") {
		return 0
	}
	for _, tag := range closeTags {
		if hasPrefixFold(s[j:], tag) {
			return len(tag)
		}
	}
	return 0
}

// anyClosePrefix reports whether rest is a closing wrapper tag of any name
// cut off by the end of input.
func anyClosePrefix(rest string) bool {
	for _, tag := range closeTags {
		if isClosePrefix(rest, tag) {
			return true
		}
	}
	return false
}

// brokenEnd returns the end of a broken block that opened at s[i] and whose
// failure was found after from: its closing tag closeTag, the next block
// opener or the closing tag of the innermost container, whichever comes
// first, else the end of input.
func (sc *scanner) brokenEnd(i int, closeTag string, from int) int {
	end := sc.nextOpen(from)
	if c := sc.find(closeTag, from); c < end {
		end = c + len(closeTag)
	}
	if n := len(sc.stack); n > 0 {
		end = min(end, sc.find(closeTags[sc.stack[n-1].w], from))
	}
	return max(end, i+1)
}

// isAttempt reports whether a decoded value is a call or a broken attempt at one.
func isAttempt(d decoded) bool { return d.kind != notCall }
