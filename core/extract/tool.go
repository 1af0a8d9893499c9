package extract

import (
	"encoding/json"
	"strings"

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
	// ModeJSONAware and ModeHeadTail are offered only when
	// Config.OfferModes lists them (not in the spec's schema).
	ModeJSONAware = "json-aware"
	ModeHeadTail  = "head-tail"
	// ModeQuery runs the jq expression of the call's query argument on a
	// JSON output (core/jqquery); offered like the two above.
	ModeQuery = "query"
)

// SpecModes are the modes of the spec's schema, in its order.
var SpecModes = []string{ModeAuto, ModeFullChunked, ModeReadGrep, ModeTruncate}

// ExtraModes are the modes an operator may offer beyond the spec's
// (Config.OfferModes), in the order the schema lists them.
var ExtraModes = []string{ModeJSONAware, ModeHeadTail, ModeQuery}

// extraModeDocs describes each extra mode in the schema's mode description,
// after the spec's own.
var extraModeDocs = map[string]string{
	ModeJSONAware: "json-aware=JSON output shortened into valid JSON: every key kept, long strings and arrays cut with counts, first, last and error-like rows kept; no LLM",
	ModeHeadTail:  "head-tail=keeps the head and the tail lines and the error-like lines of the middle, with counts; no LLM",
	ModeQuery:     "query=runs the jq expression in `query` on a JSON output and returns what it prints; no LLM",
}

// querySchema is the query argument's schema, added when query is offered.
const querySchema = `,
    "query": {
      "type": "string",
      "description": "With mode query: a jq expression run on the stored JSON output (one value, or JSON lines); only what it prints is returned, so filter and project (e.g. .items[] | select(.status == \"failed\") | {id, error})."
    }`

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

// Tool returns the tool_output descriptor with the spec's exact schema.
// Offer it only while the session's store is non-empty and not on the final
// turn (spec decisions 14 and 15).
func Tool() core.Tool {
	return core.Tool{Name: ToolName, Description: Description, InputSchema: json.RawMessage(Schema)}
}

// ToolFor returns the descriptor offered under c: [Tool] when c offers no
// extra mode, else the spec's schema whose mode enum adds the offered extra
// modes (in ExtraModes' order, whatever the order of c.OfferModes) and whose
// mode description describes them. That deviates from the spec's exact
// schema, and only when the operator asks for it.
func ToolFor(c Config) core.Tool {
	t := Tool()
	var enum, docs []string
	for _, m := range ExtraModes {
		if c.Offers(m) {
			enum = append(enum, `"`+m+`"`)
			docs = append(docs, extraModeDocs[m])
		}
	}
	if len(enum) == 0 {
		return t
	}
	const specEnum = `"truncate"]`
	const specDocEnd = `truncates in the middle."`
	s := strings.Replace(Schema, specEnum, `"truncate", `+strings.Join(enum, ", ")+`]`, 1)
	s = strings.Replace(s, specDocEnd, `truncates in the middle; `+strings.Join(docs, "; ")+`."`, 1)
	if c.Offers(ModeQuery) {
		const lastProperty = "\n    }\n  }\n}"
		s = strings.Replace(s, lastProperty, "\n    }"+querySchema+"\n  }\n}", 1)
	}
	t.InputSchema = json.RawMessage(s)
	return t
}
