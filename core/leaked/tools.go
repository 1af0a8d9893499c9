package leaked

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core/jsonlex"
)

// Tools are the parameter types the tools offered to the model declare, read
// from their JSON Schemas: with them, the values of XML-parameter calls
// (Qwen3-Coder, Seed-OSS, MiniMax, GLM, DeepSeek DSML, Gemma, pythonic) are
// typed as the serving stacks type them. A parameter declared integer,
// number, boolean, object or array is decoded as JSON (kept as a string when
// it is not valid JSON, as the peers do); one declared string stays a string
// whatever it looks like ("007", "true"). Names are never validated against
// the list (spec decision 1): a call of an undeclared tool, a parameter not
// declared, or one declared without a type or with a type name that is not
// JSON Schema's, is typed by the rule without a list. The zero Tools is no
// list.
type Tools struct {
	types map[string]map[string]string // tool → parameter → JSON Schema type
}

// ParseTools reads a tool list: a JSON array of tools, or an object with a
// "tools" array (a request body). Each tool may have any of the shapes the
// wires use: OpenAI Chat Completions {"type":"function","function":{"name",
// "parameters"}}, Responses {"type":"function","name","parameters"},
// Anthropic {"name","input_schema"}, MCP {"name","inputSchema"}. A
// parameter's type is its schema's "type" (trimmed, lower case); a list of
// types, or the alternatives of "anyOf"/"oneOf", give the one type they
// hold besides "null" (["integer","null"] is integer) and none when they
// hold two or more (["string","integer"] is untyped); a parameter without a
// type is untyped, and so is the rule without a list. Entries that are not
// tools (not an object, no name) are skipped; a tool without parameters is
// declared with none. An empty list is no list. Data that is not JSON, or
// not one of the two shapes, is a *ToolsError with its byte offset.
func ParseTools(data []byte) (Tools, error) {
	var top any
	if err := json.Unmarshal(data, &top); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return Tools{}, &ToolsError{Offset: se.Offset, Msg: "invalid JSON: " + se.Error(), Err: err}
		}
		return Tools{}, &ToolsError{Msg: err.Error(), Err: err}
	}
	var list []json.RawMessage
	switch top.(type) {
	case []any:
		if err := json.Unmarshal(data, &list); err != nil {
			return Tools{}, &ToolsError{Msg: err.Error(), Err: err}
		}
	case map[string]any:
		var body struct {
			Tools *[]json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(data, &body); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return Tools{}, &ToolsError{Offset: te.Offset, Msg: `"tools" is not an array`, Err: err}
			}
			return Tools{}, &ToolsError{Msg: err.Error(), Err: err}
		}
		if body.Tools == nil {
			return Tools{}, &ToolsError{Offset: int64(len(data) - len(bytes.TrimLeft(data, " \t\r\n"))),
				Msg: `want a JSON array of tools or an object with a "tools" array: the object has no "tools"`}
		}
		list = *body.Tools
	default:
		return Tools{}, &ToolsError{Offset: int64(len(data) - len(bytes.TrimLeft(data, " \t\r\n"))),
			Msg: "want a JSON array of tools or an object with a \"tools\" array"}
	}
	return readTools(list), nil
}

// ToolsError is a tool list that ParseTools cannot read. Offset counts the
// bytes read when the problem was found, as json.SyntaxError's does (the
// offending byte is the Offset-th, counting from 1); Msg says what.
type ToolsError struct {
	Offset int64
	Msg    string
	Err    error // the decoder's error, when there is one
}

func (e *ToolsError) Error() string {
	return fmt.Sprintf("leaked: parse tools: byte %d: %s", e.Offset, e.Msg)
}

func (e *ToolsError) Unwrap() error { return e.Err }

// readTools reads the name and the parameter types of each tool of list.
func readTools(list []json.RawMessage) Tools {
	t := Tools{types: map[string]map[string]string{}}
	for _, raw := range list {
		var tool struct {
			Name        string          `json:"name"`
			Parameters  json.RawMessage `json:"parameters"`
			InputSchema json.RawMessage `json:"input_schema"`
			MCPSchema   json.RawMessage `json:"inputSchema"`
			Function    json.RawMessage `json:"function"`
		}
		if json.Unmarshal(raw, &tool) != nil {
			continue
		}
		name, schema := tool.Name, firstRaw(tool.Parameters, tool.InputSchema, tool.MCPSchema)
		var fn struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		}
		if json.Unmarshal(tool.Function, &fn) == nil && fn.Name != "" {
			name, schema = fn.Name, fn.Parameters
		}
		if strings.TrimSpace(name) == "" {
			continue
		}
		t.types[name] = propertyTypes(schema)
	}
	if len(t.types) == 0 {
		return Tools{}
	}
	return t
}

func firstRaw(list ...json.RawMessage) json.RawMessage {
	for _, r := range list {
		if len(r) > 0 && string(r) != "null" {
			return r
		}
	}
	return nil
}

// propertyTypes reads the type of each property of an object schema; a
// property whose schema cannot be read is untyped.
func propertyTypes(schema json.RawMessage) map[string]string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	out := map[string]string{}
	if json.Unmarshal(schema, &s) != nil {
		return out
	}
	for k, p := range s.Properties {
		if one := schemaType(p); one != "" {
			out[k] = one
		}
	}
	return out
}

// schemaType returns the one type other than "null" that a property's
// schema allows, from "type" (a string or a list), else from the
// alternatives of "anyOf" or "oneOf"; "" when it allows none or several.
func schemaType(raw json.RawMessage) string {
	var p struct {
		Type  json.RawMessage   `json:"type"`
		AnyOf []json.RawMessage `json:"anyOf"`
		OneOf []json.RawMessage `json:"oneOf"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return ""
	}
	var types []string
	var one string
	switch {
	case json.Unmarshal(p.Type, &one) == nil:
		types = []string{one}
	case json.Unmarshal(p.Type, &types) == nil:
	default:
		for _, alt := range append(p.AnyOf, p.OneOf...) {
			var a struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(alt, &a) != nil || a.Type == "" {
				return "" // an alternative of no single type: any value
			}
			types = append(types, a.Type)
		}
	}
	found := ""
	for _, t := range types {
		t = strings.ToLower(strings.TrimSpace(t))
		switch {
		case t == "null" || t == found:
		case found != "":
			return ""
		default:
			found = t
		}
	}
	if found == "" && len(types) > 0 && strings.EqualFold(strings.TrimSpace(types[0]), "null") {
		return "null"
	}
	return found
}

// Len is how many tools the list declares.
func (t Tools) Len() int { return len(t.types) }

// Declares reports whether the list declares a tool of that name.
func (t Tools) Declares(tool string) bool {
	_, ok := t.types[tool]
	return ok
}

// Type returns the declared JSON Schema type of a tool's parameter, or ""
// when the list does not declare it.
func (t Tools) Type(tool, param string) string {
	return t.types[tool][param]
}

// valueKind says how the text of a parameter value becomes JSON.
type valueKind uint8

const (
	kindAuto   valueKind = iota // the rule without a tool list (appendParamValue)
	kindString                  // a string, verbatim (DSML string="true", a declared string)
	kindJSON                    // JSON when valid, else a string (DSML string="false", a declared non-string)
)

// kindOf returns how a parameter of tool is typed: by its declared type when
// the tool list has one, else by hint.
func (sc *scanner) kindOf(tool, param string, hint valueKind) valueKind {
	switch sc.opts.Tools.Type(tool, param) {
	case "":
		return hint
	case "string":
		return kindString
	case "integer", "number", "boolean", "object", "array", "null":
		return kindJSON
	}
	return hint
}

// appendValue appends a parameter's text v as a JSON value of the given
// kind: kindAuto by appendParamValue's rule (one leading and one trailing
// newline stripped, then JSON when an object, array, number, true or
// false); kindString as a string (the newlines stripped the same way);
// kindJSON decoded when, trimmed, it is valid JSON, else a string.
func appendValue(dst []byte, v string, kind valueKind, j *strict) []byte {
	switch kind {
	case kindString:
		return jsonlex.Append(dst, stripNewlines(v))
	case kindJSON:
		v = stripNewlines(v)
		if t := strings.Trim(v, " \t\r\n"); t != "" && isJSON(t, j) {
			return appendCompact(dst, t)
		}
		return jsonlex.Append(dst, v)
	}
	return appendParamValue(dst, v, j)
}

// stripNewlines removes one leading and one trailing newline ("\n" or
// "\r\n"): templates write a value on its own lines.
func stripNewlines(v string) string {
	switch {
	case strings.HasPrefix(v, "\r\n"):
		v = v[2:]
	case strings.HasPrefix(v, "\n"):
		v = v[1:]
	}
	switch {
	case strings.HasSuffix(v, "\r\n"):
		v = v[:len(v)-2]
	case strings.HasSuffix(v, "\n"):
		v = v[:len(v)-1]
	}
	return v
}
