package importer_test

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolout/toolout/harness/importer"
)

// isChatAttrs tells, as FormatOTelGenAI's doc says, whether a span of these
// attributes (plain values) is an LLM call: its gen_ai.operation.name is a chat
// operation; or, without one, it is an OpenInference LLM span, an
// OpenLLMetry chat request, or it holds a flat convention's messages.
func isChatAttrs(attrs map[string]any) bool {
	if op, ok := attrs["gen_ai.operation.name"]; ok {
		return slices.Contains([]any{"chat", "text_completion", "generate_content"}, op)
	}
	if attrs["openinference.span.kind"] == "LLM" || attrs["llm.request.type"] == "chat" {
		return true
	}
	_, ok := flatConversation(attrs)
	return ok
}

// flatPrefixes are the flat conventions' input and output prefixes, in
// the order the importer tries them.
var flatPrefixes = [][2]string{{"gen_ai.prompt", "gen_ai.completion"}, {"llm.prompts", "llm.completions"}, {"llm.input_messages", "llm.output_messages"}}

var flatKey = regexp.MustCompile(`^(\d+)\.(.+)$`)

// flatConversation decodes a span's flattened messages with the standard
// library alone, to check the importer against: the first convention any
// attribute names; messages by index; the first output message. ok tells
// whether the span holds such attributes; msgs is nil when they do not
// decode as a conversation.
func flatConversation(attrs map[string]any) (msgs []message, ok bool) {
	for _, p := range flatPrefixes {
		byIndex := [2]map[int]map[string]any{{}, {}}
		for key, v := range attrs {
			for side, prefix := range p {
				if !strings.HasPrefix(key, prefix+".") {
					continue
				}
				ok = true
				m := flatKey.FindStringSubmatch(key[len(prefix)+1:])
				if m == nil {
					continue
				}
				i, _ := strconv.Atoi(m[1])
				if byIndex[side][i] == nil {
					byIndex[side][i] = map[string]any{}
				}
				byIndex[side][i][strings.TrimPrefix(m[2], "message.")] = v
			}
		}
		if !ok {
			continue
		}
		for side := range 2 {
			idx := make([]int, 0, len(byIndex[side]))
			for i := range byIndex[side] {
				idx = append(idx, i)
			}
			slices.Sort(idx)
			if side == 1 && len(idx) > 0 {
				idx = idx[:1]
			}
			for _, i := range idx {
				msgs = append(msgs, flatMessage(byIndex[side][i], side == 1))
			}
		}
		return msgs, true
	}
	return nil, false
}

// flatMessage decodes one flattened message's fields (keys under its index).
func flatMessage(f map[string]any, output bool) message {
	m := message{Content: []byte(`""`)}
	m.Role, _ = f["role"].(string)
	if m.Role == "" && output {
		m.Role = "assistant"
	}
	text, _ := f["content"].(string)
	var parts []struct{ Type, Text string }
	if json.Unmarshal([]byte(text), &parts) == nil && len(parts) > 0 {
		var texts []string
		for _, p := range parts {
			texts = append(texts, p.Text)
		}
		text = strings.Join(texts, "\n")
	}
	m.Content, _ = json.Marshal(text)
	m.ToolCallID, _ = f["tool_call_id"].(string)
	var calls []struct {
		j  int
		id string
	}
	for key, v := range f {
		var j int
		var rest string
		if n, _ := fmt.Sscanf(key, "tool_calls.%d.%s", &j, &rest); n == 2 && (rest == "id" || rest == "tool_call.id") {
			id, _ := v.(string)
			calls = append(calls, struct {
				j  int
				id string
			}{j, id})
		}
	}
	slices.SortFunc(calls, func(a, b struct {
		j  int
		id string
	}) int {
		return cmp.Compare(a.j, b.j)
	})
	for _, c := range calls {
		m.ToolCalls = append(m.ToolCalls, struct{ ID string }{c.id})
	}
	return m
}

// flatSeeds are FuzzImport's seeds of the flat conventions besides the
// committed samples: sparse and huge indexes, leading zeros, keys deeper
// than the bound, a value that other keys extend, names among indexes,
// content parts, a mixed trace, OpenInference without its message.
var flatSeeds = []string{
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.prompt.4294967296.role","value":{"stringValue":"user"}},{"key":"gen_ai.completion.0.content","value":{"stringValue":"a"}}]}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.prompt.99999.role","value":{"stringValue":"user"}},{"key":"gen_ai.prompt.99999.content","value":{"stringValue":"q"}},{"key":"gen_ai.prompt.3.role","value":{"stringValue":"system"}},{"key":"gen_ai.completion.7.content","value":{"stringValue":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}}]}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.prompt.01.role","value":{"stringValue":"user"}},{"key":"gen_ai.prompt.1.role.x","value":{"stringValue":"user"}},{"key":"gen_ai.prompt.x.role","value":{}},{"key":"gen_ai.completion.0.a.b.c.d.e.f.g.h.i.j.k.l","value":{"intValue":"1"}}]}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"a","startTimeUnixNano":"1","attributes":[{"key":"llm.request.type","value":{"stringValue":"chat"}},{"key":"gen_ai.prompt.0.role","value":{"stringValue":"user"}},` +
		`{"key":"gen_ai.prompt.0.content","value":{"stringValue":"[{\"type\":\"text\",\"text\":\"q\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}}]"}},` +
		`{"key":"gen_ai.completion.0.tool_calls.0.id","value":{"stringValue":"c"}},{"key":"gen_ai.completion.0.tool_calls.0.name","value":{"stringValue":"t"}},{"key":"gen_ai.completion.0.tool_calls.0.arguments","value":{"stringValue":"{not json"}}]},` +
		`{"traceId":"a","startTimeUnixNano":"2","attributes":[{"key":"openinference.span.kind","value":{"stringValue":"LLM"}},{"key":"llm.input_messages.0.message.role","value":{"stringValue":"user"}},` +
		`{"key":"llm.input_messages.0.message.contents.0.message_content.type","value":{"stringValue":"text"}},{"key":"llm.input_messages.0.message.contents.0.message_content.text","value":{"stringValue":"q"}},` +
		`{"key":"llm.input_messages.0.message.contents.1.message_content.type","value":{"stringValue":"image"}},` +
		`{"key":"llm.input_messages.1.message.role","value":{"stringValue":"assistant"}},{"key":"llm.input_messages.1.message.tool_calls.0.tool_call.id","value":{"stringValue":"c"}},` +
		`{"key":"llm.input_messages.1.message.tool_calls.0.tool_call.function.name","value":{"stringValue":"t"}},{"key":"llm.input_messages.1.message.tool_calls.0.tool_call.function.arguments","value":{"stringValue":"{not json"}},` +
		`{"key":"llm.input_messages.2.message.role","value":{"stringValue":"tool"}},{"key":"llm.input_messages.2.message.tool_call_id","value":{"stringValue":"c"}},{"key":"llm.input_messages.2.message.content","value":{"stringValue":"` + strings.Repeat(`row\n`, 4000) + `"}},` +
		`{"key":"llm.output_messages.0.message.content","value":{"stringValue":"done"}}]}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"openinference.span.kind","value":{"stringValue":"LLM"}},{"key":"llm.input_messages.0.role","value":{"stringValue":"user"}},{"key":"llm.output_messages.0.message.tool_calls.0.tool_call.id","value":{"stringValue":"c"}}]}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.prompt.0.content","value":{"stringValue":"x"}},{"key":"gen_ai.prompt.0.content.0.text","value":{"stringValue":"y"}},{"key":"gen_ai.prompt.0.role","value":{"kvlistValue":{"values":[]}}}]}]}]}]}`,
}

// FuzzOTelFlat builds a chat span from any attribute keys and values (a
// key a line, each value a line, as stringValues; a key under one of the
// flat conventions' prefixes, chosen by its first byte, and an index) and
// checks the flat readers: no panic; an error is one line at a line:col
// inside the trace, the same on a second read; a conversation read
// agrees with flatConversation's reading of the same attributes on the
// messages' roles and tool calls.
func FuzzOTelFlat(f *testing.F) {
	f.Add("0.role\n0.content\n0.tool_calls.0.id\n0.tool_calls.0.name", "user\nq\nc\nt", uint8(0))
	f.Add("4294967296.role\n01.content\n3.role.x", "user\nq\ny", uint8(1))
	f.Add("0.message.role\n0.message.contents.0.message_content.text\n9.message.role\n9.message.tool_call_id", "user\nq\ntool\nc", uint8(2))
	f.Add("0.role\n0.content\n1.role\n1.content", "user\n[{\"type\":\"text\",\"text\":\"a\"}]\nrobot\n[1,2]", uint8(0))
	// A megabyte key once made a megabyte one-line error (9f07cae).
	f.Add("0."+strings.Repeat("k", 1<<20), "user", uint8(0))
	f.Add("0.role\n0.content\n"+strings.Repeat("1.", 1<<18)+"role", "user\nq\nx", uint8(1))
	f.Fuzz(func(t *testing.T, keys, values string, conv uint8) {
		p := flatPrefixes[int(conv)%len(flatPrefixes)]
		ks, vs := strings.Split(keys, "\n"), strings.Split(values, "\n")
		attrs := []string{`{"key":"llm.request.type","value":{"stringValue":"chat"}}`}
		for i, k := range ks {
			v := ""
			if i < len(vs) {
				v = vs[i]
			}
			side := p[0]
			if len(k) > 0 && k[0]%2 == 1 {
				side = p[1]
			}
			attrs = append(attrs, `{"key":`+quote(side+"."+k)+`,"value":{"stringValue":`+quote(v)+`}}`)
		}
		role := ".0.role"
		if strings.HasPrefix(p[1], "llm.output") {
			role = ".0.message.role"
		}
		attrs = append(attrs, `{"key":`+quote(p[1]+role)+`,"value":{"stringValue":"assistant"}}`)
		trace := []byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"a","attributes":[` + strings.Join(attrs, ",") + `]}]}]}]}`)
		got, err := importer.Conversation(trace, importer.FormatOTelGenAI)
		_, err2 := importer.Conversation(trace, importer.FormatOTelGenAI)
		if fmt.Sprint(err) != fmt.Sprint(err2) {
			t.Fatalf("two reads differ: %v / %v", err, err2)
		}
		if err != nil {
			err = errors.New(strings.Replace(err.Error(), "t.jsonl:", "t.json:", 1)) // Conversation's name
			if !atLineCol.MatchString(err.Error()) || strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("error without a line:col, or not one line: %q", err)
			}
			if len(err.Error()) > 1000 {
				t.Fatalf("an error of %d bytes: %.200q", len(err.Error()), err)
			}
			checkInside(t, trace, err)
			return
		}
		want := otelConversation(trace)
		if len(want) != len(got) {
			t.Fatalf("%d messages, want %d:\n%q", len(got), len(want), got)
		}
		for i, m := range want {
			line := got[i]
			if !strings.HasPrefix(line, m.Role+": ") {
				t.Fatalf("message %d: %q, want role %s", i, line, m.Role)
			}
			if n := strings.Count(line, " | call "); n < len(m.ToolCalls) {
				t.Fatalf("message %d: %q, want %d tool calls", i, line, len(m.ToolCalls))
			}
		}
	})
}
