package leaked

import "strings"

// The reading this file implements (core/leaked/doc.go summarizes it
// under Model families):
//
// DeepSeek V3, R1 and V3.1. Their calls stand between special tokens
// (bars U+FF5C, joiners U+2581): a section
// <｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜> around calls
// <｜tool▁call▁begin｜>…<｜tool▁call▁end｜>. V3 and R1 write the type word,
// the separator, the name and the arguments in a code fence
// (function<｜tool▁sep｜>NAME\n```json\n{…}\n```); V3.1 writes the name, the
// separator and the bare arguments (NAME<｜tool▁sep｜>{…}). Which form a call
// has is read from what follows the separator: a JSON object (or a fence
// around one) makes the text before the separator the name; anything else
// makes it the type word (any word, ignored) and the name the rest of that
// line, up to a fence or '{'. A V3 fence is the form and is not reported;
// a fence in the V3.1 form is reported as the code_fence repair. White space
// and newlines between the tokens are allowed. A call token is an attempt
// only when the separator follows on the same line with no '<' before it;
// otherwise the tokens are text ("the <｜tool▁call▁begin｜> token starts a
// call" stays), and so is a section token not followed by such a call.
// Tokens written with ASCII bars (<|tool▁calls▁begin|>, as some servers and
// detokenizers write them) are read the same, and either spelling may
// close the other; the tokens with spaces or underscores for the joiners
// are not DeepSeek's and stay text. Patterns report the canonical
// <｜tool▁calls▁begin｜> for a section and <｜tool▁call▁begin｜> for calls
// without one (consecutive calls, white space between, are one block).
//
// Each call is judged on its own, since its tokens delimit it: a call
// without a name (V3's type word with nothing but the arguments after the
// separator is not a call of a tool named "function"), without a JSON object after the name, or with invalid
// JSON is dropped (its Dropped entry is at the call's begin token, with the
// section's pattern, and runs through its end token, or to the next call,
// section token or block, else the end of input), and the other calls of
// its section come out. A missing end token is recoverable, as for a
// wrapper: the call ends after its JSON (and closing fence); when only
// white space or a cut-off token follows, the block runs to the end of
// input. When text follows an unterminated call or section, the text stays
// and the first run of end tokens after it, before any other call or
// block, is removed with the block. A section end token right after calls
// without a section is removed with them. The arguments are the JSON object
// as written (lossless repairs only) and are not re-typed by a tool list.
//
// With the special tokens stripped, V3 leaves functionNAME and a fenced
// JSON block, and V3.1 NAME{…}: nothing left marks a call rather than an
// example or prose, so both stay text (the fence is not scanned anyway).

// DeepSeek V3, R1 and V3.1 write their calls between special tokens:
//
//	<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
//	```json
//	{...}
//	```<｜tool▁call▁end｜><｜tool▁calls▁end｜>                       (V3, R1)
//	<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}<｜tool▁call▁end｜><｜tool▁calls▁end｜>  (V3.1)
//
// The bars are U+FF5C and the joiners U+2581. Each token is also read with
// ASCII bars (<|tool▁sep|>), as some servers and detokenizers write them.

// tok is a special token in its two spellings: with the tokenizer's
// full-width bars (U+FF5C) and with ASCII bars.
type tok [2]string

// tokens returns the token t (written with full-width bars) in both
// spellings.
func tokens(t string) tok { return tok{t, strings.ReplaceAll(t, "｜", "|")} }

// at returns the index after t when t starts at s[j].
func (t tok) at(s string, j int) (int, bool) {
	for _, v := range t {
		if strings.HasPrefix(s[j:], v) {
			return j + len(v), true
		}
	}
	return 0, false
}

// cut reports whether rest, not empty, is a proper prefix of t: the token
// cut off by the end of input.
func (t tok) cut(rest string) bool {
	for _, v := range t {
		if rest != "" && len(rest) < len(v) && strings.HasPrefix(v, rest) {
			return true
		}
	}
	return false
}

// nextTok returns the first start of t (either spelling) at or after j, or
// len(s).
func (sc *scanner) nextTok(t tok, j int) int {
	return min(sc.findExact(t[0], j), sc.findExact(t[1], j))
}

var (
	dsCallsBegin = tokens("<｜tool▁calls▁begin｜>")
	dsCallsEnd   = tokens("<｜tool▁calls▁end｜>")
	dsCallBegin  = tokens("<｜tool▁call▁begin｜>")
	dsCallEnd    = tokens("<｜tool▁call▁end｜>")
	dsSep        = tokens("<｜tool▁sep｜>")
)

// The patterns of DeepSeek's blocks: a section, and a call without one.
const (
	patternDSSection = "<｜tool▁calls▁begin｜>"
	patternDSCall    = "<｜tool▁call▁begin｜>"
)

// dsCall is one call of a DeepSeek block, parsed.
type dsCall struct {
	start, end int // its span: from its begin token through its end token, or through its body when that is missing
	closed     bool
	name, args string
	repairs    []string
	reason     string // why it is broken; empty for a call
}

// deepseek handles a section (<｜tool▁calls▁begin｜> then calls) or calls
// without one at s[i]. The begin tokens are an attempt only when a call
// follows them whose separator stands on its first line (see dsParse);
// otherwise they are text.
func (sc *scanner) deepseek(i int) (int, bool) {
	s := sc.s
	if end, ok := dsCallsBegin.at(s, i); ok {
		j := sc.skip(end)
		if _, ok := dsCallBegin.at(s, j); !ok {
			return 0, false
		}
		return sc.dsBlock(i, j, patternDSSection)
	}
	if _, ok := dsCallBegin.at(s, i); ok {
		return sc.dsBlock(i, i, patternDSCall)
	}
	return 0, false
}

// dsBlock reads the calls from s[first] on, back to back (white space
// between), of the block that opens at s[i]. Each call is judged on its
// own, since its tokens delimit it: a broken one is dropped, the others
// come out. It returns false when the first call is not an attempt.
func (sc *scanner) dsBlock(i, first int, pattern string) (int, bool) {
	s := sc.s
	c, ok := sc.dsParse(first)
	if !ok {
		return 0, false
	}
	sc.enter()
	sc.seen(pattern)
	sc.remove(i, first) // the section's begin token and the white space after it
	for {
		sc.dsRecord(pattern, c)
		j := sc.skip(c.end)
		if _, ok := dsCallBegin.at(s, j); !ok {
			break
		}
		next, ok := sc.dsParse(j)
		if !ok {
			break
		}
		c = next
	}
	return sc.closers(sc.dsClose(pattern, c)), true
}

// dsRecord removes a parsed call and adds it, or lists it as dropped.
func (sc *scanner) dsRecord(pattern string, c dsCall) {
	sc.remove(c.start, c.end)
	if c.reason != "" {
		sc.drop(pattern, c.start, sc.s[c.start:c.end], c.reason)
		return
	}
	for _, r := range c.repairs {
		sc.repairs = append(sc.repairs, Repair{Pattern: pattern, Offset: c.start, Kind: r})
	}
	sc.addCall(c.name, c.args)
}

// dsParse reads the call whose begin token starts at s[p]. It is an
// attempt when the separator follows on the same line, after a name (V3.1)
// or a type word (V3) holding no '<'. After the separator, a JSON object
// (or a code fence around one) is the arguments of the V3.1 form, the
// name being the text before the separator; anything else is the V3 form:
// the name runs to the end of the line (or to a fence or '{'), and the
// arguments follow in a code fence (or bare). A missing name (also V3's
// type word "function" with nothing after the separator but the
// arguments), missing arguments or invalid JSON make the call broken.
func (sc *scanner) dsParse(p int) (dsCall, bool) {
	s := sc.s
	q, _ := dsCallBegin.at(s, p)
	q = sc.skip(q)
	sep := sc.nextTok(dsSep, q)
	if sep >= len(s) || sep > sc.lineEnd(q) || sc.nextByte(&sc.lt, '<', q) < sep {
		return dsCall{}, false
	}
	c := dsCall{start: p}
	afterSep, _ := dsSep.at(s, sep)
	name, body, fenced := strings.TrimSpace(s[q:sep]), sc.skip(afterSep), false
	if name == "function" {
		// V3's type word with the name missing after the separator
		// (vLLM returns a call named "", Dynamo and SGLang none): no
		// call of a tool named "function".
		name = ""
	}
	switch {
	case strings.HasPrefix(s[body:], "```"): // V3.1, fenced
		c.repairs = []string{RepairCodeFence}
		body, fenced = sc.fenceBody(body), true
	case body < len(s) && s[body] == '{': // V3.1
	default: // V3: the text before the separator is the type, "function"
		cut := min(sc.lineEnd(afterSep), sc.findExact("```", afterSep), sc.findExact("{", afterSep),
			sc.nextByte(&sc.lt, '<', afterSep))
		if v3 := strings.TrimSpace(s[afterSep:cut]); v3 != "" {
			name = v3
		}
		body = sc.skip(cut)
		if strings.HasPrefix(s[body:], "```") {
			body, fenced = sc.fenceBody(body), true
		}
	}
	switch {
	case name == "":
		return sc.dsBroken(c, body, "no tool name"), true
	case body >= len(s) || s[body] != '{':
		return sc.dsBroken(c, body, "no JSON object of arguments after the tool name"), true
	}
	r := sc.readJSON(body)
	if r.err != nil {
		return sc.dsBroken(c, body, "invalid JSON: "+r.err.Error()), true
	}
	c.name, c.args, c.repairs = name, r.text, append(c.repairs, r.repairs...)
	end := r.end
	if k := sc.skip(end); fenced && strings.HasPrefix(s[k:], "```") {
		end = k + len("```")
	}
	sc.dsEnd(&c, end)
	return c, true
}

// fenceBody returns where the body of the code fence at s[j] starts: after
// the backticks, an info string of up to 16 letters (json) and white space.
func (sc *scanner) fenceBody(j int) int {
	s := sc.s
	k := j + len("```")
	for n := 0; n < 16 && k < len(s) && (s[k]|0x20 >= 'a' && s[k]|0x20 <= 'z'); n++ {
		k++
	}
	return sc.skip(k)
}

// dsEnd sets the end of a call whose body ends at end: through its end
// token after white space; at the end of input when only white space or a
// cut-off end token follows; else (the end token is missing) after the
// body.
func (sc *scanner) dsEnd(c *dsCall, end int) {
	s := sc.s
	k := sc.skip(end)
	if e, ok := dsCallEnd.at(s, k); ok {
		c.end, c.closed = e, true
		return
	}
	if k == len(s) || dsCallEnd.cut(s[k:]) || dsCallsEnd.cut(s[k:]) {
		c.end, c.closed = len(s), true
		return
	}
	c.end = end
}

// dsBroken returns the broken call c whose failure was found at from: it
// runs through its end token, or to the next call, section token or block
// opener, whichever comes first, else to the end of input.
func (sc *scanner) dsBroken(c dsCall, from int, reason string) dsCall {
	s := sc.s
	end := min(sc.nextTok(dsCallBegin, from), sc.nextTok(dsCallsEnd, from), sc.nextTok(dsCallsBegin, from),
		sc.nextOpen(from))
	if e := sc.nextTok(dsCallEnd, from); e < end {
		end, _ = dsCallEnd.at(s, e)
	}
	c.end, c.closed, c.reason = max(end, c.start+1), true, reason
	return c
}

// dsClose ends a block whose last call is c: through the section's end
// token (white space before it included); to the end of input when only
// white space or a cut-off token follows. Otherwise text follows, and
// stays; when the block is unterminated (a section without its end token,
// or a call without its own), the first run of end tokens that follows
// that text before any other call or block belongs to the block and is
// removed. It returns where scanning resumes.
func (sc *scanner) dsClose(pattern string, c dsCall) int {
	s := sc.s
	j := sc.skip(c.end)
	if e, ok := dsCallsEnd.at(s, j); ok {
		sc.remove(c.end, e)
		return e
	}
	if j == len(s) || dsCallsEnd.cut(s[j:]) || dsCallEnd.cut(s[j:]) {
		sc.remove(c.end, len(s))
		return len(s)
	}
	if c.closed && pattern == patternDSCall {
		return c.end
	}
	e := min(sc.nextTok(dsCallEnd, j), sc.nextTok(dsCallsEnd, j))
	if e >= len(s) || e > sc.nextTok(dsCallBegin, j) || e > sc.nextTok(dsCallsBegin, j) || e > sc.nextOpen(j) {
		return c.end
	}
	last := e
	for p := e; ; p = sc.skip(last) {
		k, ok := dsCallEnd.at(s, p)
		if !ok {
			k, ok = dsCallsEnd.at(s, p)
		}
		if !ok {
			break
		}
		last = k
	}
	sc.remove(e, last)
	return last
}

// deepseekASCII handles DeepSeek's and DSML's tokens written with ASCII
// bars (<|tool▁calls▁begin|>, <|DSML|function_calls>) at s[i].
func (sc *scanner) deepseekASCII(i int) (int, bool) {
	if next, ok := sc.deepseek(i); ok {
		return next, true
	}
	return sc.dsml(i)
}
