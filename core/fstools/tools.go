package fstools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core"
)

// Tool names.
const (
	ReadName = "Read"
	GrepName = "Grep"
)

const readSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["path"],
  "properties": {
    "path": {"type": "string", "minLength": 1, "description": "File path relative to the root directory."},
    "offset": {"type": "integer", "minimum": 0, "description": "First line to read, 0-based (line N of Grep output is offset N-1)."},
    "limit": {"type": "integer", "minimum": 1, "description": "Number of lines to read. Required for files over ~25000 tokens."}
  }
}`

const grepSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["pattern"],
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "Regular expression (RE2 syntax), matched against each line."},
    "path": {"type": "string", "description": "File or directory relative to the root; the root itself when omitted."},
    "context": {"type": "integer", "minimum": 0, "description": "Lines to show before and after each match."},
    "max_results": {"type": "integer", "minimum": 1, "description": "Most matching lines to list (default 100)."}
  }
}`

// ReadTool is the Read descriptor to offer to a model.
func ReadTool() core.Tool {
	return core.Tool{Name: ReadName, InputSchema: json.RawMessage(readSchema),
		Description: "Read a file under the root directory. Files over ~25000 tokens must be read in windows: " +
			"offset is the first line (0-based), limit the number of lines."}
}

// GrepTool is the Grep descriptor to offer to a model.
func GrepTool() core.Tool {
	return core.Tool{Name: GrepName, InputSchema: json.RawMessage(grepSchema),
		Description: "Search a file, or every file under a directory, for lines matching a regular expression. " +
			"Prints N:line (path:N:line for a directory) with 1-based line numbers, and context lines with N-line."}
}

// decode parses tool arguments strictly: unknown fields and wrong types are
// errors that name the field.
func decode(tool string, args json.RawMessage, v any) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		msg := strings.TrimPrefix(err.Error(), "json: ")
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Field == "":
			msg = "want a JSON object, got " + te.Value
		case errors.As(err, &te):
			msg = fmt.Sprintf("%s: want %s, got %s", te.Field, te.Type, te.Value)
		}
		return fmt.Errorf("%s arguments: %s", tool, msg)
	}
	return nil
}

// RunRead runs Read on JSON arguments.
func (f *FS) RunRead(_ context.Context, args json.RawMessage) (string, error) {
	var p ReadParams
	if err := decode(ReadName, args, &p); err != nil {
		return "", err
	}
	return f.Read(p)
}

// RunGrep runs Grep on JSON arguments.
func (f *FS) RunGrep(_ context.Context, args json.RawMessage) (string, error) {
	var p GrepParams
	if err := decode(GrepName, args, &p); err != nil {
		return "", err
	}
	return f.Grep(p)
}
