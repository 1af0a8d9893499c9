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
