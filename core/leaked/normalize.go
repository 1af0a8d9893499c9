package leaked

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/toolout/toolout/core/jsonlex"
)

// Kinds of decoded values.
const (
	isCall  = iota // a call: a name and object arguments
	broken         // an attempt at a call: a name, but unusable arguments
	notCall        // well-formed JSON that is not a call: no name, a tool definition, ...
)

type decoded struct {
	kind   int
	name   string
	args   string // a call's arguments: a JSON object, not yet compact
	raw    string // the value, for a dropped entry
	reason string // why it is not a call
	// explicit: the call names its arguments ("parameters" or
	// "arguments"), as a message of bare JSON calls must (bareJSON).
	explicit bool
}

// decodeCalls turns one valid JSON value (an object or an array) into calls,
// broken attempts and values that are not calls, appended to out. When p
// has just parsed text (parsed), its members are read from p; otherwise
// text is parsed again.
func decodeCalls(out []decoded, p *strict, text string, parsed bool) []decoded {
	v := trimJSONSpace(text)
	if !parsed && p.value(v, 0) != len(v) {
		return append(out, decodeSlow(v)...)
	}
	if v[0] != '[' {
		return append(out, decodeCall(fastMembers(p, v)))
	}
	if len(p.kids) == 0 {
		return append(out, decoded{kind: notCall, raw: v, reason: "empty array"})
	}
	// Each item is parsed again for its own members; the items are copied
	// out first, as parsing one reuses p.
	items := make([]string, len(p.kids))
	for i, k := range p.kids {
		items[i] = k.val
	}
	for _, it := range items {
		if len(it) == 0 || it[0] != '{' || p.value(it, 0) != len(it) {
			out = append(out, decodeCall(members{raw: it}))
			continue
		}
		out = append(out, decodeCall(fastMembers(p, it)))
	}
	return out
}

// decodeSlow decodes with encoding/json what the strict parser could not
// read (an escaped key): the same answers, slowly.
func decodeSlow(v string) []decoded {
	if v[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(v), &items); err != nil {
			return []decoded{{kind: broken, raw: v, reason: "invalid JSON: " + err.Error()}}
		}
		if len(items) == 0 {
			return []decoded{{kind: notCall, raw: v, reason: "empty array"}}
		}
		out := make([]decoded, 0, len(items))
		for _, it := range items {
			out = append(out, decodeCall(slowMembers(string(it))))
		}
		return out
	}
	return []decoded{decodeCall(slowMembers(v))}
}

// member is a member of a call object that decoding reads.
type member uint8

const (
	mName member = iota
	mFunction
	mTool
	mType
	mDescription
	mParameters
	mArguments
	mProperties // of a tool definition's parameters
	numMembers
)

var memberKeys = [numMembers]string{"name", "function", "tool", "type", "description", "parameters", "arguments", "properties"}

// members are the raw values of the members of a call object that decoding
// reads, by member; a member that is absent is "". ok is false when the
// value is not a JSON object.
type members struct {
	raw string
	ok  bool
	v   [numMembers]string
}

// set records a member by its (decoded) key; a later duplicate wins, as
// in encoding/json.
func (m *members) set(key, val string) {
	for k, name := range memberKeys {
		if key == name {
			m.v[k] = val
			return
		}
	}
}

// fastMembers reads the members of the object p has just parsed (raw);
// escaped keys take the slow path.
func fastMembers(p *strict, raw string) members {
	if raw[0] != '{' {
		return members{raw: raw}
	}
	if p.escaped {
		return slowMembers(raw)
	}
	m := members{raw: raw, ok: true}
	for _, k := range p.kids {
		m.set(k.key, k.val)
	}
	return m
}

// slowMembers reads an object's members with encoding/json.
func slowMembers(raw string) members {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &obj) != nil || obj == nil {
		return members{raw: raw}
	}
	m := members{raw: raw, ok: true}
	for k, v := range obj {
		m.set(k, string(v))
	}
	return m
}

// membersOf reads the members of a raw object nested in a call.
func membersOf(raw string) members {
	var p strict
	if len(raw) == 0 || raw[0] != '{' || p.value(raw, 0) != len(raw) {
		return slowMembers(raw)
	}
	return fastMembers(&p, raw)
}

// decodeCall normalizes one call object.
func decodeCall(m members) decoded {
	d := decoded{kind: notCall, raw: m.raw}
	if !m.ok {
		d.reason = "not a JSON object"
		return d
	}
	if m.v[mName] == "" && m.v[mFunction] == "" && m.v[mTool] == "" {
		d.reason = noName
		return d
	}
	// The OpenAI shape {"type":"function","function":{"name":…,"arguments":"…"}}.
	if m.v[mFunction] != "" && m.v[mFunction][0] == '{' && isString(m.v[mType], "function") {
		if inner := membersOf(m.v[mFunction]); inner.ok {
			m = inner
		}
	}
	name, ok := nameOf(m)
	if !ok {
		d.reason = noName
		return d
	}
	if name = sanitizeName(name); name == "" {
		// A string name, blank once trimmed and rid of chat-template
		// tokens: an attempt at a call that names no tool.
		d.kind, d.reason = broken, blankName
		return d
	}
	if isToolDefinition(m) {
		d.reason = toolDefinition
		return d
	}
	argRaw := m.v[mParameters]
	if argRaw == "" {
		argRaw = m.v[mArguments]
	}
	args, err := argumentsOf(argRaw)
	if err != nil {
		d.kind, d.reason = broken, err.Error()
		return d
	}
	d.kind, d.name, d.args, d.explicit = isCall, name, args, m.v[mParameters] != "" || m.v[mArguments] != ""
	return d
}

const (
	toolDefinition = "a tool definition, not a call"
	noName         = "no tool name (want a non-empty string in name, function or tool)"
	blankName      = "blank tool name (white space and chat-template tokens only)"
)

// sanitizeName removes the chat-template tokens <|…|> from a tool name
// (each from a "<|" to the next "|>"; an unclosed "<|" stays) and trims
// the white space around it, as the reference's sanitizeToolName does;
// nothing else changes (no cut at an odd character, no validation).
func sanitizeName(name string) string {
	if strings.Contains(name, "<|") {
		var b strings.Builder
		rest := name
		for {
			k := strings.Index(rest, "<|")
			if k < 0 {
				break
			}
			e := strings.Index(rest[k+2:], "|>")
			if e < 0 {
				break
			}
			b.WriteString(rest[:k])
			rest = rest[k+2+e+2:]
		}
		b.WriteString(rest)
		name = b.String()
	}
	return strings.TrimSpace(name)
}

// unquote returns the string a JSON string literal denotes; false when
// raw is not a string. raw is valid JSON (every member value is).
func unquote(raw string) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if strings.IndexByte(inner, '\\') < 0 && utf8.ValidString(inner) {
		return inner, true
	}
	return string(jsonlex.Unescape(make([]byte, 0, len(inner)), inner, true)), true
}

func isString(raw string, want string) bool {
	s, ok := unquote(raw)
	return ok && s == want
}

// nameOf returns the call's name as written: name wins over function,
// function over tool; false when it is not a string.
func nameOf(m members) (string, bool) {
	for _, raw := range m.v[mName : mTool+1] {
		if raw == "" {
			continue
		}
		return unquote(raw)
	}
	return "", false
}

// isToolDefinition recognizes {"name", "description", "parameters": <JSON Schema>}
// with no arguments: a model quoting its tool list, not calling a tool.
func isToolDefinition(m members) bool {
	if m.v[mDescription] == "" || m.v[mArguments] != "" || m.v[mParameters] == "" || m.v[mParameters][0] != '{' {
		return false
	}
	schema := membersOf(m.v[mParameters])
	return schema.ok && (isString(schema.v[mType], "object") || schema.v[mProperties] != "")
}

// argumentsOf returns the arguments as a JSON object (compacted when the
// call is reported): an object as is, a string holding an object decoded
// once, missing or null as {}.
func argumentsOf(raw string) (string, error) {
	if raw == "" || raw == "null" {
		return "{}", nil
	}
	switch raw[0] {
	case '{':
		return raw, nil
	case '"':
		s, _ := unquote(raw)
		inner := strings.TrimSpace(s)
		var p strict
		if len(inner) > 0 && inner[0] == '{' && (p.value(inner, 0) == len(inner) || json.Valid([]byte(inner))) {
			return inner, nil
		}
		return "", fmt.Errorf("arguments: a string that does not hold a JSON object: %s", raw)
	}
	return "", fmt.Errorf("arguments: want a JSON object, got %s", raw)
}

// appendCompact appends valid JSON without the white space outside its
// strings, as json.Compact does; at most len(raw) bytes. It copies the
// text between runs of white space at once (compact JSON in one copy) and
// finds a string's end by its quotes alone: raw is valid.
func appendCompact(dst []byte, raw string) []byte {
	from := 0 // raw[from:j] is not yet copied and holds no white space to drop
	for j := 0; j < len(raw); {
		switch raw[j] {
		case '"':
			j = stringEnd(raw, j)
		case ' ', '\t', '\n', '\r':
			dst = append(dst, raw[from:j]...)
			j = jsonlex.Space(raw, j)
			from = j
		default:
			j++
		}
	}
	return append(dst, raw[from:]...)
}

// stringEnd returns the index after the string literal that starts at
// raw[i] in valid JSON (or len(raw) when it is cut): after the first quote
// with an even number of backslashes before it. IndexByte finds the quotes
// faster than a loop over the bytes even in strings of a few bytes.
func stringEnd(raw string, i int) int {
	start := i + 1
	for j := start; j < len(raw); j++ {
		k := strings.IndexByte(raw[j:], '"')
		if k < 0 {
			break
		}
		j += k
		n := 0
		for j-n-1 >= start && raw[j-n-1] == '\\' {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
	}
	return len(raw)
}

// trimJSONSpace trims JSON's white space from both ends.
func trimJSONSpace(s string) string {
	i := jsonlex.Space(s, 0)
	j := len(s)
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '\n' || s[j-1] == '\r') {
		j--
	}
	return s[i:j]
}
