package importer

import (
	"bytes"
	"encoding/json"
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

// RenderedAsOneDocument renders a session scenario whose steps answer
// with texts, a part at a time as Import does (renderScenario), and as one
// yaml document; the two must be the same bytes.
func RenderedAsOneDocument(texts []string) (parts, whole []byte, err error) {
	sc := importedScenario{Description: "d", Labels: []string{"l"}, Component: "session", Input: map[string]any{"user": texts[0]},
		Expect: map[string]any{"report": texts[len(texts)-1]}}
	for i := range texts {
		sc.LLM = append(sc.LLM, importedStep{ID: fmt.Sprint(i), Match: importedMatch{Tag: "session.turn"}, Respond: importedRespond{Final: &texts[i],
			ToolCalls: []importedCall{{ID: "c", Name: "t", Args: map[string]any{"text": texts[i], "nested": []any{texts[i], map[string]any{"x": texts[i]}}}}}}})
	}
	if parts, err = marshalScenario(sc); err != nil {
		return nil, nil, err
	}
	whole, err = encodeYAML(sc)
	return parts, whole, err
}

// Child is child, for the fuzz target that holds it to DecoderChild.
func Child(v []byte, step any) int { return child(v, step) }

// DecoderChild is child as it was written over encoding/json's Decoder
// (which copied every value it stepped over): the reference the
// allocation-free child must agree with, on any input.
func DecoderChild(v []byte, step any) int {
	dec := json.NewDecoder(bytes.NewReader(v))
	tok, err := dec.Token()
	d, ok := tok.(json.Delim)
	if err != nil || !ok || d != '{' && d != '[' {
		return -1
	}
	name, isName := step.(string)
	index, _ := step.(int)
	found := -1
	for i := 0; dec.More(); i++ {
		key := ""
		if d == '{' {
			k, err := dec.Token()
			if err != nil {
				return found
			}
			key, _ = k.(string)
		}
		start := skipSpace(v, int(dec.InputOffset()))
		if d == '{' && isName && strings.EqualFold(key, name) || d == '[' && !isName && i == index {
			found = start
		}
		var skip json.RawMessage
		if d == '[' && found >= 0 || dec.Decode(&skip) != nil {
			return found
		}
	}
	return found
}
