package leaked

import (
	"fmt"
	"strings"
)

// The reading this file implements (core/leaked/doc.go summarizes it
// under Model families):
//
// Kimi K2. A tool-call section, <|tool_calls_section_begin|> (or the
// singular <|tool_call_section_begin|>), holds calls
// <|tool_call_begin|>ID<|tool_call_argument_begin|>{…}<|tool_call_end|>,
// white space allowed between the tokens, up to
// <|tool_calls_section_end|> (or <|tool_call_section_end|>). The id
// functions.NAME:IDX names the tool: NAME is what stands between the
// functions. prefix and the last ':' (an id without the prefix, search:0,
// names search; NAME may hold dots, so functions.github.create_issue:3
// calls github.create_issue; at most 128 bytes of letters, digits, '_', '-'
// and '.', and at most ten digits of index); the JSON object after the
// argument token is the arguments, read as the JSON bodies of wrappers are
// (string-aware, the same lossless repairs, not re-typed with a tool list).
// A call may also stand without its section (pattern <|tool_call_begin|>;
// a stray section end token right after it goes with it), and the argument
// token may be missing when the object follows the id directly.
//
// A token is a call only once the id and the argument token follow it (or
// a valid id and '{'); a section token followed by anything but such a
// call, an empty section and a token in prose stay text. From the argument
// token on it is an attempt: a bad id (no :IDX), arguments that are not a
// JSON object, JSON that does not parse or is cut short make it a broken
// call, removed and listed in Dropped from <|tool_call_begin|> to its
// <|tool_call_end|>, the next call or the section end, whichever comes
// first, else the end of input; the other calls of the section are kept.
// The section is removed as the spans of its tokens and calls, with the
// white space between them. A missing <|tool_call_end|> or section end is
// recoverable, like a missing closing tag: the call ends after its JSON,
// the section after its last call; text after it ends the section and
// stays, and a section end token that follows that text before any other
// call is removed too (a <|tool_call_end|> there stays text).
//
// Reasoning: a section inside <think>…</think> is not scanned, and after
// an unclosed <think> nothing is (vLLM's Kimi reasoning parser ends the
// reasoning at the first tool token when </think> is missing; we keep the
// rule of every form, so the text comes back whole, and a streaming reader
// never has to hold a call back until the end of input to know whether a
// </think> follows).
//
// Stripped (pattern functions.NAME:IDX): functions.NAME:DIGITS followed,
// directly or after white space (or a surviving argument token), by a JSON
// object that parses is a call; end tokens left right after it go with it.
// Anything else, an id in prose or one followed by an object that does not
// parse, is prose and stays: without its tokens a broken call is not told
// apart from text, so it is never dropped.

// Kimi K2's special tokens. The section names come singular and plural.
const (
	kimiSections    = "<|tool_calls_section_begin|>"
	kimiSection     = "<|tool_call_section_begin|>"
	kimiSectionsEnd = "<|tool_calls_section_end|>"
	kimiSectionEnd  = "<|tool_call_section_end|>"
	kimiCallBegin   = "<|tool_call_begin|>"
	kimiArgBegin    = "<|tool_call_argument_begin|>"
	kimiCallEnd     = "<|tool_call_end|>"

	kimiStrippedPattern = "functions.NAME:IDX"
)

// maxKimiID bounds the name of a call id (functions.NAME before ":IDX")
// and maxKimiIndex its index: an id is read by a bounded local check.
const (
	maxKimiID    = 128
	maxKimiIndex = 10
)

// kimiCall is one call of Kimi K2's form: the id functions.NAME:IDX, the
// argument token, a JSON object and <|tool_call_end|>.
type kimiCall struct {
	name   string
	args   jsonRead
	body   int    // where the arguments start
	end    int    // after the arguments and the <|tool_call_end|> that follows them
	reason string // a broken attempt: why it yields no call
}

// kimi handles a Kimi K2 section (<|tool_calls_section_begin|>, or the
// singular <|tool_call_section_begin|>) or a call without its section
// (<|tool_call_begin|>) at s[i].
func (sc *scanner) kimi(i int) (int, bool) {
	s := sc.s
	var j int
	switch {
	case strings.HasPrefix(s[i:], kimiSections):
		j = i + len(kimiSections)
	case strings.HasPrefix(s[i:], kimiSection):
		j = i + len(kimiSection)
	case strings.HasPrefix(s[i:], kimiCallBegin):
		return sc.kimiBare(i)
	default:
		return 0, false
	}
	k := sc.skip(j)
	if !strings.HasPrefix(s[k:], kimiCallBegin) {
		return 0, false // a section token in prose, or an empty section: text
	}
	c, ok := sc.readKimiCall(k, true)
	if !ok {
		return 0, false
	}
	sc.enter()
	sc.seen(kimiSections)
	prev := i // the end of what is removed so far
	for {
		end := sc.kimiRecord(kimiSections, k, c)
		sc.remove(prev, k) // the section token and the white space before the call
		sc.remove(k, end)
		prev = end
		k = sc.skip(end)
		if !strings.HasPrefix(s[k:], kimiCallBegin) {
			break
		}
		if c, ok = sc.readKimiCall(k, true); !ok {
			break // prose after the token: the section ends before it
		}
	}
	return sc.kimiSectionEnd(prev), true
}

// kimiSectionEnd ends a section whose last call ends at p: its end token
// (after white space) is removed, or the white space up to the end of
// input or a cut-off end token. When text follows instead, it stays, and an
// end token after it, before any other call, is removed.
func (sc *scanner) kimiSectionEnd(p int) int {
	s := sc.s
	k := sc.skip(p)
	if n := kimiEndAt(s, k); n > 0 {
		sc.remove(p, k+n)
		return sc.closers(k + n)
	}
	if k == len(s) || cutToken(s[k:], kimiSectionsEnd) || cutToken(s[k:], kimiSectionEnd) {
		sc.remove(p, len(s))
		return len(s)
	}
	next := sc.findExact(kimiCallBegin, k)
	for _, tok := range []string{kimiSectionsEnd, kimiSectionEnd} {
		if c := sc.findExact(tok, k); c < next {
			sc.remove(c, c+len(tok))
			return sc.closers(c + len(tok))
		}
	}
	return sc.closers(p)
}

// kimiBare handles a call without its section at s[i]: a stray section end
// token right after it goes with it.
func (sc *scanner) kimiBare(i int) (int, bool) {
	c, ok := sc.readKimiCall(i, true)
	if !ok {
		return 0, false
	}
	sc.enter()
	sc.seen(kimiCallBegin)
	mark := len(sc.dropped)
	end := sc.kimiRecord(kimiCallBegin, i, c)
	k := sc.skip(end)
	if n := kimiEndAt(sc.s, k); n > 0 {
		end = k + n
	}
	sc.remove(i, end)
	sc.rawOfSpans(mark) // with the stray end token
	return sc.closers(end), true
}

// kimiStripped handles functions.NAME:IDX at s[i], its tokens stripped: a
// call only when a JSON object that parses follows the id (after white
// space, or after a surviving <|tool_call_argument_begin|>); anything else
// is prose.
func (sc *scanner) kimiStripped(i int) (int, bool) {
	c, ok := sc.readKimiCall(i, false)
	if !ok || c.reason != "" {
		return 0, false
	}
	sc.enter()
	sc.seen(kimiStrippedPattern)
	mark := len(sc.dropped)
	end := sc.kimiRecord(kimiStrippedPattern, i, c)
	if k := sc.skip(end); kimiEndAt(sc.s, k) > 0 {
		end = k + kimiEndAt(sc.s, k)
	}
	sc.remove(i, end)
	sc.rawOfSpans(mark) // with the stray end token
	return sc.closers(end), true
}

// kimiRecord adds the call read at s[k] to the result, or drops it with
// its reason, and returns where its block ends.
func (sc *scanner) kimiRecord(pattern string, k int, c kimiCall) int {
	if c.reason != "" {
		end := sc.kimiBrokenEnd(k, c.body)
		sc.drop(pattern, k, sc.s[k:end], c.reason)
		return end
	}
	for _, r := range c.args.repairs {
		sc.repairs = append(sc.repairs, Repair{Pattern: pattern, Offset: k, Kind: r})
	}
	sc.addCall(c.name, c.args.text)
	return c.end
}

// kimiBrokenEnd returns the end of a broken call that opened at s[k] and
// whose arguments start at from: its <|tool_call_end|>, the next call or
// the end of its section, whichever comes first, else the end of input.
func (sc *scanner) kimiBrokenEnd(k, from int) int {
	end := len(sc.s)
	if c := sc.findExact(kimiCallEnd, from); c < end {
		end = c + len(kimiCallEnd)
	}
	for _, tok := range []string{kimiCallBegin, kimiSectionsEnd, kimiSectionEnd} {
		end = min(end, sc.findExact(tok, from))
	}
	return max(end, k+1)
}

// readKimiCall reads a call at s[k]: with token, at its <|tool_call_begin|>
// (white space may follow it); without, at its id (stripped). It returns
// false when no call starts there: the id is not followed by the argument
// token or, with a valid id, by '{'; stripped, also when the id is not
// functions.NAME:IDX or the arguments are not a JSON object that parses.
// With the token, a call that reached its argument token is an attempt:
// a bad id or bad arguments make it broken (reason set).
func (sc *scanner) readKimiCall(k int, token bool) (kimiCall, bool) {
	s := sc.s
	var c kimiCall
	p := k
	if token {
		p = sc.skip(k + len(kimiCallBegin))
	}
	idEnd, name, idOK := kimiID(s, p)
	q := sc.skip(idEnd)
	marked := strings.HasPrefix(s[q:], kimiArgBegin)
	if marked {
		q = sc.skip(q + len(kimiArgBegin))
	}
	object := q < len(s) && s[q] == '{'
	if attempt := token && marked; !attempt && (!idOK || !object) {
		return c, false
	}
	c.name, c.body = name, q
	switch {
	case !idOK:
		c.reason = fmt.Sprintf("call id %q: want functions.NAME:IDX", s[p:idEnd])
		return c, true
	case !object:
		c.reason = "arguments: want a JSON object"
		return c, true
	}
	r := sc.readJSON(q)
	if r.err != nil {
		if !token {
			return c, false
		}
		c.reason = "invalid JSON: " + r.err.Error()
		return c, true
	}
	c.args, c.end = r, r.end
	switch e := sc.skip(r.end); {
	case strings.HasPrefix(s[e:], kimiCallEnd):
		c.end = e + len(kimiCallEnd)
	case e == len(s) || cutToken(s[e:], kimiCallEnd):
		c.end = len(s) // the end token missing, or cut off by the end of input
	}
	return c, true
}

// kimiID reads a call id at s[p]: NAME:IDX, NAME a run of letters, digits,
// '_', '-' and '.' (bounded), IDX digits. The name is NAME without its
// "functions." prefix (the id names the tool: functions.github.create_issue:3
// is github.create_issue, search:0 is search). It returns the index after
// the id (or after the id bytes read, when it is not one).
func kimiID(s string, p int) (end int, name string, ok bool) {
	k := p
	for k < len(s) && k-p < maxKimiID && isNameByte(s[k]) {
		k++
	}
	if k == p || k >= len(s) || s[k] != ':' {
		return k, "", false
	}
	d := k + 1
	for d < len(s) && d-k <= maxKimiIndex && s[d] >= '0' && s[d] <= '9' {
		d++
	}
	if d == k+1 {
		return d, "", false
	}
	name = strings.TrimPrefix(s[p:k], "functions.")
	return d, name, name != ""
}

// kimiEndAt returns the length of a section end token at s[k], or 0.
func kimiEndAt(s string, k int) int {
	switch {
	case strings.HasPrefix(s[k:], kimiSectionsEnd):
		return len(kimiSectionsEnd)
	case strings.HasPrefix(s[k:], kimiSectionEnd):
		return len(kimiSectionEnd)
	}
	return 0
}

// cutToken reports whether rest, not empty, is a proper prefix of tok: a
// token cut off by the end of input.
func cutToken(rest, tok string) bool {
	return rest != "" && len(rest) < len(tok) && strings.HasPrefix(tok, rest)
}
