package importer

import (
	"encoding/json"
	"strings"

	"github.com/toolout/toolout/core/mcpresult"
)

// mcpKeys are the members of an MCP CallToolResult.
var mcpKeys = map[string]bool{"content": true, "structuredContent": true, "isError": true, "_meta": true}

// mcpBlocks are the content block types of MCP.
var mcpBlocks = map[string]bool{"text": true, "image": true, "audio": true, "resource": true, "resource_link": true}

// mcpShaped reports whether a tool result of a trace is an MCP
// CallToolResult as a client recorded it (some agents keep the server's
// result whole, serialized, as the tool message's text), and returns the
// text the session reads of it (core/mcpresult). Only an object of the
// result's members alone, with a content list of typed blocks of MCP's
// types, is one: a tool's own JSON that merely has a "content" member is
// not.
func mcpShaped(text string) (string, bool) {
	if t := strings.TrimLeft(text, " \t\r\n"); !strings.HasPrefix(t, "{") || !strings.Contains(t, `"content"`) {
		return "", false // most results: read no further
	}
	var top map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &top) != nil || top["content"] == nil {
		return "", false
	}
	for k := range top {
		if !mcpKeys[k] {
			return "", false
		}
	}
	var blocks []struct {
		Type *string `json:"type"`
	}
	if json.Unmarshal(top["content"], &blocks) != nil {
		return "", false
	}
	for _, b := range blocks {
		if b.Type == nil || !mcpBlocks[*b.Type] {
			return "", false
		}
	}
	r, err := mcpresult.Parse([]byte(text))
	if err != nil {
		return "", false
	}
	return mcpresult.Normalize(r).Text, true
}

// sessionLen is the length of a tool result as the session sees it: an MCP
// result normalized, anything else as it is.
func sessionLen(text string) int {
	if t, ok := mcpShaped(text); ok {
		return len(t)
	}
	return len(text)
}
