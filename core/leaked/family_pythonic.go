package leaked

import (
	"strings"

	"github.com/toolout/toolout/core/jsonlex"
)

// The reading this file implements (core/leaked/doc.go summarizes it
// under Model families):
//
// Pythonic calls (Llama 3.2, Llama 4; the pythonic and llama4_pythonic
// parsers of vLLM), recognized only with Options.Pythonic, since plain
// prose and Markdown can look like them:
//
//	[get_weather(city="San Francisco", days=3), search(q='x', tags=["a", "b"])]
//
// A block is a whole list: '[', calls separated by commas (white space and
// line breaks anywhere between tokens, a trailing comma allowed), ']'. A
// call is a name (identifiers joined by dots, github.create_issue) directly
// followed by '(' and keyword arguments KEY=VALUE only. Each value is a
// Python literal, written as JSON by a parser of our own (no Python, no
// dependency): strings in single, double or triple quotes, with the
// prefixes r and u, Python's escapes (\n, \t, \\, \', \", \a … \v, octal,
// \xNN, \uNNNN, \UNNNNNNNN; a surrogate pair written as two \u escapes is
// joined, a lone surrogate becomes U+FFFD, an unknown escape such as \d
// keeps its backslash, a backslash at the end of a line continues it;
// \N{…} is not taken), adjacent literals joined ('a' "b" is "ab");
// integers (underscores, 0x, 0o, 0b, written in decimal) and floats (1. is
// 1.0, .5 is 0.5), with one sign; True, False, None as true, false, null;
// lists and tuples as arrays ((x) is x, () and (x,) are arrays); dicts
// with string keys as objects (a key given twice is written twice; JSON
// readers keep the last value, as Python does). Better than vLLM's parser,
// which takes only constants, lists and dicts: a negative number
// (x=-3) and a tuple are values. The names keep their case and dots. With a
// tool list the values keep the types their syntax gives them (days="3"
// stays a string); they are not re-typed. The block is removed and listed
// in Patterns as "[pythonic]".
//
// White space may stand between any two tokens inside the brackets, as
// Python allows: [get_time( )] is a call (vLLM, SGLang and Dynamo keep it
// as text, their patterns need "()"; parity corpus pythonic/6.b).
//
// Everything else is text, byte for byte, and no call is made of it: a
// list whose first item is not NAME( ([1, 2], [see docs], [TODO]); a call
// with a positional argument ([feat(api)], [get_weather("Paris")]), a
// keyword given twice, more than 1000 keyword arguments, **kwargs, or a
// value that is not a literal (a name such as city=Paris, an expression, a
// call, a set, a dict with other keys, an f-string or bytes, a decimal
// integer with leading zeros, a complex number, a number beyond a float64,
// a 0x/0o/0b integer of more than 256 digits, a line break in a
// single-quoted string, values nested deeper than 100); a list with
// anything but a call as an item, or followed by anything but ',' or ']'
// after a call ([f(x=1) for x in xs], a comprehension); a list directly
// followed by '(' or '[' or by '.' and a name ([f(a=1)](https://…), a
// Markdown link; [f(a=1)][0]; [f(a=1)].pop); a '[' right after a name, ')'
// or ']' (rows[index(i=1)], a subscript); calls without brackets outside
// Llama 4's tokens (below): print(end='') in prose is not a call, and
// vLLM's parser wants the brackets too. Without a closing marker there is
// no telling where a broken list ends and prose resumes, so a malformed
// list is never dropped as a broken attempt: it stays, and the reader sees
// what the model wrote. Text before, between and after lists stays (vLLM
// and SGLang take the message only when it is nothing but the list).
//
// A list cut off by the end of input (the model or the server stopped
// mid-call) is read only where such a list stands on its own: at the start
// of a line (after up to three spaces) or after <|python_start|>. There,
// when every call was whole and only the closing ']' is missing
// ([f(x=1), g(y=2)), the calls are recovered and the block runs to the end
// of input; when the input ends inside a call ([get_weather(city="San Fr),
// which needs at least the first call's name and '('), the whole list to
// the end of input is removed and listed in Dropped ("truncated pythonic
// call list: the input ends inside a string"). Inside a sentence ("the
// call would be [f(x=") it stays text. This reads up to four bytes before
// the '[' (and one for a subscript), all of which the scan has passed.
//
// Llama 4 writes <|python_start|> before its calls and <|python_end|> after
// them: with Options.Pythonic, a call list directly after <|python_start|>
// (white space between) is a block that starts at the token and takes a
// <|python_end|> that follows it (white space between, or cut off at the
// end of input). Between the tokens the calls may also stand without
// brackets (<|python_start|>get_weather(city="Paris")<|python_end|>), as
// they must then be all there is up to <|python_end|> or the end of input.
// Anything else after the token (code for the interpreter, import math…)
// stays text with the tokens. Without the option nothing of this form is
// read: the tokens name Python code, not only calls. In the same way a
// whole call list directly inside a wrapper the scan knows
// (<tool_call>[f(x=1)]</tool_call>, white space around it) is one block
// with the wrapper, which is listed in Patterns before "[pythonic]"; when
// anything but the closing tag (or the end of input) follows the list, the
// wrapper's tag stays text and the list is read on its own.

// Pythonic calls (Llama 3.2, Llama 4; vLLM's pythonic and llama4_pythonic
// parsers), with Options.Pythonic only:
//
//	[get_weather(city="San Francisco", days=3), search(q='x', tags=["a"])]
//
// and Llama 4's <|python_start|>…<|python_end|> around them. The package
// doc states the contract; in short, only a whole list of calls with
// keyword arguments whose values are literals is a block, and everything
// else is text, but a list cut off by the end of input at the start of a
// line.

const (
	pythonicPattern = "[pythonic]"
	pyStartTag      = "<|python_start|>"
	pyEndTag        = "<|python_end|>"
)

// pyCall is a call read from a list: its name, and its arguments, a JSON
// object, in py.out[a:b].
type pyCall struct {
	name string
	a, b int
}

// pyOutcome is what a call list turned out to be.
type pyOutcome uint8

const (
	pyNone  pyOutcome = iota // no call starts it: text
	pyCalls                  // a whole list of calls
	pyOpen                   // whole calls, then the end of input before the list's ']'
	pyCut                    // the end of input inside a call
	pyBad                    // not a list of keyword calls with literal values: text
)

// pythonic handles the '[' at s[i]. A '[' right after a name, ')' or ']'
// is a subscript (x[f(a=1)]), not a list: the byte before the trigger is
// read for that, and up to four bytes before it to know whether the list
// starts a line (atLineStart), which only decides a list cut off by the
// end of input; both lie in text the scan has already passed.
func (sc *scanner) pythonic(i int) (int, bool) {
	s := sc.s
	if i > 0 && (isIdentByte(s[i-1]) || s[i-1] == ')' || s[i-1] == ']') {
		return 0, false
	}
	return sc.pyBlock(i, i, atLineStart(s, i), true)
}

// pythonicTag handles Llama 4's <|python_start|> at s[i]: a call list after
// it (or calls without the brackets, alone up to <|python_end|> or the end
// of input) is a block that starts at the token.
func (sc *scanner) pythonicTag(i int) (int, bool) {
	s := sc.s
	if !sc.opts.Pythonic || !strings.HasPrefix(s[i:], pyStartTag) {
		return 0, false
	}
	j := sc.skip(i + len(pyStartTag))
	return sc.pyBlock(i, j, true, j < len(s) && s[j] == '[')
}

// pyBlock reads the call list at s[j], of a block that starts at s[start]
// (j, or a <|python_start|> before it), and records what it found.
// lineStart says whether a list cut off by the end of input counts.
func (sc *scanner) pyBlock(start, j int, lineStart, bracketed bool) (int, bool) {
	s := sc.s
	end, out := sc.pyCallList(j, bracketed)
	switch {
	case out == pyCalls && bracketed && linkAfter(s, end):
		return 0, false // [text](url), [a][b], [x].y: markup or code
	case out == pyCalls && start < j:
		after := sc.pyEnd(end)
		if !bracketed && after == end && sc.skip(end) < len(s) {
			return 0, false // bare calls followed by something else
		}
		end = after
	case out == pyCalls:
	case out == pyOpen && (lineStart || !bracketed):
		end = len(s)
	case out == pyCut && lineStart:
		sc.enter()
		sc.seen(pythonicPattern)
		sc.drop(pythonicPattern, start, s[start:], "truncated pythonic call list: "+sc.py.fail.msg)
		sc.remove(start, len(s))
		return len(s), true
	default:
		return 0, false
	}
	sc.enter()
	sc.seen(pythonicPattern)
	sc.addPyCalls()
	sc.remove(start, end)
	return sc.closers(end), true
}

// pythonicWrapped handles a wrapper the scan knows (w, its opening tag at
// s[i] ending at after) whose body is a whole call list followed by its
// closing tag (or the end of input, or a closing tag cut off by it): the
// wrapper goes with the list. Anything else after the list, and a list
// that is not whole, leave the wrapper to the scan (its tag stays text).
func (sc *scanner) pythonicWrapped(i, w, after int) (int, bool) {
	s := sc.s
	j := sc.skip(after)
	if !sc.opts.Pythonic || j >= len(s) || s[j] != '[' {
		return 0, false
	}
	end, out := sc.pyCallList(j, true)
	if out != pyCalls || linkAfter(s, end) {
		return 0, false
	}
	switch k := sc.skip(end); {
	case hasPrefixFold(s[k:], closeTags[w]):
		end = k + len(closeTags[w])
	case k == len(s) || isClosePrefix(s[k:], closeTags[w]):
		end = len(s)
	default:
		return 0, false
	}
	sc.enter()
	sc.seen(openTags[w], pythonicPattern)
	sc.addPyCalls()
	sc.remove(i, end)
	return sc.closers(end), true
}

// addPyCalls adds the calls of the list just read to the result.
func (sc *scanner) addPyCalls() {
	for _, c := range sc.py.calls {
		args := sc.py.out[c.a:c.b]
		if sc.py.spaced {
			args = appendCompact(sc.arena.alloc(len(args)), string(args))
		} else {
			args = append(sc.arena.alloc(len(args)), args...)
		}
		sc.calls = append(more(sc.calls), Call{Name: c.name, Arguments: args})
	}
}

// pyEnd returns the end of a <|python_end|> that follows s[end] after white
// space (or of the start of one cut off by the end of input), else end.
func (sc *scanner) pyEnd(end int) int {
	s := sc.s
	k := sc.skip(end)
	switch rest := s[k:]; {
	case strings.HasPrefix(rest, pyEndTag):
		return k + len(pyEndTag)
	case k == len(s) || strings.HasPrefix(pyEndTag, rest):
		return len(s)
	}
	return end
}

// linkAfter reports whether what follows a list at s[end] makes it markup
// or code: '(' or '[' ([text](url), [text][ref], [f(x=1)][0]) or '.' and a
// name ([f(x=1)].pop).
func linkAfter(s string, end int) bool {
	if end >= len(s) {
		return false
	}
	switch s[end] {
	case '(', '[':
		return true
	case '.':
		return end+1 < len(s) && isIdentStart(s[end+1])
	}
	return false
}

// pyCallList reads the calls at s[j]: a list ('[' at s[j]) or, when not
// bracketed, calls separated by commas. It returns where the list ends
// (after ']', or after the last call) and what it is.
func (sc *scanner) pyCallList(j int, bracketed bool) (int, pyOutcome) {
	s, p := sc.s, &sc.py
	k := j
	if bracketed {
		k = sc.skip(j + 1)
	}
	// A list of calls starts with a name and '(' right after it.
	if n := sc.pyName(k); n == k || n >= len(s) || s[n] != '(' {
		return j, pyNone
	}
	p.out, p.calls, p.depth, p.spaced = p.out[:0], p.calls[:0], 0, false
	for {
		end, ok := sc.pyCall(k)
		switch {
		case !ok && p.fail.cut:
			return end, pyCut
		case !ok:
			return end, pyBad
		}
		k = sc.skip(end)
		switch {
		case k >= len(s):
			return len(s), pyOpen
		case s[k] == ',':
			if k = sc.skip(k + 1); k >= len(s) {
				return len(s), pyOpen
			}
			if bracketed && s[k] == ']' {
				return k + 1, pyCalls
			}
		case bracketed && s[k] == ']':
			return k + 1, pyCalls
		case !bracketed:
			return end, pyCalls
		default:
			return k, pyBad
		}
	}
}

// pyName returns the end of the call name at s[k]: identifiers joined by
// dots (github.create_issue); k when there is none.
func (sc *scanner) pyName(k int) int {
	s := sc.s
	end := identEnd(s, k)
	for end > k && end+1 < len(s) && s[end] == '.' && isIdentStart(s[end+1]) {
		end = identEnd(s, end+1)
	}
	return end
}

// maxPyKeywords bounds the keyword arguments of a call (each is checked
// against the others, in a map whose size would outgrow the CPU's caches).
const maxPyKeywords = 1000

// pyCall reads one call at s[k], NAME(KEY=VALUE, ...), and appends it to
// py.calls with its arguments as a JSON object. A positional argument, a
// keyword given twice and a value that is not a literal make it no call.
func (sc *scanner) pyCall(k int) (int, bool) {
	s, p := sc.s, &sc.py
	nameEnd := sc.pyName(k)
	switch {
	case nameEnd >= len(s):
		return p.cut(nameEnd, "a call's name")
	case nameEnd == k || s[nameEnd] != '(':
		return p.bad(k, "expected a call")
	}
	call := pyCall{name: s[k:nameEnd], a: len(p.out)}
	p.out = append(p.out, '{')
	p.keys, p.set = p.keys[:0], nil
	k = sc.skip(nameEnd + 1)
	for {
		if k >= len(s) {
			return p.cut(k, "a call's arguments")
		}
		if s[k] == ')' {
			p.out = append(p.out, '}')
			call.b = len(p.out)
			p.calls = append(p.calls, call)
			return k + 1, true
		}
		keyEnd := identEnd(s, k)
		e := sc.skip(keyEnd)
		switch {
		case keyEnd == k:
			return p.bad(k, "expected a keyword argument")
		case e >= len(s):
			return p.cut(e, "a call's arguments")
		case s[e] != '=' || e+1 < len(s) && s[e+1] == '=':
			return p.bad(k, "a positional argument")
		case len(p.keys) == maxPyKeywords:
			return p.bad(k, "too many keyword arguments")
		case !p.newKey(s[k:keyEnd]):
			return p.bad(k, "a keyword argument given twice")
		}
		if len(p.keys) > 1 {
			p.out = append(p.out, ',')
		}
		p.out = append(jsonlex.Append(p.out, s[k:keyEnd]), ':')
		end, ok := sc.pyValue(sc.skip(e + 1))
		if !ok {
			return end, false
		}
		k = sc.skip(end)
		switch {
		case k >= len(s):
			return p.cut(k, "a call's arguments")
		case s[k] == ',':
			k = sc.skip(k + 1)
		case s[k] != ')':
			return p.bad(k, "expected ',' or ')'")
		}
	}
}

// newKey records a keyword argument of the current call, and reports
// whether it is new.
func (p *pyState) newKey(key string) bool {
	if p.set != nil {
		if _, dup := p.set[key]; dup {
			return false
		}
		p.set[key] = struct{}{}
		p.keys = append(p.keys, key)
		return true
	}
	for _, k := range p.keys {
		if k == key {
			return false
		}
	}
	p.keys = append(p.keys, key)
	if len(p.keys) > paramsIndexed {
		p.set = make(map[string]struct{}, 2*len(p.keys))
		for _, k := range p.keys {
			p.set[k] = struct{}{}
		}
	}
	return true
}
