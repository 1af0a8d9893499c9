package leaked

import "strings"

// Llama 3.x writes a tool call as JSON after <|python_tag|> (the ipython
// environment of its chat template): {"name": …, "parameters": {…}}, several
// separated by ';', then <|eom_id|> or <|eot_id|>. Llama 4 has no
// <|python_tag|>; its code block is <|python_start|>…<|python_end|>, then
// <|eom|> or <|eot|>, and its JSON calls are read the same way.

// llamaEnds are the end-of-message tokens of Llama 3.x and 4 that belong to
// the block of calls they directly follow.
var llamaEnds = []string{"<|eom_id|>", "<|eot_id|>", "<|python_end|>", "<|eom|>", "<|eot|>"}

var llamaForms = [2]jsonForm{
	{pattern: "<|python_tag|>", semi: true, ends: llamaEnds, opens: []string{"<|python_tag|>", "<|python_start|>"}},
	{pattern: "<|python_start|>", semi: true, ends: llamaEnds, opens: []string{"<|python_tag|>", "<|python_start|>"}},
}

// llama handles <|python_tag|> (or Llama 4's <|python_start|>) at s[i]
// followed by JSON. Anything else after the token (Llama 3.1's built-in
// tools, brave_search.call(query="…"), or Python code for its code
// interpreter) is no JSON call, and the token stays text.
func (sc *scanner) llama(i int) (int, bool) {
	s := sc.s
	for k := range llamaForms {
		f := &llamaForms[k]
		if !strings.HasPrefix(s[i:], f.pattern) {
			continue
		}
		j := sc.skip(i + len(f.pattern))
		if !jsonStart(s, j) {
			return 0, false
		}
		return sc.familyJSON(f, i, j), true
	}
	return 0, false
}

// Llama 3.1's prompt format also offers custom tools a call of its own:
// <function=NAME>{…arguments…}</function>, the JSON object being the
// arguments. A <function=NAME> followed by parameter tags is Qwen3-Coder's
// form (xmlBlock, tried first); followed by '{' it is this one.

const llamaFunctionOpen = "<function="

var llamaFunctionForm = jsonForm{
	pattern: "<function=>",
	ends:    append([]string{"</function>"}, llamaEnds...),
	opens:   []string{llamaFunctionOpen},
}

// llamaFunction handles <function=NAME>{…} at s[i] (the tag's name
// case-insensitive): NAME is 1 to 64 letters, digits, '_', '-' or '.', then
// '>' and, after white space, a JSON object (its first key or '}' after
// the '{'). The block takes </function>
// and an end-of-message token that directly follow; without </function>
// the call is still recovered and the text after it stays.
func (sc *scanner) llamaFunction(i int) (int, bool) {
	s := sc.s
	if !hasPrefixFold(s[i:], llamaFunctionOpen) {
		return 0, false
	}
	j := i + len(llamaFunctionOpen)
	n := nameLen(s, j, isNameByte)
	if n == 0 || j+n >= len(s) || s[j+n] != '>' {
		return 0, false
	}
	k := sc.skip(j + n + 1)
	if k >= len(s) || s[k] != '{' {
		return 0, false
	}
	// The tag is plain text, which prose and docs write too
	// (<function=NAME>{...}): only an object that starts as JSON does, with
	// a key or '}', is an attempt.
	if q := sc.skip(k + 1); q >= len(s) || s[q] != '"' && s[q] != '}' {
		return 0, false
	}
	f := &llamaFunctionForm
	r := sc.readJSON(k)
	if r.err != nil {
		return sc.closers(sc.brokenFamily(f, i, k, "invalid JSON: "+r.err.Error())), true
	}
	sc.enter()
	sc.seen(f.pattern)
	for _, kind := range r.repairs {
		sc.repairs = append(sc.repairs, Repair{Pattern: f.pattern, Offset: i, Kind: kind})
	}
	sc.addCall(s[j:j+n], r.text)
	stop := sc.endTokens(r.end, f.ends)
	sc.remove(i, stop)
	return sc.closers(stop), true
}
