package extract

import (
	"encoding/json"

	"github.com/toolout/toolout/core"
)

// ToolName is the name of the extraction tool.
const ToolName = "tool_output"

// Modes of the tool_output tool.
const (
	ModeAuto        = "auto"
	ModeFullChunked = "full-chunked"
	ModeReadGrep    = "read-grep"
	ModeTruncate    = "truncate"
)

// Schema is the tool_output input schema, exactly as in section 2b of the spec.
const Schema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["handle", "extract"],
  "properties": {
    "handle": {
      "type": "string",
      "minLength": 1,
      "description": "UUID handle of the stored tool output (provided in the tool-result message: tool_output(handle = \"<uuid>\", ...))."
    },
    "extract": {
      "type": "string",
      "minLength": 1,
      "description": "Provide precise, detailed instructions about what you need from the tool output (be specific, include keys/fields/sections if known)."
    },
    "mode": {
      "type": "string",
      "enum": ["auto", "full-chunked", "read-grep", "truncate"],
      "description": "Optional override. auto=module decides; full-chunked=LLM chunk+reduce; read-grep=dynamic sub-agent with Read/Grep; truncate=keeps top and bottom, truncates in the middle."
    }
  }
}`

// Description is the tool's description offered to the model.
const Description = "Extract information from a tool output that was too large to show. " +
	"Pass the handle from the tool result and precise instructions about what you need."

// Tool returns the tool_output descriptor. Offer it only while the session's
// store is non-empty and not on the final turn (spec decisions 14 and 15).
func Tool() core.Tool {
	return core.Tool{Name: ToolName, Description: Description, InputSchema: json.RawMessage(Schema)}
}
