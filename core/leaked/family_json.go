package leaked

import (
	"slices"
	"strings"
)

// The reading this file implements (core/leaked/doc.go summarizes it
// under Model families):
//
// JSON-bodied families. Llama 3.x, Mistral, Nemotron and Phi-4-mini write
// their calls as JSON after a token or in a tag; the JSON is read and sorted
// as a wrapper's body (values that are calls, broken calls, values that are
// no call: only values that are no call leave the text as it was; one value
// that does not parse makes the whole block a broken attempt, removed and
// listed), and its values are not re-typed by a tool list. After a token,
// a call without "parameters" or "arguments" has {} as a wrapper's does
// (the peers of the parser-parity corpus return no call, case 6.c). A broken block
// runs from its token to its end token (included), the next token of its
// family, the next wrapper or XML-parameter opener or the next needle of a
// family, whichever comes first, else to the end of input. Text before and
// after a block stays (the peers drop what follows a call).
//
// Llama 3.x: <|python_tag|> then JSON values separated by white space or
// ';' ({"name": "get_weather", "parameters": {"city": "Paris"}}; {…}), as
// vLLM's llama3_json parser reads them; "parameters" or "arguments". An
// <|eom_id|> or <|eot_id|> that directly follows (white space between)
// belongs to the block. Llama 4 has no <|python_tag|>: its code block
// <|python_start|>…<|python_end|> holding JSON calls is read the same way
// (pattern "<|python_start|>"), and <|python_end|>, <|eom|> and <|eot|> end
// it; Llama 4's usual JSON calls are bare messages (below). After the
// token, anything but JSON (Llama 3.1's built-in tools,
// brave_search.call(query="…"), Python for its code interpreter) is no JSON
// call: the token stays text. A ';' that no value follows stays text. The
// values ';' separates are calls of their own, so a value that does not
// parse after a call (the last call cut off) does not take the calls
// before it: they are a block, extracted, and the broken value is dropped
// alone, from its first byte (the parser-parity corpus's Dynamo and SGLang
// keep the first call of llama3_json 5.d and 5.e too). With no call before
// it, the whole block is the broken attempt.
//
// Llama 3.1's prompt format also gives custom tools
// <function=NAME>{"city": "Paris"}</function>, the object being the
// arguments (pattern "<function=>", as Qwen3-Coder's form, which a
// parameter tag after the opening tag selects). NAME is 1 to 64 letters,
// digits, '_', '-' or '.', the tag's name case-insensitive; the object must
// start as JSON does ('{' then a key or '}'), since the tag is plain text
// that prose and docs write (<function=NAME>{...} stays text). </function>
// and an end-of-message token that directly follow belong to the block;
// without </function> the call is still recovered and the text after it
// stays; an object that does not parse is dropped through </function>.
//
// Mistral: [TOOL_CALLS] then a JSON array of calls ([{"name": …,
// "arguments": {…}, "id": "a1b2c3d4e"}], Mistral 7B v0.3 and Nemo; the "id"
// is ignored; white space after the token allowed), or one call per token
// with the name outside the JSON, [TOOL_CALLS]NAME[ARGS]{…} (Mistral Small
// 3.2, Magistral, Devstral; several in a row, each its own block), also
// NAME[CALL_ID]ID[ARGS]{…}, and NAME{…} with [ARGS] stripped, as a server
// that skips control tokens sends it (vLLM reads that form). NAME is 1 to 64
// letters, digits, '_', '-' or '.' (OpenAI's limit; read by a bounded
// check), ID up to 64 letters or digits. A </s>, or the [/TOOL_CALLS]
// that Dynamo's parser-parity corpus closes its blocks with, that directly
// follows belongs to the block (and ends a broken one). [ARGS] followed by nothing, or by prose, is a
// broken attempt of its tokens only (the prose stays); a JSON array after
// [ARGS] is a broken call, removed whole; an object that does not parse is
// dropped as above. [TOOL_CALLS] followed by prose, by a name alone, a name
// over 64 bytes, or [CALL_ID] without [ARGS], is text. Magistral's
// [THINK]…[/THINK] is not skipped like <think> (a call after it is read;
// the reasoning stays text).
//
// Nemotron: <TOOLCALL>[{"name": …, "arguments": {…}}, …]</TOOLCALL> is a
// wrapper (toolcall, case-insensitive) and follows the wrapper rules: an
// array or one object, a missing or cut-off closing tag, prose inside it
// stays. Nemotron Nano's Qwen3-Coder-style <tool_call><function=…> calls
// are XML-parameter calls.
//
// Phi-4-mini: functools[{"name": …, "arguments": {…}}, …]: the '[' after
// "functools" opens the array of calls; an <|end|> that directly follows
// belongs to the block. "functools" is not a special token, so there is no
// stripped form; functools followed by anything but '[' and an object
// (functools.partial, functools [, functools[partial], functools[]) is
// text. The needle is matched wherever it starts, even inside a word (the
// scan never looks back before a trigger).
//
// Stripped tokens: a message that is only JSON calls. When the first byte
// of the text other than white space is '{' or '[', the text may be a
// Llama 3/4 or Mistral message whose special tokens the server removed:
// {"name": …, "parameters": {…}} (several separated by white space or
// ';'), or [{"name": …, "arguments": {…}}, …]. It is a message of calls
// only when every value is a call that names its arguments ("parameters"
// or "arguments": {"name": "Ada"} is data), and nothing follows the JSON
// but white space, after an optional end token (<|eom_id|>, <|eot_id|>,
// <|eom|>, <|eot|>, <|python_end|> after an object, </s> or [/TOOL_CALLS]
// after an array).
// Then the JSON is removed and its calls extracted (pattern "{json}" or
// "[json]"; repairs are reported at the JSON's offset). Anything else (an
// object that is data, a call beside text or beside data, a tool
// definition, JSON that does not parse, a call after other text) is not
// recognized, nothing is listed, and the text is scanned as usual: no
// marker but the JSON itself says that it is a call, so a cut-off or
// malformed bare message stays text. Stripped forms with nothing left to
// recognize stay text too: Mistral's NAME[ARGS]{…} without both tokens
// (get_weather{"city": "Paris"}) and Llama's JSON after other text.

// The JSON-bodied families: Llama 3.x/4 (<|python_tag|>{…}; {…}), Mistral
// ([TOOL_CALLS][{…}]), Phi-4-mini (functools[{…}]), and a message that is
// only JSON calls (Llama 3 or Mistral with their special tokens stripped).
// Their bodies are read as a wrapper's are (readJSON, decodeCalls), and
// sorted the same way: calls, broken calls, values that are not calls.

// jsonForm is what differs between the JSON-bodied families: the pattern
// they report, whether ';' may separate their values (Llama), the tokens
// that end a block when they follow it directly (white space between), and
// the triggers that end a broken block of theirs.
type jsonForm struct {
	pattern string
	semi    bool
	ends    []string // end-of-message tokens that belong to the block
	opens   []string // the family's triggers: a broken block stops before the next one
}

// valuesRead is what values read: where the last value read ends (the
// start when none was), the repairs made, and the error of the first value
// that is not valid JSON, which starts at errAt.
type valuesRead struct {
	end     int
	repairs []string
	err     error
	errAt   int
}

// values reads the JSON values that start at s[j], back to back with white
// space between them (and with semi, one ';' too), and calls each with each
// value (repaired when repairs were needed) until it returns false.
func (sc *scanner) values(j int, semi bool, each func(text string, parsed bool) bool) valuesRead {
	s := sc.s
	v := valuesRead{end: j}
	for jsonStart(s, j) {
		r := sc.readJSON(j)
		if r.err != nil {
			v.err, v.errAt = r.err, j
			return v
		}
		for _, k := range r.repairs {
			if !contains(v.repairs, k) {
				v.repairs = append(v.repairs, k)
			}
		}
		if !each(r.text, r.parsed) {
			v.end = r.end
			return v
		}
		v.end = r.end
		j = sc.skip(v.end)
		if semi && j < len(s) && s[j] == ';' {
			if k := sc.skip(j + 1); jsonStart(s, k) {
				j = k
			}
		}
	}
	return v
}

// familyJSON handles the JSON values at s[j] of a block of form f whose
// trigger is at s[i], as jsonBlock handles a wrapper's body: values that
// are all "not a call" leave the block as text; a value that does not parse
// makes the whole block a broken attempt, removed and listed; otherwise the
// block is removed, its calls extracted and its other values listed. In a
// form whose values ';' separates (Llama), each value is a call of its own:
// the values before one that does not parse are a block when they hold an
// attempt, and the broken value alone is dropped after them. It returns
// where scanning resumes.
//
// The values are read twice: once to decide, decoding them only up to the
// first attempt and keeping nothing, once to report them, so that a long
// run of calls costs no list of decoded values.
func (sc *scanner) familyJSON(f *jsonForm, i, j int) int {
	kept := sc.kept[:0]
	defer func() {
		clear(kept)
		sc.kept = kept[:0]
	}()
	attempt := false
	v := sc.values(j, f.semi, func(text string, parsed bool) bool {
		if !attempt {
			kept = decodeCalls(kept[:0], &sc.json, text, parsed)
			attempt = slices.ContainsFunc(kept, isAttempt)
		}
		return true
	})
	switch {
	case v.err != nil && (!f.semi || !attempt):
		return sc.closers(sc.brokenFamily(f, i, j, "invalid JSON: "+v.err.Error()))
	case !attempt:
		sc.flush()
		return v.end // well-formed JSON, but no call: text
	}
	sc.enter()
	mark := len(sc.dropped)
	kept = sc.reportValues(f, i, j, v.repairs, kept)
	if v.err != nil {
		sc.remove(i, v.errAt)
		sc.rawOfSpans(mark)
		return sc.closers(sc.brokenFamily(f, v.errAt, v.errAt, "invalid JSON: "+v.err.Error()))
	}
	stop := sc.endTokens(v.end, f.ends)
	sc.remove(i, stop)
	sc.rawOfSpans(mark)
	return sc.closers(stop)
}

// brokenFamily removes and lists the broken block of form f whose trigger
// is at s[i] and whose body starts at s[j], and returns its end.
func (sc *scanner) brokenFamily(f *jsonForm, i, j int, reason string) int {
	end := sc.familyBrokenEnd(f, i, j)
	sc.enter()
	sc.seen(f.pattern)
	sc.drop(f.pattern, i, sc.s[i:end], reason)
	sc.remove(i, end)
	return end
}

// familyBrokenEnd returns the end of a broken block of form f whose trigger
// is at s[i] and whose body starts at s[from]: through the first of its end
// tokens, or before the next trigger of its family, the next wrapper or
// XML-parameter opener or the next needle of a family, whichever comes
// first, else the end of input; so that a broken block never swallows a
// later call.
func (sc *scanner) familyBrokenEnd(f *jsonForm, i, from int) int {
	end := min(sc.nextOpen(from), sc.nextFamily(from))
	for _, t := range f.opens {
		end = min(end, sc.findExact(t, from))
	}
	for _, t := range f.ends {
		if k := sc.findExact(t, from); k < end {
			end = k + len(t)
		}
	}
	return max(end, i+1)
}

// endTokens returns the end of a block whose body ends at end: after the
// end-of-message tokens of ends that follow it, white space between (at
// most two, as Llama 4's <|python_end|><|eom|>), else end.
func (sc *scanner) endTokens(end int, ends []string) int {
	s := sc.s
	for range 2 {
		k := sc.skip(end)
		found := false
		for _, t := range ends {
			if strings.HasPrefix(s[k:], t) {
				end, found = k+len(t), true
				break
			}
		}
		if !found {
			break
		}
	}
	return end
}

// bareForms are the messages of bare JSON calls: an object first (Llama 3's
// {"name": …, "parameters": …}; {…}) or an array (Mistral's [{"name": …,
// "arguments": …}]).
var bareForms = [2]jsonForm{
	{pattern: "{json}", semi: true, ends: llamaEnds},
	{pattern: "[json]", semi: true, ends: mistralEnds},
}

// bareJSON recognizes a message that is only JSON calls, with the JSON's
// first byte at s[j] (only white space before it): Llama 3 or Mistral with
// their special tokens stripped. Every value (objects separated by white
// space or ';', or arrays of them) must be a call that names its arguments
// ("parameters" or "arguments"), and nothing but white space may follow
// (after an end-of-message token). Anything else (an object that is data,
// a call beside text, JSON that does not parse) is left to the scan, and
// stays text: nothing but the JSON marks it as a call.
//
// The values are read twice when they are calls: once to decide, keeping
// nothing (a long message of calls that ends in text costs no memory),
// once to report them.
func (sc *scanner) bareJSON(j int) (int, bool) {
	s := sc.s
	if !jsonStart(s, j) {
		return 0, false
	}
	f := &bareForms[0]
	if s[j] == '[' {
		f = &bareForms[1]
	}
	kept := sc.kept[:0]
	defer func() {
		clear(kept)
		sc.kept = kept[:0]
	}()
	calls := true
	v := sc.values(j, f.semi, func(text string, parsed bool) bool {
		kept = decodeCalls(kept[:0], &sc.json, text, parsed)
		for _, d := range kept {
			calls = calls && d.kind == isCall && d.explicit
		}
		return calls
	})
	if v.err != nil || !calls {
		return 0, false
	}
	stop := sc.endTokens(v.end, f.ends)
	if sc.skip(stop) < len(s) {
		return 0, false // text follows: the JSON is part of a message, not a call
	}
	kept = sc.reportValues(f, j, j, v.repairs, kept)
	sc.remove(j, stop)
	return len(s), true
}

// reportValues reports a block of f whose values start at s[j] and that is
// reported at offset at: its pattern, its repairs, then each value read
// again (a call, or a dropped value with its reason). kept is scratch for
// the decoded values; it returns it, grown.
func (sc *scanner) reportValues(f *jsonForm, at, j int, repairs []string, kept []decoded) []decoded {
	sc.seen(f.pattern)
	for _, r := range repairs {
		sc.repairs = append(sc.repairs, Repair{Pattern: f.pattern, Offset: at, Kind: r})
	}
	sc.values(j, f.semi, func(text string, parsed bool) bool {
		kept = decodeCalls(kept[:0], &sc.json, text, parsed)
		for _, d := range kept {
			sc.report(f.pattern, at, d)
		}
		return true
	})
	return kept
}
