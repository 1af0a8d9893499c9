package importer

import (
	"fmt"
	"strings"
)

// Conversation is the trace as the importer reads it in format, a line per
// message: "role: text" (the text quoted), then its tool calls ("call ID
// NAME ARGS"), the call a tool message answers ("answers ID") and the
// blocks left out ("omitted KIND..."), for specs of the mapping.
func Conversation(data []byte, format string) ([]string, error) {
	t, err := parseFormat(data, "t.jsonl", format)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range t.msgs {
		s := fmt.Sprintf("%s: %q", m.Role, m.text)
		for _, tc := range m.ToolCalls {
			s += fmt.Sprintf(" | call %s %s %s", tc.ID, tc.Function.Name, tc.Function.Arguments)
		}
		if m.ToolCallID != "" {
			s += " | answers " + m.ToolCallID
		}
		if len(m.omitted) > 0 {
			s += " | omitted " + strings.Join(m.omitted, " ")
		}
		out = append(out, s)
	}
	return out, nil
}

// Detect names the format FormatAuto reads data as.
func Detect(data []byte) string {
	for _, f := range formats {
		if f.detect == nil || f.detect(data) {
			return f.name
		}
	}
	return ""
}
