package leaked

import "strings"

// The model families' own forms are found at three kinds of place:
//
//   - a '<' that the wrapper scan does not claim: the special-token tags of
//     gpt-oss harmony (<|start|>, <|channel|>), Kimi K2
//     (<|tool_calls_section_begin|>, <|tool_call_begin|>), Gemma 4
//     (<|tool_call>), Llama 3 (<|python_tag|>), Llama 4's pythonic calls
//     (<|python_start|>, with Options.Pythonic), DeepSeek (<｜tool▁calls▁begin｜>)
//     and DeepSeek DSML (<｜DSML｜function_calls>): familyTag;
//   - the body of a wrapper the scan already knows, as GLM's
//     <tool_call>NAME<arg_key>… or a pythonic list in <tool_call>[f(x=1)]
//     (with Options.Pythonic): wrapperFamily;
//   - a needle that is not a tag, where a form starts whose special tokens a
//     server stripped or that has none: [TOOL_CALLS], functools[, the
//     stripped harmony and Kimi ids, Gemma's call:, pythonic lists:
//     familyAt, at the positions nextFamily finds; and a message that is
//     only JSON calls (Llama 3, Mistral with their tokens stripped):
//     bareJSON, at the start of the text.
//
// Each handler gets the position of the trigger and returns where scanning
// resumes and true, or false when no block of its family starts there (the
// scan then goes on one byte further). A handler follows the rules of the
// package: it removes whole blocks only, lists each removed block that
// yields no call in Dropped, reads the text only through bounded local
// checks and the memoized searches (sc.find, sc.findExact, sc.nextByte,
// sc.lineEnd), so that the scan stays linear, and never looks back before
// its trigger.

// needles are the non-tag starts, longest first where one is a prefix of
// another at the same position; familyAt dispatches on their index. The
// last, '[', is searched only with Options.Pythonic. (A table of strings
// and a switch, not of method values: a handler that scans on would make
// the table's initialization refer to itself.)
var needles = []string{
	"[TOOL_CALLS]",
	"functools[",
	"assistantcommentary to=functions.",
	"commentary to=functions.",
	"assistant to=functions.",
	"to=functions.",
	"functions.",
	"call:",
	"[", // pythonic, with Options.Pythonic only
}

// tryNeedle runs the handler of needles[k] at s[i].
func (sc *scanner) tryNeedle(k, i int) (int, bool) {
	switch needles[k] {
	case "[TOOL_CALLS]":
		return sc.mistral(i)
	case "functools[":
		return sc.phi4(i)
	case "functions.":
		return sc.kimiStripped(i)
	case "call:":
		return sc.gemmaStripped(i)
	case "[":
		return sc.pythonic(i)
	}
	return sc.harmonyStripped(i)
}

// activeNeedles is how many of needles the scan looks for.
func (sc *scanner) activeNeedles() int {
	if sc.opts.Pythonic {
		return len(needles)
	}
	return len(needles) - 1
}

// anchors are the bytes the needles are found by: each needle holds exactly
// one of them, and the scan looks for that byte with IndexByte and checks
// the needles around it. A search for each needle would visit every 'f',
// 'c', 'a' and 't' of prose (1 MiB of prose took 3.4 ms instead of 0.04);
// '[', '=', '.' and ':' are rarer. As each needle holds its anchor once,
// the needles of one anchor start in the order of their anchors, so the
// first anchor with a match gives the first start.
var anchors = [...]byte{'[', '=', '.', ':'}

// anchorOf returns the anchor of needle n (an index into anchors) and its
// offset in n.
func anchorOf(n string) (int, int) {
	for a, c := range anchors {
		if k := strings.IndexByte(n, c); k >= 0 {
			return a, k
		}
	}
	panic("leaked: needle without an anchor: " + n)
}

// needleAnchor holds each needle's anchor and offset, byAnchor the needles
// of each anchor (indexes into needles), and maxNeedle the length of the
// longest needle.
var needleAnchor, byAnchor, maxNeedle = func() ([][2]int, [len(anchors)][]int, int) {
	out := make([][2]int, len(needles))
	var by [len(anchors)][]int
	longest := 0
	for k, n := range needles {
		a, off := anchorOf(n)
		out[k] = [2]int{a, off}
		by[a] = append(by[a], k)
		longest = max(longest, len(n))
	}
	return out, by, longest
}()

// nextFamily returns the first position at or after j where a needle starts,
// or len(s).
func (sc *scanner) nextFamily(j int) int {
	s := sc.s
	if j >= len(s) {
		return sc.reached(len(s))
	}
	at := len(s)
	for a := range anchors {
		at = min(at, sc.fam[a].next(j, len(s), func(j, limit int) int { return sc.anchored(a, j, limit) }))
	}
	return sc.reached(at)
}

// anchored returns the first start in [j, limit) of an active needle whose
// anchor is anchors[a], or -1.
func (sc *scanner) anchored(a, j, limit int) int {
	s := sc.s
	c := anchors[a]
	active := sc.activeNeedles()
	end := min(limit+maxNeedle, len(s))
	for p := j; p < end; p++ {
		k := strings.IndexByte(s[p:end], c)
		if k < 0 {
			return -1
		}
		p += k
		best := -1
		for _, n := range byAnchor[a] {
			if n >= active {
				continue
			}
			if st := p - needleAnchor[n][1]; st >= j && st < limit && strings.HasPrefix(s[st:], needles[n]) && (best < 0 || st < best) {
				best = st
			}
		}
		if best >= 0 {
			return best
		}
	}
	return -1
}

// familyAt tries each family whose needle starts at s[i].
func (sc *scanner) familyAt(i int) (int, bool) {
	for k, n := range needles[:sc.activeNeedles()] {
		if strings.HasPrefix(sc.s[i:], n) {
			if next, ok := sc.tryNeedle(k, i); ok {
				return next, true
			}
		}
	}
	return 0, false
}

// familyTag tries the special-token tags of the families at the '<' at s[i].
func (sc *scanner) familyTag(i int) (int, bool) {
	s := sc.s
	if i+1 >= len(s) {
		return 0, false
	}
	switch s[i+1] {
	case '|':
		if next, ok := sc.harmony(i); ok {
			return next, true
		}
		if next, ok := sc.kimi(i); ok {
			return next, true
		}
		if next, ok := sc.gemma(i); ok {
			return next, true
		}
		if next, ok := sc.deepseekASCII(i); ok {
			return next, true
		}
		if next, ok := sc.pythonicTag(i); ok {
			return next, true
		}
		return sc.llama(i)
	case 'f', 'F':
		return sc.llamaFunction(i) // Llama 3.1's <function=NAME>{…}</function>
	case 0xEF: // the first byte of '｜' (U+FF5C)
		if next, ok := sc.deepseek(i); ok {
			return next, true
		}
		return sc.dsml(i)
	}
	return 0, false
}

// wrapperFamily tries the families whose calls sit in a wrapper the scan
// knows: the wrapper w opens at s[i] and its tag ends at after.
func (sc *scanner) wrapperFamily(i, w, after int) (int, bool) {
	if next, ok := sc.glm(i, w, after); ok {
		return next, true
	}
	return sc.pythonicWrapped(i, w, after)
}

// findExact returns the index of the first occurrence of needle (case
// matters) at or after j, or len(s).
func (sc *scanner) findExact(needle string, j int) int {
	s := sc.s
	if j >= len(s) {
		return sc.reached(len(s))
	}
	m := sc.exact[needle]
	if m == nil {
		m = &memo{gen: sc.gen}
		if sc.exact == nil {
			sc.exact = map[string]*memo{}
		}
		sc.exact[needle] = m
	} else if m.gen != sc.gen {
		*m = memo{gen: sc.gen}
	}
	return sc.reached(m.next(j, len(s), func(j, limit int) int {
		if k := strings.Index(s[j:min(limit+len(needle)-1, len(s))], needle); k >= 0 {
			return j + k
		}
		return -1
	}))
}

// skip returns the index of the first byte at or after j that is not white
// space. Family handlers use it rather than skipSpace, so that what they
// read is accounted for by the streaming parser.
func (sc *scanner) skip(j int) int { return sc.reached(skipSpace(sc.s, j)) }

// jsonRead is one JSON value read at a position: its text (repaired when
// repairs were needed), where it ends, and whether the strict parser read it
// as written (sc.json then holds its members, for decodeCalls).
type jsonRead struct {
	text    string
	end     int
	parsed  bool
	repairs []string
	err     error // not valid JSON, even repaired (truncated, Python literals, ...)
}

// readJSON reads the JSON object or array that starts at s[j]: as written
// when it is valid, else with the lossless repairs of scanJSON, else an
// error in encoding/json's words.
func (sc *scanner) readJSON(j int) jsonRead {
	s := sc.s
	if end := sc.reached(sc.json.value(s, j)); end >= 0 {
		return jsonRead{text: s[j:end], end: end, parsed: true}
	}
	end, fixed, reps, err := scanJSON(s, j)
	sc.reached(end)
	r := jsonRead{text: s[j:end], end: end, repairs: reps, err: err}
	if fixed != nil {
		r.text = string(fixed)
	}
	if r.err == nil {
		r.err = validJSON(r.text)
	}
	return r
}

// addCall appends a recovered call: name, and args, the text of a valid
// JSON object (compacted into the arena). Its ID comes at the end.
func (sc *scanner) addCall(name, args string) {
	sc.calls = append(more(sc.calls), Call{Name: name, Arguments: sc.arena.compact(args)})
}

// addParamsCall appends the call whose arguments sc.params holds (built
// with sc.params.reset and sc.params.set).
func (sc *scanner) addParamsCall(name string) {
	sc.calls = append(more(sc.calls), Call{Name: name, Arguments: sc.params.object(&sc.arena)})
}

// isNameByte reports whether c may stand in a tool name as the families
// write it bare (Kimi's ids, Gemma's and Mistral's names, harmony's header
// words): an ASCII letter or digit, '_', '-' or '.'.
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}
