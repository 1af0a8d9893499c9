package leaked

import "strings"

// The reading this file implements (core/leaked/doc.go summarizes it
// under Model families):
//
// gpt-oss harmony. gpt-oss writes OpenAI's harmony format: a message is a
// header up to <|message|>, its content, then an end token:
// <|start|>assistant<|channel|>commentary to=functions.NAME
// <|constrain|>json<|message|>{…}<|call|>. The header's items (the
// channel after <|channel|>, the recipient after to=, the content type after
// <|constrain|> or bare, json or code) come in any order, each once, with
// white space between; the recipient may stand before the channel, as the
// chat template renders past calls (<|start|>assistant to=functions.NAME
// <|channel|>commentary json<|message|>…), and an output often starts at
// <|channel|> (the role is in the prompt). A message is a call when its
// recipient is functions.NAME (NAME: letters, digits, '_', '-', '.', at
// most 128 bytes) from the assistant (or no role), on any channel. Its
// content is the arguments: a JSON object. Pattern "<|channel|>".
//
// Only the call message is removed, from its <|start|> (or <|channel|>) to
// its end token: <|call|>, or <|end|> or <|return|> in its place (white
// space before it allowed). When none follows the JSON (servers strip
// <|call|>; a stream stops before it), the call is still recovered, as a
// wrapper missing its closing tag: the block runs to the end of input when
// only white space or a cut-off end token (<|ca) follows, else it ends with
// the JSON and the text after it stays. Content that starts like JSON and
// does not parse is a broken block: removed and listed, up to its end token,
// or the next message header, block opener or family needle, whichever
// comes first, else the end of input. A JSON array is a broken call
// ("arguments are not a JSON object"). Content that does not start like
// JSON (prose, a string, nothing) is no attempt, as prose in a wrapper: the
// header stays text and the content is scanned. Repairs apply as in a
// wrapper.
//
// Every other message stays text, byte for byte with its tokens, so that a
// client that reads harmony can still tell the channels apart (removing the
// tokens of a final answer would have merged it with the reasoning before
// it). The analysis channel is reasoning and is not scanned, like <think>:
// a call written inside an analysis message is thinking. Its message ends
// at its end token or the next <|start|> or <|channel|>; an analysis
// message never ended hides the rest of the text, as an unclosed <think>.
// A message to a recipient other than functions.NAME (to=browser.search,
// to=python, to=container.exec) calls a built-in tool of gpt-oss, which the
// server runs and which is none of the agent's functions (the agent's tools
// are always rendered under the functions namespace): it is not recovered,
// and stays text, not scanned; so does a message of another author (a tool
// result echoed, <|start|>functions.NAME to=assistant…). Preambles (a
// commentary message without a recipient) and final messages are text for
// the user and are scanned.
//
// Stripped. Servers that skip special tokens send the header's words fused
// with their neighbours: "analysisNeed the weather.assistantcommentary
// to=functions.get_weather json{"city":"Paris"}". The needles
// "assistantcommentary to=functions.", "commentary to=functions.",
// "assistant to=functions." and "to=functions." start a block (pattern
// "to=functions.") when the recipient is followed, after an optional
// content type (json, code; <|constrain|> or <|message|> may be left in
// place) and white space, by '{' or '['; the words before the needle (the
// analysis text) stay. Otherwise it is prose and stays: "to=functions.x"
// in a sentence, "to=functions.x, then {…}", a content type followed by
// words. Stripping also fuses what followed a name written without white
// space: "NAMEjson{" (<|constrain|>json right after the name) and
// "NAMEcommentary json{" (the recipient-first form's <|channel|>
// commentary); those suffixes are cut, unless the tool list (Options.Tools)
// declares the longer name, and a name that would be left empty is kept
// ("to=functions.to_json{" gives to_ without a list that declares to_json).
// Harmony's arguments are JSON: the tool list does not re-type them.

// gpt-oss writes its messages in OpenAI's harmony format:
//
//	<|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>
//
// a header (role, channel, recipient, content type) up to <|message|>, the
// content, then <|call|> (a call), <|end|> or <|return|>. The recipient may
// also come before the channel (<|start|>assistant to=functions.NAME
// <|channel|>commentary json<|message|>…), and an output usually starts at
// <|channel|>, the role being in the prompt. Servers that strip special
// tokens send the header's words fused with what stood around them:
// "assistantcommentary to=functions.NAME json{…}".

// The tokens of harmony that the handlers read.
const (
	harmonyStart     = "<|start|>"
	harmonyChannel   = "<|channel|>"
	harmonyConstrain = "<|constrain|>"
	harmonyMessage   = "<|message|>"
)

// The patterns of the family (Result.Patterns): the special-token form and
// the stripped one.
const (
	harmonyPattern         = "<|channel|>"
	harmonyStrippedPattern = "to=functions."
)

// harmonyEnds are the tokens that end a message: <|call|> ends a call,
// <|end|> any message, <|return|> the last one.
var harmonyEnds = [...]string{"<|call|>", "<|end|>", "<|return|>"}

// harmonyMaxWord bounds a word of a header (role, channel, content type,
// recipient): a longer run of its letters is not a header, so that reading
// one stays a bounded local check.
const harmonyMaxWord = 128

// harmonyHead is a message header read by harmonyHeader.
type harmonyHead struct {
	role, channel, recipient, ctype string
	afterRecipient                  int  // the index after the recipient
	message                         bool // the header ended with <|message|>
	body                            int  // where the content starts
}

// harmony handles the special-token form at the '<' at s[i]: a message
// header opened by <|start|> or <|channel|>. A call (a recipient
// functions.NAME, from the assistant) is removed from its header to its end
// token; an analysis message (reasoning) is text that is not scanned, like
// <think>; any other message is text (ok is false, the scan goes on inside
// it).
func (sc *scanner) harmony(i int) (int, bool) {
	s := sc.s
	var h harmonyHead
	j := i
	switch {
	case strings.HasPrefix(s[i:], harmonyStart):
		h.role, j = harmonyWord(s, i+len(harmonyStart))
		if h.role == "" {
			return 0, false
		}
	case !strings.HasPrefix(s[i:], harmonyChannel):
		return 0, false
	}
	if !sc.harmonyHeader(j, &h) {
		return 0, false
	}
	name, ok := strings.CutPrefix(h.recipient, "functions.")
	switch {
	case ok && name != "" && (h.role == "" || h.role == "assistant"):
		if next, ok := sc.harmonyCall(i, h.body, name, harmonyPattern); ok {
			return next, true
		}
	case h.message && (h.role != "" && h.role != "assistant" || h.recipient != "" || h.channel == "analysis"):
		// Text that is not scanned, like <think>: a message of another
		// author (a tool's result echoed), a call of a built-in tool of
		// gpt-oss (browser.search, python: not the agent's functions) or
		// reasoning.
		sc.flush()
		return sc.harmonyMessageEnd(h.body), true
	}
	// A preamble, a final answer, or a call whose content is not JSON: the
	// header is text, its content is scanned.
	sc.flush()
	return h.body, true
}

// harmonyStripped handles the stripped form at the needle at s[i]
// ("assistantcommentary to=functions.", "commentary to=functions.",
// "assistant to=functions." or "to=functions."): the header's words, then a
// JSON value right after the recipient (a content type, white space and
// tokens a server left between them allowed). Without one it is prose.
func (sc *scanner) harmonyStripped(i int) (int, bool) {
	s := sc.s
	var h harmonyHead
	j := i
	if strings.HasPrefix(s[j:], "assistant") {
		h.role, j = "assistant", j+len("assistant")
	}
	if strings.HasPrefix(s[j:], "commentary") {
		h.channel, j = "commentary", j+len("commentary")
	}
	if !sc.harmonyHeader(sc.skip(j), &h) {
		return 0, false
	}
	name, ok := strings.CutPrefix(h.recipient, "functions.")
	if !ok || name == "" {
		return 0, false
	}
	after := byte(0)
	if h.afterRecipient < len(s) {
		after = s[h.afterRecipient]
	}
	if name = sc.harmonyName(name, after); name == "" {
		return 0, false
	}
	return sc.harmonyCall(i, h.body, name, harmonyStrippedPattern)
}

// harmonyHeader reads the items of a header from s[j] on, each at most once
// and with white space between: <|channel|> and its channel, to= and its
// recipient, <|constrain|> and its content type, a bare content type (json
// or code). It ends at <|message|> or, when that token was stripped, at a
// '{' or '['; it reports false at anything else.
func (sc *scanner) harmonyHeader(j int, h *harmonyHead) bool {
	s := sc.s
	for items := 0; items < 5; items++ {
		j = sc.skip(j)
		rest := s[j:]
		var w *string
		switch {
		case strings.HasPrefix(rest, harmonyMessage):
			h.message, h.body = true, j+len(harmonyMessage)
			return true
		case rest != "" && (rest[0] == '{' || rest[0] == '['):
			h.body = j
			return true
		case strings.HasPrefix(rest, harmonyChannel):
			w, j = &h.channel, j+len(harmonyChannel)
		case strings.HasPrefix(rest, harmonyConstrain):
			w, j = &h.ctype, j+len(harmonyConstrain)
		case strings.HasPrefix(rest, "to="):
			w, j = &h.recipient, j+len("to=")
		default:
			// A bare content type: the recipient-first form's "commentary
			// json", or a stripped <|constrain|>.
			word, k := harmonyWord(s, j)
			if h.ctype != "" || (word != "json" && word != "code") {
				return false
			}
			h.ctype, j = word, k
			continue
		}
		if *w != "" {
			return false // an item given twice: not a header
		}
		*w, j = harmonyWord(s, j)
		if *w == "" {
			return false
		}
		if w == &h.recipient {
			h.afterRecipient = j
		}
	}
	return false
}

// harmonyWord returns the word (letters, digits, '_', '-', '.') that starts
// at s[j] and the index after it; "" when there is none or it is longer
// than harmonyMaxWord.
func harmonyWord(s string, j int) (string, int) {
	k := j
	for k < len(s) && k-j <= harmonyMaxWord && isNameByte(s[k]) {
		k++
	}
	if k-j > harmonyMaxWord {
		return "", j
	}
	return s[j:k], k
}

// harmonyName returns the tool name of a stripped recipient functions.NAME
// whose next byte is after. Stripping fuses the words that followed a
// recipient written without white space: "NAMEjson{" (<|constrain|>json
// right after the name) and "NAMEcommentary json{" (the recipient-first
// form's <|channel|>commentary). Those suffixes are cut, unless the tool
// list declares the longer name; a name that would be left empty is kept.
func (sc *scanner) harmonyName(name string, after byte) string {
	cands := [3]string{name, name, name}
	if after == '{' || after == '[' {
		if cut, ok := strings.CutSuffix(name, "json"); ok && cut != "" {
			cands[1], cands[2] = cut, cut
		}
	}
	if after != '<' {
		if cut, ok := strings.CutSuffix(cands[1], "commentary"); ok && cut != "" {
			cands[2] = cut
		}
	}
	for _, c := range cands {
		if sc.opts.Tools.Declares(c) {
			return c
		}
	}
	return cands[2]
}

// harmonyCall reads the content of a call message whose header starts at
// s[i] and ends at body: a JSON object, the arguments. A JSON value that is
// not an object, and JSON that does not parse, make a broken block, removed
// and listed; content that does not start like JSON ('{' or '[') is no
// block (ok is false).
func (sc *scanner) harmonyCall(i, body int, name, pattern string) (int, bool) {
	s := sc.s
	j := sc.skip(body)
	if j >= len(s) || (s[j] != '{' && s[j] != '[') {
		return 0, false
	}
	r := sc.readJSON(j)
	sc.enter()
	sc.seen(pattern)
	var end int
	switch {
	case r.err != nil:
		end = sc.harmonyBrokenEnd(j)
		sc.drop(pattern, i, s[i:end], "invalid JSON: "+r.err.Error())
	case s[j] != '{':
		end = sc.harmonyCallEnd(r.end)
		sc.drop(pattern, i, s[i:end], "arguments are not a JSON object")
	default:
		for _, kind := range r.repairs {
			sc.repairs = append(sc.repairs, Repair{Pattern: pattern, Offset: i, Kind: kind})
		}
		sc.addCall(name, r.text)
		end = sc.harmonyCallEnd(r.end)
	}
	sc.remove(i, end)
	return sc.closers(end), true
}

// harmonyCallEnd returns the end of a call whose content ends at end: after
// its end token (white space between), or the end of input when only white
// space or a cut-off end token follows (servers strip <|call|>; a stream
// may stop inside it). Otherwise the block ends with its content and what
// follows stays text.
func (sc *scanner) harmonyCallEnd(end int) int {
	s := sc.s
	j := sc.skip(end)
	if j == len(s) {
		return len(s)
	}
	for _, t := range harmonyEnds {
		switch {
		case strings.HasPrefix(s[j:], t):
			return j + len(t)
		case len(s)-j < len(t) && strings.HasPrefix(t, s[j:]):
			return len(s)
		}
	}
	return end
}

// harmonyBrokenEnd returns the end of a broken call whose content starts at
// from: after the first end token, unless another message header, block
// opener or family needle comes first (then there), else the end of input;
// so a broken call never swallows a later one.
func (sc *scanner) harmonyBrokenEnd(from int) int {
	stop := min(sc.findExact(harmonyStart, from), sc.findExact(harmonyChannel, from),
		sc.nextOpen(from), sc.nextFamily(from))
	for _, t := range harmonyEnds {
		if k := sc.findExact(t, from); k < stop {
			stop = k + len(t)
		}
	}
	return stop
}

// harmonyMessageEnd returns the end of a message (one not scanned) whose
// content starts at from: after its end token, or at the next header, else
// the end of input.
func (sc *scanner) harmonyMessageEnd(from int) int {
	end := min(sc.findExact(harmonyStart, from), sc.findExact(harmonyChannel, from))
	for _, t := range harmonyEnds {
		if k := sc.findExact(t, from); k < end {
			end = k + len(t)
		}
	}
	return end
}
