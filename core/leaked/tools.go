package leaked

import (
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
// the list (spec decision 1): a call of an undeclared tool, or a parameter
// not declared, is typed by the rule without a list. The zero Tools is no
// list.
type Tools struct {
	types map[string]map[string]string // tool → parameter → JSON Schema type
}

// ParseTools reads a tool list: a JSON array of tools, or an object with a
// "tools" array (a request body). Each tool may have any of the shapes the
// wires use: OpenAI Chat Completions {"type":"function","function":{"name",
// "parameters"}}, Responses {"type":"function","name","parameters"},
// Anthropic {"name","input_schema"}, MCP {"name","inputSchema"}. A
// parameter's type is its schema's "type", or the first non-null one of a
// list (["integer","null"] is integer); a parameter without one is untyped.
// Entries that are not tools (no name) are skipped.
func ParseTools(data []byte) (Tools, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(data, &list); err != nil {
		var body struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err2 := json.Unmarshal(data, &body); err2 != nil || body.Tools == nil {
			return Tools{}, toolsError(data, err)
		}
		list = body.Tools
	}
	t := Tools{types: map[string]map[string]string{}}
	for _, raw := range list {
		var tool struct {
			Name        string          `json:"name"`
			Parameters  json.RawMessage `json:"parameters"`
			InputSchema json.RawMessage `json:"input_schema"`
			MCPSchema   json.RawMessage `json:"inputSchema"`
			Function    *struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		if json.Unmarshal(raw, &tool) != nil {
			continue
		}
		name, schema := tool.Name, firstRaw(tool.Parameters, tool.InputSchema, tool.MCPSchema)
		if tool.Function != nil && tool.Function.Name != "" {
			name, schema = tool.Function.Name, tool.Function.Parameters
		}
		if name == "" {
			continue
		}
		t.types[name] = propertyTypes(schema)
	}
	return t, nil
}

// toolsError words a JSON error with the byte offset where it was found.
func toolsError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("invalid JSON at byte %d: %v", se.Offset, err)
	}
	if _, ok := err.(*json.UnmarshalTypeError); ok || strings.TrimSpace(string(data)) != "" {
		return fmt.Errorf("want a JSON array of tools or an object with \"tools\": %v", err)
	}
	return fmt.Errorf("empty tool list: %v", err)
}

func firstRaw(list ...json.RawMessage) json.RawMessage {
	for _, r := range list {
		if len(r) > 0 && string(r) != "null" {
			return r
		}
	}
	return nil
}

// propertyTypes reads the type of each property of an object schema.
func propertyTypes(schema json.RawMessage) map[string]string {
	var s struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"`
		} `json:"properties"`
	}
	out := map[string]string{}
	if json.Unmarshal(schema, &s) != nil {
		return out
	}
	for k, p := range s.Properties {
		var one string
		var many []string
		switch {
		case json.Unmarshal(p.Type, &one) == nil:
		case json.Unmarshal(p.Type, &many) == nil:
			for _, t := range many {
				if t != "null" {
					one = t
					break
				}
			}
		}
		if one != "" {
			out[k] = one
		}
	}
	return out
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
