package leaked

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
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
	args   []byte
	raw    []byte // the value, for a dropped entry
	reason string // why it is not a call
}

// decodeCalls turns one valid JSON value (an object or an array) into calls,
// broken attempts and values that are not calls.
func decodeCalls(text string) []decoded {
	v := []byte(strings.TrimSpace(text))
	if len(v) > 0 && v[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(v, &items); err != nil {
			return []decoded{{kind: broken, raw: v, reason: "invalid JSON: " + err.Error()}}
		}
		if len(items) == 0 {
			return []decoded{{kind: notCall, raw: v, reason: "empty array"}}
		}
		out := make([]decoded, 0, len(items))
		for _, it := range items {
			out = append(out, decodeCall(it))
		}
		return out
	}
	return []decoded{decodeCall(v)}
}

// decodeCall normalizes one call object.
func decodeCall(raw json.RawMessage) decoded {
	d := decoded{kind: notCall, raw: raw}
	if len(raw) == 0 || raw[0] != '{' {
		d.reason = "not a JSON object"
		return d
	}
	if !mayName(raw) {
		d.reason = noName
		return d
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		d.reason = "not a JSON object"
		return d
	}
	// The OpenAI shape {"type":"function","function":{"name":…,"arguments":"…"}}.
	if fn, ok := obj["function"]; ok && isString(obj["type"], "function") {
		var inner map[string]json.RawMessage
		if json.Unmarshal(fn, &inner) == nil && inner != nil {
			obj = inner
		}
	}
	name, ok := nameOf(obj)
	if !ok {
		d.reason = noName
		return d
	}
	if isToolDefinition(obj) {
		d.reason = "a tool definition, not a call"
		return d
	}
	argRaw, present := obj["parameters"]
	if !present {
		argRaw, present = obj["arguments"]
	}
	args, err := argumentsOf(argRaw, present)
	if err != nil {
		d.kind, d.reason = broken, err.Error()
		return d
	}
	d.kind, d.name, d.args = isCall, name, args
	return d
}

const noName = "no tool name (want a non-empty string in name, function or tool)"

// mayName is a fast test that saves decoding objects that cannot have a
// name: it is false only when no name key appears and nothing is escaped.
func mayName(raw []byte) bool {
	return bytes.IndexByte(raw, '\\') >= 0 || bytes.Contains(raw, []byte(`"name"`)) ||
		bytes.Contains(raw, []byte(`"function"`)) || bytes.Contains(raw, []byte(`"tool"`))
}

func isString(raw json.RawMessage, want string) bool {
	var s string
	return raw != nil && json.Unmarshal(raw, &s) == nil && s == want
}

// nameOf returns the call's name: name wins over function, function over tool.
func nameOf(obj map[string]json.RawMessage) (string, bool) {
	for _, field := range []string{"name", "function", "tool"} {
		raw, ok := obj[field]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) != nil || strings.TrimSpace(s) == "" {
			return "", false
		}
		return s, true
	}
	return "", false
}

// isToolDefinition recognizes {"name", "description", "parameters": <JSON Schema>}
// with no arguments: a model quoting its tool list, not calling a tool.
func isToolDefinition(obj map[string]json.RawMessage) bool {
	if _, ok := obj["description"]; !ok {
		return false
	}
	if _, ok := obj["arguments"]; ok {
		return false
	}
	var schema map[string]json.RawMessage
	if json.Unmarshal(obj["parameters"], &schema) != nil || schema == nil {
		return false
	}
	_, props := schema["properties"]
	return isString(schema["type"], "object") || props
}

// argumentsOf returns the arguments as a compact JSON object: an object as is,
// a string holding an object decoded once, missing or null as {}.
func argumentsOf(raw json.RawMessage, present bool) ([]byte, error) {
	raw = bytes.TrimSpace(raw)
	if !present || string(raw) == "null" {
		return []byte("{}"), nil
	}
	switch raw[0] {
	case '{':
		return compact(raw), nil
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		inner := bytes.TrimSpace([]byte(s))
		if len(inner) > 0 && inner[0] == '{' && json.Valid(inner) {
			return compact(inner), nil
		}
		return nil, fmt.Errorf("arguments: a string that does not hold a JSON object: %s", raw)
	}
	return nil, fmt.Errorf("arguments: want a JSON object, got %s", raw)
}

func compact(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
