package leaked

import (
	"fmt"
	"strings"

	"github.com/toolout/toolout/core/jsonlex"
)

// The reading this file implements (core/leaked/doc.go summarizes it
// under Model families):
//
// Gemma 4. A call is <|tool_call>call:NAME{ARGS}<tool_call|> (call: may
// be missing after the token; NAME is at most 128 bytes of letters,
// digits, '_', '-' and '.', and the brace follows it directly), several
// back to back without separators. ARGS is Gemma's own syntax, converted
// to a JSON object: key:value pairs separated by commas (white space
// around the parts allowed, a trailing comma too); keys bare (letters,
// digits, '_', '-', '.') or delimited; a string value is delimited by
// <|"|>…<|"|> and taken verbatim (it may hold commas, braces, quotes,
// newlines and <tool_call|> itself; no newline is stripped); other values
// are JSON numbers, true, false, null, nested {…} objects and […] lists of
// the same syntax (at most 1000 deep). A value without delimiters that is
// not a number or a literal is one word and a string ("fast"); one holding
// white space, '<', '"', '{', '[' or a line break, an empty value (x:),
// a missing ':' or ',', a string never closed and arguments cut short make
// the call broken: the block from <|tool_call> to its <tool_call|> or the
// next <|tool_call>, whichever comes first, else the end of input, is
// removed and listed in Dropped with the reason and its byte offset
// (invalid arguments: want ':' after key "x" at byte 29). A <|tool_call>
// not followed by call:NAME{ is text. The closing token is recoverable
// like a closing tag: missing or cut off at the end of input, the call
// ends after its arguments; text after them stays, and a <tool_call|>
// after that text, before any other call, is removed too.
//
// Typing. Without a tool list a delimited value is a string and a bare
// one is JSON when it is a JSON number, true, false or null, else a string
// (so 02139 and 1.5.2 are strings, not numbers; the peers read 02139 as
// 2139). With one, a bare top-level value is typed by its declared type
// (kindOf): a declared string keeps a bare 42 a string, and a value that
// does not decode stays a string; a delimited value stays a string even
// when an integer is declared (the delimiters say string; all three peers
// keep <|"|>20<|"|> "20"); values nested in objects and lists keep the
// rule. A repeated
// key keeps its first place and its last value.
//
// Stripped (pattern call:): servers that strip the special tokens also
// strip <|"|>, so call:get_weather{city:Paris} stands for
// <|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>. It is a
// call only when the whole body parses by the same rules, but for strings:
// a value without delimiters runs to the ',', '}' or ']' that ends it,
// trimmed, and may hold white space, '<' and quotes (city:New York is
// "New York"); it may not hold '{', '[' or a line break, nor be empty.
// After a ',' a key and ':' must follow, so a string that held a comma
// (call:echo{text:Hello, world}) does not parse, and neither does anything
// cut short or nested too deep: the text stays, never a guessed call, and
// nothing is dropped. Delimiters that survive are read as delimiters, and
// a <tool_call|> right after the call goes with it. What cannot be told
// apart: a string that held ',', '}' or ']' followed by what looks like
// key:value is split there. call: must start a word: recall:x{a:1} and
// on_call:x{a:1} stay text (the byte before the needle is read, never
// removed).

// Gemma 4's tokens: a call is <|tool_call>call:NAME{…}<tool_call|>, its
// strings delimited by <|"|>.
const (
	gemmaOpen  = "<|tool_call>"
	gemmaClose = "<tool_call|>"
	gemmaQuote = `<|"|>`
	gemmaCall  = "call:"
)

// maxGemmaName bounds a call's name, read by a bounded local check.
const maxGemmaName = 128

// maxGemmaDepth bounds the nesting of objects and lists in a call's
// arguments (deeper is a broken call, or text when stripped).
const maxGemmaDepth = 1000

// gemmaReader converts the arguments of one call from Gemma's syntax to
// JSON. stripped reads the form whose tokens and string delimiters a server
// removed, where strings stand unquoted.
type gemmaReader struct {
	sc       *scanner
	name     string
	stripped bool
	fail     string // why the arguments do not parse
	failAt   int
}

// gemma handles <|tool_call> at s[i]: a call when call:NAME{ (call: may
// be missing) follows it, after white space; anything else is text.
func (sc *scanner) gemma(i int) (int, bool) {
	s := sc.s
	if !strings.HasPrefix(s[i:], gemmaOpen) {
		return 0, false
	}
	p := sc.skip(i + len(gemmaOpen))
	if strings.HasPrefix(s[p:], gemmaCall) {
		p += len(gemmaCall)
	}
	name, body, ok := gemmaName(s, p)
	if !ok {
		return 0, false
	}
	sc.enter()
	sc.seen(gemmaOpen)
	g := gemmaReader{sc: sc, name: name}
	end, ok := g.args(body)
	if !ok {
		end = sc.gemmaBrokenEnd(i, body)
		sc.drop(gemmaOpen, i, s[i:end], fmt.Sprintf("invalid arguments: %s at byte %d", g.fail, g.failAt))
		sc.remove(i, end)
		return sc.closers(end), true
	}
	sc.addParamsCall(name)
	k := sc.skip(end)
	switch {
	case strings.HasPrefix(s[k:], gemmaClose):
		end = k + len(gemmaClose)
	case k == len(s) || cutToken(s[k:], gemmaClose):
		end = len(s) // the closing token missing, or cut off by the end of input
	default:
		// Text follows: it stays; a closing token after it, before any
		// other call, still belongs to this call.
		if c := sc.findExact(gemmaClose, k); c < sc.findExact(gemmaOpen, k) && c < len(s) {
			sc.remove(i, end)
			sc.remove(c, c+len(gemmaClose))
			return sc.closers(c + len(gemmaClose)), true
		}
	}
	sc.remove(i, end)
	return sc.closers(end), true
}

// gemmaStripped handles call: at s[i] with Gemma's tokens stripped:
// call:NAME{…} is a call only when its arguments parse in full by the
// stripped rules (see gemmaReader.bare); anything else stays text.
func (sc *scanner) gemmaStripped(i int) (int, bool) {
	s := sc.s
	if i > 0 && isNameByte(s[i-1]) {
		return 0, false // "recall:", "on_call:": the end of a longer word (the byte before is already read)
	}
	name, body, ok := gemmaName(s, i+len(gemmaCall))
	if !ok {
		return 0, false
	}
	g := gemmaReader{sc: sc, name: name, stripped: true}
	end, ok := g.args(body)
	if !ok {
		return 0, false
	}
	sc.enter()
	sc.seen(gemmaCall)
	sc.addParamsCall(name)
	if k := sc.skip(end); strings.HasPrefix(s[k:], gemmaClose) {
		end = k + len(gemmaClose)
	}
	sc.remove(i, end)
	return sc.closers(end), true
}

// gemmaName reads NAME{ at s[p]: a name of letters, digits, '_', '-' and
// '.' (at most maxGemmaName bytes) and the brace right after it. It returns
// the index of the brace.
func gemmaName(s string, p int) (string, int, bool) {
	k := p
	for k < len(s) && k-p < maxGemmaName && isNameByte(s[k]) {
		k++
	}
	if k == p || k >= len(s) || s[k] != '{' {
		return "", 0, false
	}
	return s[p:k], k, true
}

// gemmaBrokenEnd returns the end of a broken call that opened at s[i] and
// whose arguments start at body: its closing token, or the next call,
// whichever comes first, else the end of input.
func (sc *scanner) gemmaBrokenEnd(i, body int) int {
	end := sc.findExact(gemmaOpen, body)
	if c := sc.findExact(gemmaClose, body); c < end {
		end = c + len(gemmaClose)
	}
	return max(end, i+1)
}

// args reads the arguments object at s[p] == '{' into sc.params, each
// top-level value typed by the tool list, and returns the index after its
// closing brace.
func (g *gemmaReader) args(p int) (int, bool) {
	sc := g.sc
	sc.params.reset()
	var buf []byte
	return g.membersAt(p, func(key string, vp int) (int, bool) {
		v, next, ok := g.value(vp)
		if ok {
			buf = g.typed(buf[:0], key, v)
			sc.params.set(key, string(buf), kindJSON, &sc.json)
		}
		return next, ok
	})
}

// gemmaValue is one top-level value read: a delimited string (its text), a
// bare value (its text, trimmed) or an object or list (its JSON).
type gemmaValue struct {
	kind byte // '"' a delimited string, 'b' a bare value, '{' an object or list as JSON
	text string
}

// value reads the top-level value at s[p].
func (g *gemmaReader) value(p int) (gemmaValue, int, bool) {
	s := g.sc.s
	switch {
	case p < len(s) && (s[p] == '{' || s[p] == '['):
		json, end, ok := g.valueTo(nil, p, 0)
		return gemmaValue{kind: '{', text: string(json)}, end, ok
	case strings.HasPrefix(s[p:], gemmaQuote):
		text, end, ok := g.quoted(p)
		return gemmaValue{kind: '"', text: text}, end, ok
	}
	text, end, ok := g.bare(p)
	return gemmaValue{kind: 'b', text: text}, end, ok
}

// typed appends the JSON of a top-level value of key: a delimited string
// is a string whatever the tool list declares (the <|"|> quotes say so, and
// vLLM, SGLang and Dynamo keep it a string), and a bare value is JSON when
// it is a number, true, false or null, else a string, unless a declared
// type overrides it (kindOf: a declared string keeps 42 a string; a
// declared integer keeps a bare value that is not JSON a string).
func (g *gemmaReader) typed(dst []byte, key string, v gemmaValue) []byte {
	kind := kindString
	if v.kind != '"' {
		kind = g.sc.kindOf(g.name, key, kindJSON)
	}
	switch {
	case kind == kindString:
		return jsonlex.Append(dst, v.text)
	case v.kind == '{':
		return append(dst, v.text...)
	case v.kind == 'b' && isBareLiteral(v.text):
		return append(dst, v.text...)
	}
	if t := strings.TrimSpace(v.text); t != "" && isJSON(t, &g.sc.json) {
		return appendCompact(dst, t)
	}
	return jsonlex.Append(dst, v.text)
}

// isBareLiteral reports whether a bare value is a JSON number, true, false
// or null.
func isBareLiteral(t string) bool {
	return t == "true" || t == "false" || t == "null" || isJSONNumber(t)
}

// valueTo appends the JSON of the value at s[p], nested depth deep, to
// dst: inside an object or a list no tool list types it.
func (g *gemmaReader) valueTo(dst []byte, p, depth int) ([]byte, int, bool) {
	s := g.sc.s
	switch {
	case p < len(s) && (s[p] == '{' || s[p] == '['):
		if depth >= maxGemmaDepth {
			end, ok := g.failed(p, "nested deeper than %d", maxGemmaDepth)
			return dst, end, ok
		}
		if s[p] == '[' {
			return g.list(dst, p, depth+1)
		}
		dst = append(dst, '{')
		first := true
		end, ok := g.membersAt(p, func(key string, vp int) (int, bool) {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(jsonlex.Append(dst, key), ':')
			var next int
			var ok bool
			dst, next, ok = g.valueTo(dst, vp, depth+1)
			return next, ok
		})
		return append(dst, '}'), end, ok
	case strings.HasPrefix(s[p:], gemmaQuote):
		text, end, ok := g.quoted(p)
		return jsonlex.Append(dst, text), end, ok
	}
	text, end, ok := g.bare(p)
	if isBareLiteral(text) {
		return append(dst, text...), end, ok
	}
	return jsonlex.Append(dst, text), end, ok
}

// list appends the JSON of the list at s[p] == '['; a trailing comma is
// allowed.
func (g *gemmaReader) list(dst []byte, p, depth int) ([]byte, int, bool) {
	s := g.sc.s
	dst = append(dst, '[')
	k := g.sc.skip(p + 1)
	for n := 0; ; n++ {
		switch {
		case k >= len(s):
			end, ok := g.failed(k, "arguments cut short")
			return dst, end, ok
		case s[k] == ']':
			return append(dst, ']'), k + 1, true
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		var ok bool
		if dst, k, ok = g.valueTo(dst, k, depth); !ok {
			return dst, k, false
		}
		k = g.sc.skip(k)
		switch {
		case k < len(s) && s[k] == ',':
			k = g.sc.skip(k + 1)
		case k < len(s) && s[k] == ']':
		case k >= len(s):
			end, ok := g.failed(k, "arguments cut short")
			return dst, end, ok
		default:
			end, ok := g.failed(k, "want ',' or ']' in a list")
			return dst, end, ok
		}
	}
}

func (g *gemmaReader) failed(at int, format string, a ...any) (int, bool) {
	g.fail, g.failAt = fmt.Sprintf(format, a...), at
	return at, false
}

// membersAt reads the object at s[p] == '{', calling each with every key
// and the index of its value, which each reads; it returns the index after
// the closing brace. Keys are bare (letters, digits, '_', '-', '.') or
// delimited; a trailing comma is allowed.
func (g *gemmaReader) membersAt(p int, each func(key string, vp int) (int, bool)) (int, bool) {
	s := g.sc.s
	k := g.sc.skip(p + 1)
	for {
		switch {
		case k >= len(s):
			return g.failed(k, "arguments cut short")
		case s[k] == '}':
			return k + 1, true
		}
		key, next, ok := g.key(k)
		if !ok {
			return next, false
		}
		k = g.sc.skip(next)
		if k >= len(s) || s[k] != ':' {
			return g.failed(k, "want ':' after key %q", key)
		}
		if next, ok = each(key, g.sc.skip(k+1)); !ok {
			return next, false
		}
		k = g.sc.skip(next)
		switch {
		case k < len(s) && s[k] == ',':
			k = g.sc.skip(k + 1)
		case k < len(s) && s[k] == '}':
		case k >= len(s):
			return g.failed(k, "arguments cut short")
		default:
			return g.failed(k, "want ',' or '}' after the value of %q", key)
		}
	}
}

// key reads a key at s[k]: bare, or delimited by <|"|>.
func (g *gemmaReader) key(k int) (string, int, bool) {
	s := g.sc.s
	if strings.HasPrefix(s[k:], gemmaQuote) {
		return g.quoted(k)
	}
	j := k
	for j < len(s) && isNameByte(s[j]) {
		j++
	}
	if j == k {
		end, ok := g.failed(k, "want a key")
		return "", end, ok
	}
	return s[k:j], j, true
}

// quoted reads the string delimited by <|"|> at s[k]: its text, verbatim.
func (g *gemmaReader) quoted(k int) (string, int, bool) {
	s := g.sc.s
	start := k + len(gemmaQuote)
	end := g.sc.findExact(gemmaQuote, start)
	if end >= len(s) {
		at, ok := g.failed(k, "a string not closed by %s", gemmaQuote)
		return "", at, ok
	}
	return s[start:end], end + len(gemmaQuote), true
}

// bare reads a value without delimiters at s[k], up to the ',', '}' or
// ']' that ends it, trimmed. It holds no '{' or '[' and no line break, and
// is not empty. With the tokens, it holds no white space, '<' or '"'
// either: the template delimits every string, so a bare value is a number,
// a literal or a word. Stripped, the delimiters are gone and a string
// stands as it is, but for those three bytes.
func (g *gemmaReader) bare(k int) (string, int, bool) {
	s := g.sc.s
	j := k
	for ; j < len(s); j++ {
		c := s[j]
		if c == ',' || c == '}' || c == ']' {
			break
		}
		if c == '{' || c == '[' || c == '\n' || !g.stripped && (c == '<' || c == '"') {
			at, ok := g.failed(j, "%q in a value without %s", c, gemmaQuote)
			return "", at, ok
		}
	}
	if j >= len(s) {
		at, ok := g.failed(j, "arguments cut short")
		return "", at, ok
	}
	t := strings.TrimSpace(s[k:j])
	switch {
	case t == "":
		at, ok := g.failed(k, "a key without a value")
		return "", at, ok
	case !g.stripped && strings.ContainsAny(t, " \t\r\f\v"):
		at, ok := g.failed(k, "white space in a value without %s", gemmaQuote)
		return "", at, ok
	}
	return t, j, true
}
