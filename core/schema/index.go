package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Index holds tool specs by tool id: what inspect_tool_output looks tools
// up in (the spec's get_index(...).get_tool(tool_id)). It is not safe for
// concurrent Add; lookups may run concurrently.
type Index struct {
	tools map[string]ToolSpec
}

// NewIndex returns an index of the given tools; a later spec with the same
// tool id replaces an earlier one.
func NewIndex(tools ...ToolSpec) *Index {
	x := &Index{tools: make(map[string]ToolSpec, len(tools))}
	for _, t := range tools {
		x.Add(t)
	}
	return x
}

// Add adds or replaces a tool.
func (x *Index) Add(t ToolSpec) { x.tools[t.ToolID] = t }

// Tool returns the tool with the given id.
func (x *Index) Tool(id string) (ToolSpec, bool) {
	t, ok := x.tools[id]
	return t, ok
}

// InspectArgs are the arguments of inspect_tool_output; zero MaxDepth and
// MaxFields mean the defaults (4 and 120).
type InspectArgs struct {
	ToolID    string
	FieldPath string
	MaxDepth  int
	MaxFields int
}

// Result is the envelope a toolbox tool answers with:
// {"successful": true, "data": {...}} or {"successful": false, "error": "..."}.
type Result struct {
	Successful bool        `json:"successful"`
	Data       *Inspection `json:"data,omitempty"`
	Error      string      `json:"error,omitempty"`
}

func failure(format string, args ...any) Result {
	return Result{Error: fmt.Sprintf(format, args...)}
}

// InspectToolOutput runs the tool call inspect_tool_output with its
// arguments as JSON, checked strictly against InspectTool's input schema:
// an object with tool_id (a non-empty string), optional field_path (a
// string or null), max_depth and max_fields (integers of at least 1), and
// no other key. Every failure is an envelope with successful false and a
// one-line error, never a Go error.
func (x *Index) InspectToolOutput(args []byte) Result {
	a, err := ParseInspectArgs(args)
	if err != nil {
		return failure("%v", err)
	}
	return x.Inspect(a)
}

// Inspect answers an inspect_tool_output call: an unknown tool_id, a tool
// without an output schema, an empty output schema and a field path that
// does not resolve are failures whose error names the tool (and the path
// segment).
func (x *Index) Inspect(a InspectArgs) Result {
	t, ok := x.tools[a.ToolID]
	if !ok {
		return failure("unknown tool_id %q", clip(a.ToolID))
	}
	in, err := Inspect(t.OutputSchema, t.ToolID, a.FieldPath, InspectOptions{MaxDepth: a.MaxDepth, MaxFields: a.MaxFields})
	if ie := (*InspectError)(nil); errors.As(err, &ie) {
		return failure("tool %q: %s", clip(a.ToolID), ie.Msg)
	} else if err != nil {
		return failure("tool %q: %v", clip(a.ToolID), err)
	}
	return Result{Successful: true, Data: &in}
}

// ParseInspectArgs reads and checks inspect_tool_output arguments (see
// InspectToolOutput).
func ParseInspectArgs(args []byte) (InspectArgs, error) {
	var a InspectArgs
	raw, err := decode(args)
	if err != nil {
		return a, fmt.Errorf("invalid arguments: %w", err)
	}
	o, ok := raw.(*obj)
	if !ok {
		return a, fmt.Errorf("invalid arguments: want a JSON object, got %s", jsonType(raw))
	}
	seenID := false
	for _, e := range o.kvs {
		switch e.key {
		case "tool_id":
			s, ok := e.val.(string)
			if !ok || s == "" {
				return a, argErr("tool_id", "want a non-empty string", e.val)
			}
			a.ToolID, seenID = s, true
		case "field_path":
			switch v := e.val.(type) {
			case string:
				a.FieldPath = v
			case nil:
			default:
				return a, argErr("field_path", "want a string or null", v)
			}
		case "max_depth", "max_fields":
			n, ok := positiveInt(e.val)
			if !ok {
				return a, argErr(e.key, "want an integer of at least 1", e.val)
			}
			if e.key == "max_depth" {
				a.MaxDepth = n
			} else {
				a.MaxFields = n
			}
		default:
			return a, fmt.Errorf("invalid arguments: unknown key %q (want tool_id, field_path, max_depth, max_fields)", clip(e.key))
		}
	}
	if !seenID {
		return a, errors.New("invalid arguments: tool_id is required")
	}
	return a, nil
}

func argErr(key, want string, got any) error {
	shown := jsonType(got)
	if s, ok := got.(string); ok {
		shown = strconv.Quote(clip(s))
	} else if n, ok := got.(json.Number); ok {
		shown = clip(string(n))
	}
	return fmt.Errorf("invalid arguments: %s: %s, got %s", key, want, shown)
}

// positiveInt accepts a JSON number that is a whole number from 1 up
// (4.0 and 4e0 are 4, as JSON Schema's "integer" allows); larger than an
// int holds reads as the largest int.
func positiveInt(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return int(min(i, math.MaxInt)), i >= 1
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || f < 1 || f != math.Trunc(f) {
		return 0, false
	}
	if f >= math.MaxInt {
		return math.MaxInt, true
	}
	return int(f), true
}
