package importer_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/harness/importer"
)

// otelConversation decodes the conversation of an OTLP JSON trace of
// GenAI spans as FormatOTelGenAI's doc describes it, with encoding/json
// alone, to check the importer against: the chat span that starts last (the last in the
// file among those that start together), its input (system instructions
// first) and its output's first message, or its events. Nil when it does
// not decode.
func otelConversation(trace []byte) []message {
	var docs []map[string]any
	var one map[string]any
	if json.Unmarshal(trace, &one) == nil {
		docs = append(docs, one)
	} else {
		for _, line := range bytes.Split(trace, []byte("\n")) {
			var doc map[string]any
			if len(bytes.TrimSpace(line)) > 0 && json.Unmarshal(line, &doc) == nil {
				docs = append(docs, doc)
			}
		}
	}
	var last map[string]any
	var lastStart uint64
	logs := map[string][]any{} // GenAI log records by spanId, as events with their fields
	for _, doc := range docs {
		for _, rl := range items(doc["resourceLogs"]) {
			for _, sl := range items(field(rl, "scopeLogs")) {
				for _, r := range items(field(sl, "logRecords")) {
					name, _ := field(r, "eventName").(string)
					if name == "" {
						name, _ = otelAttrs(field(r, "attributes"))["event.name"].(string)
					}
					id, _ := field(r, "spanId").(string)
					time := field(r, "timeUnixNano")
					if time == nil || time == "0" {
						time = field(r, "observedTimeUnixNano")
					}
					logs[id] = append(logs[id], map[string]any{"name": name, "timeUnixNano": time, "body": jsonValue(plain(field(r, "body")))})
				}
			}
		}
		for _, rs := range items(doc["resourceSpans"]) {
			for _, ss := range items(field(rs, "scopeSpans")) {
				for _, sp := range items(field(ss, "spans")) {
					attrs := otelAttrs(field(sp, "attributes"))
					if !isChatAttrs(attrs) {
						continue
					}
					start, _ := strconv.ParseUint(strings.Trim(string(must(json.Marshal(field(sp, "startTimeUnixNano")))), `"`), 10, 64)
					if last == nil || start >= lastStart {
						last, lastStart = sp.(map[string]any), start
					}
				}
			}
		}
	}
	if last == nil {
		return nil
	}
	attrs := otelAttrs(last["attributes"])
	if msgs, ok := flatConversation(attrs); attrs["gen_ai.input.messages"] == nil && ok {
		return msgs
	}
	if attrs["gen_ai.input.messages"] == nil {
		id, _ := last["spanId"].(string)
		return eventConversation(append(items(last["events"]), logs[id]...))
	}
	var msgs []message
	if sys := jsonValue(attrs["gen_ai.system_instructions"]); sys != nil {
		msgs = partMessages("system", sys)
	}
	for _, m := range items(jsonValue(attrs["gen_ai.input.messages"])) {
		role, _ := field(m, "role").(string)
		msgs = append(msgs, partMessages(role, field(m, "parts"))...)
	}
	out := items(jsonValue(attrs["gen_ai.output.messages"]))
	if len(out) == 0 {
		return nil
	}
	role, _ := field(out[0], "role").(string)
	return append(msgs, partMessages(role, field(out[0], "parts"))...)
}

// partMessages maps parts to messages: text and tool calls in one of
// role, each tool_call_response a tool message.
func partMessages(role string, parts any) []message {
	var out []message
	cur, texts, open := message{Role: role}, []string(nil), false
	flush := func(last bool) {
		if open || last && len(out) == 0 {
			cur.Content = must(json.Marshal(strings.Join(texts, "\n")))
			out = append(out, cur)
		}
		cur, texts, open = message{Role: role}, nil, false
	}
	for _, p := range items(parts) {
		id, _ := field(p, "id").(string)
		switch field(p, "type") {
		case "text":
			s, _ := field(p, "content").(string)
			texts, open = append(texts, s), true
		case "tool_call":
			cur.ToolCalls, open = append(cur.ToolCalls, struct{ ID string }{id}), true
		case "tool_call_response":
			flush(false)
			out = append(out, message{Role: "tool", ToolCallID: id, Content: []byte(`""`)})
		default:
			open = true
		}
	}
	flush(true)
	return out
}

// eventConversation reads a span's message events and its choice 0: the
// fields of a span event are its attributes, or the JSON of its
// gen_ai.event.content; a log record's are its body.
func eventConversation(evs []any) []message {
	time := func(e any) string { return strings.Trim(string(must(json.Marshal(field(e, "timeUnixNano")))), `"`) }
	slices.SortStableFunc(evs, func(a, b any) int {
		x, _ := strconv.ParseUint(time(a), 10, 64)
		y, _ := strconv.ParseUint(time(b), 10, 64)
		return cmp.Compare(x, y)
	})
	roles := map[any]string{"gen_ai.system.message": "system", "gen_ai.user.message": "user",
		"gen_ai.assistant.message": "assistant", "gen_ai.tool.message": "tool"}
	var msgs []message
	for _, e := range evs {
		attrs, _ := field(e, "body").(map[string]any)
		if attrs == nil {
			attrs = otelAttrs(field(e, "attributes"))
		}
		if content, ok := jsonValue(attrs["gen_ai.event.content"]).(map[string]any); ok {
			attrs = content
		}
		if role, ok := roles[field(e, "name")]; ok {
			msgs = append(msgs, eventMessage(role, attrs))
			continue
		}
		if idx := fmt.Sprint(attrs["index"]); field(e, "name") == "gen_ai.choice" && (attrs["index"] == nil || idx == "0") {
			body, _ := jsonValue(attrs["message"]).(map[string]any)
			return append(msgs, eventMessage("assistant", body))
		}
	}
	return nil
}

func eventMessage(role string, fields map[string]any) message {
	m := message{Role: role, Content: []byte(`""`)}
	if r, ok := fields["role"].(string); ok {
		m.Role = r
	}
	if s, ok := fields["content"].(string); ok {
		m.Content = must(json.Marshal(s))
	}
	m.ToolCallID, _ = fields["id"].(string)
	for _, c := range items(jsonValue(fields["tool_calls"])) {
		id, _ := field(c, "id").(string)
		m.ToolCalls = append(m.ToolCalls, struct{ ID string }{id})
	}
	return m
}

// otelAttrs maps a list of {key, value} to plain values (see plain).
func otelAttrs(list any) map[string]any {
	out := map[string]any{}
	for _, kv := range items(list) {
		if k, ok := field(kv, "key").(string); ok {
			out[k] = plain(field(kv, "value"))
		}
	}
	return out
}

// plain converts an AnyValue to the value it stands for (an intValue as
// its digits).
func plain(v any) any {
	m, _ := v.(map[string]any)
	if len(m) != 1 {
		return nil // none, or not one field (which the importer refuses)
	}
	for k, x := range m {
		switch k {
		case "stringValue", "boolValue", "doubleValue", "bytesValue":
			return x
		case "intValue":
			return strings.Trim(string(must(json.Marshal(x))), `"`)
		case "arrayValue":
			var out []any
			for _, item := range items(field(x, "values")) {
				out = append(out, plain(item))
			}
			return out
		case "kvlistValue":
			return otelAttrs(field(x, "values"))
		}
	}
	return nil
}

// jsonValue decodes the JSON text a string holds; other values are as they are.
func jsonValue(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	var out any
	if json.Unmarshal([]byte(s), &out) != nil {
		return nil
	}
	return out
}

func items(v any) []any {
	l, _ := v.([]any)
	return l
}

func field(v any, key string) any {
	m, _ := v.(map[string]any)
	return m[key]
}

func must(b []byte, _ error) []byte { return b }

// FuzzOTelEmbedded puts any text, as JSON writes it in a string (with
// escapes), in a chat span's gen_ai.input.messages and checks where an
// error in it is named: when the text is not JSON, at the character of the
// trace that jsonspan's offset in the decoded text stands for, found
// by decoding prefixes of the string literal; else nowhere before it.
func FuzzOTelEmbedded(f *testing.F) {
	for _, s := range []string{`[{"role": "user",` + "\n" + `"parts": [}]`, `[{"role":"user","parts":[{"type":"text","content":"été \"<b>\""}]}, é]`,
		"[\"\U0001F600\", \x01]", `{"a": "\ud83d"} x`, `[`, `[{"role": "robot", "parts": []}]`, "\xff", `[{"role":"user","parts":[]}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		lit, _ := json.Marshal(text) // escapes quotes, controls, <, >, &, U+2028 and bad UTF-8
		raw := string(lit[1 : len(lit)-1])
		head := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"a","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},` +
			`{"key":"gen_ai.output.messages","value":{"stringValue":"[]"}},{"key":"gen_ai.input.messages","value":{"stringValue":"`
		trace := head + raw + `"}}]}]}]}]}`
		_, err := importer.Import([]byte(trace), importer.ImportOptions{Dir: "d", Name: "x", TraceName: "t.json", At: -1})
		if err == nil {
			t.Fatalf("imported a trace with no reply")
		}
		checkInside(t, []byte(trace), err)
		var decoded string
		_ = json.Unmarshal(lit, &decoded)
		var se *jsonlex.SyntaxError
		if !errors.As(jsonspan.Check([]byte(decoded)), &se) {
			if strings.Contains(err.Error(), "the JSON in the string") {
				t.Fatalf("valid JSON refused as JSON: %v", err)
			}
			return
		}
		d := se.Offset
		// The raw offset whose prefix decodes to d bytes of decoded.
		p := 0
		for ; p <= len(raw); p++ {
			var prefix string
			if json.Unmarshal([]byte(`"`+raw[:p]+`"`), &prefix) == nil && len(prefix) >= d && strings.HasPrefix(decoded, prefix) {
				break
			}
		}
		want := fmt.Sprintf("t.json:1:%d: gen_ai.input.messages: the JSON in the string: %s", utf8.RuneCountInString(head+raw[:p])+1, se.Msg)
		if err.Error() != want {
			t.Fatalf("got  %v\nwant %s", err, want)
		}
	})
}

// otelSeeds are FuzzImport's seeds of OTel GenAI spans, besides
// the committed samples: attributes holding JSON in a string or
// structured, span events, JSONL, errors in a string's JSON, and tool-call
// arguments nested deeper than a scenario scripts them (their YAML grew
// with the square of the depth: 81 MB for 9000 levels).
var otelSeeds = []string{
	// log records with a body (the spans on the line before), span events with gen_ai.event.content
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"spanId":"s1","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}]}]}]}]}` + "\n" +
		`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"1","eventName":"gen_ai.user.message","spanId":"s1","body":{"kvlistValue":{"values":[{"key":"content","value":{"stringValue":"q"}}]}}},` +
		`{"timeUnixNano":"2","attributes":[{"key":"event.name","value":{"stringValue":"gen_ai.choice"}}],"spanId":"s1","body":{"kvlistValue":{"values":[{"key":"index","value":{"intValue":"0"}},` +
		`{"key":"message","value":{"kvlistValue":{"values":[{"key":"content","value":{"stringValue":"<tool_call>{\"name\":\"t\",\"arguments\":{}}</tool_call>"}}]}}}]}}}]}]}]}` + "\n",
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}],"events":[` +
		`{"name":"gen_ai.user.message","attributes":[{"key":"gen_ai.event.content","value":{"stringValue":"{\"role\":\"user\",\"content\":\"q\"}"}}]},` +
		`{"name":"gen_ai.choice","attributes":[{"key":"gen_ai.event.content","value":{"stringValue":"{\"index\":0,\"message\":{\"content\":\"<tool_call>{\\\"name\\\":\\\"t\\\",\\\"arguments\\\":{}}</tool_call>\"}}"}}]}]}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"a","startTimeUnixNano":"1","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},` +
		`{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"q\\u00e9\"}]}]"}},` +
		`{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"reasoning\",\"content\":\"r\"},{\"type\":\"text\",\"content\":\"<tool_call>{\\\"name\\\":\\\"t\\\",\\\"arguments\\\":{}}</tool_call>\"}]}]"}}]}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},` +
		`{"key":"gen_ai.input.messages","value":{"arrayValue":{"values":[{"kvlistValue":{"values":[{"key":"role","value":{"stringValue":"user"}},{"key":"parts","value":{"arrayValue":{"values":[{"kvlistValue":{"values":[{"key":"type","value":{"stringValue":"text"}},{"key":"content","value":{"stringValue":"q"}}]}}]}}}]}}]}}},` +
		`{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"c\",\"name\":\"t\",\"arguments\":{\"a\":[1,{\"b\":null}]}}]}]"}}]}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}],"events":[` +
		`{"name":"gen_ai.user.message","attributes":[{"key":"content","value":{"stringValue":"q"}}]},` +
		`{"name":"gen_ai.choice","attributes":[{"key":"index","value":{"intValue":"0"}},{"key":"message","value":{"stringValue":"{\"content\":\"<tool_call>{\\\"name\\\":\\\"t\\\",\\\"arguments\\\":{}}</tool_call>\"}"}}]}]}]}]}]}` + "\n" +
		`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"b","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}]}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\":\"user\",\n\"parts\":[}]"}},{"key":"gen_ai.output.messages","value":{"stringValue":"[]"}}]}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.operation.name","value":{"intValue":7}},{"key":"k","value":{"kvlistValue":{"values":[{"key":"x"}]}}}]}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},` +
		`{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"q\"}]},` +
		`{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"c\",\"name\":\"t\",\"arguments\":` + strings.Repeat(`{\"a\":`, 100) + `1` + strings.Repeat(`}`, 100) + `}]},` +
		`{\"role\":\"tool\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":\"c\",\"response\":\"` + strings.Repeat(`row\\n`, 4000) + `\"}]}]"}},` +
		`{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"done\"}]}]"}}]}]}]}]}`,
}
