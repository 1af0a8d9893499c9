package leaked

import "strings"

// Mistral writes its calls after the [TOOL_CALLS] token, in one of two
// forms: a JSON array of calls, [TOOL_CALLS][{"name": …, "arguments": {…},
// "id": …}, …] (Mistral 7B v0.3, Nemo, Small 3.1 templates; the "id" is
// ignored), or one call per token with the name outside the JSON,
// [TOOL_CALLS]NAME[ARGS]{…} (Mistral Small 3.2, Magistral, Devstral;
// several in a row), also with [CALL_ID]ID before [ARGS], or with [ARGS]
// stripped ([TOOL_CALLS]NAME{…}, as a server that skips control tokens
// sends it). The block takes an end-of-sequence </s> or a [/TOOL_CALLS]
// that directly follows.

const mistralToken = "[TOOL_CALLS]"

// mistralEnds end a block when they follow it directly: the end of
// sequence, and the [/TOOL_CALLS] that Dynamo's parser-parity corpus closes
// its blocks with.
var mistralEnds = []string{"</s>", "[/TOOL_CALLS]"}

var mistralForm = jsonForm{pattern: mistralToken, ends: mistralEnds, opens: []string{mistralToken}}

// maxMistralName bounds a function name and a call id (OpenAI's limit for
// a function name is 64).
const maxMistralName = 64

// mistral handles [TOOL_CALLS] at s[i]. Followed by anything but JSON or
// NAME[ARGS] (NAME[CALL_ID]…[ARGS], NAME{), it is prose and stays.
func (sc *scanner) mistral(i int) (int, bool) {
	s := sc.s
	j := sc.skip(i + len(mistralToken))
	if jsonStart(s, j) {
		return sc.familyJSON(&mistralForm, i, j), true
	}
	name, args, ok := mistralHead(s, j)
	if !ok {
		return 0, false
	}
	k := sc.skip(args)
	var r jsonRead
	if k < len(s) && (s[k] == '{' || s[k] == '[') {
		r = sc.readJSON(k)
	}
	switch {
	case k < len(s) && s[k] == '{' && r.err != nil:
		return sc.closers(sc.brokenFamily(&mistralForm, i, k, "invalid JSON: "+r.err.Error())), true
	case k >= len(s) || s[k] != '{' && (s[k] != '[' || r.err != nil):
		// [ARGS] and no JSON after it (cut off, or prose): a broken
		// attempt of its tokens only; what follows stays.
		reason := "arguments: want a JSON object after [ARGS]"
		if k >= len(s) {
			reason = "arguments: missing, the text ends after [ARGS]"
		}
		sc.enter()
		sc.seen(mistralToken)
		sc.drop(mistralToken, i, s[i:args], reason)
		sc.remove(i, args)
		return sc.closers(args), true
	}
	sc.enter()
	sc.seen(mistralToken)
	for _, kind := range r.repairs {
		sc.repairs = append(sc.repairs, Repair{Pattern: mistralToken, Offset: i, Kind: kind})
	}
	stop := sc.endTokens(r.end, mistralForm.ends)
	if _, err := argumentsOf(r.text); err != nil {
		sc.drop(mistralToken, i, s[i:stop], err.Error()) // an array: a broken call, removed whole
	} else {
		sc.addCall(name, r.text)
	}
	sc.remove(i, stop)
	return sc.closers(stop), true
}

// mistralHead reads NAME[ARGS], NAME[CALL_ID]ID[ARGS] or NAME followed by
// '{' at s[j] (a bounded local check: the name and the id hold at most
// maxMistralName bytes each) and returns the name and where the arguments
// start.
func mistralHead(s string, j int) (name string, args int, ok bool) {
	n := nameLen(s, j, isNameByte)
	if n == 0 {
		return "", 0, false
	}
	name, k := s[j:j+n], j+n
	if strings.HasPrefix(s[k:], "[CALL_ID]") {
		k += len("[CALL_ID]")
		k += nameLen(s, k, isCallIDByte)
		if !strings.HasPrefix(s[k:], "[ARGS]") {
			return "", 0, false
		}
	}
	switch {
	case strings.HasPrefix(s[k:], "[ARGS]"):
		return name, k + len("[ARGS]"), true
	case k < len(s) && s[k] == '{':
		return name, k, true
	}
	return "", 0, false
}

// nameLen returns the length of the run of bytes that ok accepts at s[j]:
// 1 to maxMistralName, or 0 when the run is empty or longer.
func nameLen(s string, j int, ok func(byte) bool) int {
	n := 0
	for j+n < len(s) && ok(s[j+n]) {
		if n++; n > maxMistralName {
			return 0
		}
	}
	return n
}

// isCallIDByte: Mistral's call ids are nine letters or digits.
func isCallIDByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
