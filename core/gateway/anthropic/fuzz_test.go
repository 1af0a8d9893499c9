package anthropic_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/internal/seeds"
)

// fuzzSeeds are the recorded-style streams of testdata (and their CRLF and
// cut forms), the JSON fixtures rendered with StreamOf, and small streams
// that once broke an assumption.
func fuzzSeeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, data := range seeds.Files(f, filepath.Join("testdata", "*.sse")) {
		out = append(out, data, bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")), data[:len(data)/2])
	}
	for _, data := range seeds.Files(f, filepath.Join("testdata", "*.json")) {
		if stream, err := anthropic.StreamOf(data); err == nil {
			out = append(out, stream)
		}
	}
	start := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"content\":[],\"usage\":{}}}\n\n"
	end := "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	for _, s := range []string{
		start + end,
		start + "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"n\",\"input\":{\"a\":\"\\ud800\xff\"}}}\n\n" +
			"data: {\"type\":\"content_block_stop\",\"index\":0}\n\n" + end,
		start + "data: {\"type\":\"content_block_start\",\"index\":3,\"content_block\":{\"type\":\"text\",\"text\":\"\\u2028<&>\"}}\n\n" +
			"data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"text_delta\",\"text\":\"\\u0000\"}}\n\n" +
			"data: {\"type\":\"content_block_stop\",\"index\":3}\n\n" + end,
		start + "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"a\\u0062\":[1e5],\"output_tokens\":null}}\n\n" + end,
		"\xef\xbb\xbf" + strings.ReplaceAll(start+end, "\n", "\r"),
		start + "data: " + strings.Repeat("[", 600) + "\n\n" + end,
		// Thinking: a surrogate pair split over two deltas, escapes, invalid
		// UTF-8, two signatures (the last wins), a start without a signature.
		start + "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\n" +
			"data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"a\\u00e9\\ud83d\"}}\n\n" +
			"data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"\\ude00\\n\\/\xff\"}}\n\n" +
			"data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"s1\"}}\n\n" +
			"data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"s2/+=\"}}\n\n" +
			"data: {\"type\":\"content_block_stop\",\"index\":0}\n\n" + end,
		start + "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"data\":\"Em\\u0077=\",\"type\":\"redacted_thinking\"}}\n\n" +
			"data: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
			"data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"x\",\"signature\":\"s\"}}\n\n" +
			"data: {\"type\":\"content_block_stop\",\"index\":1}\n\n" + end,
	} {
		out = append(out, []byte(s))
	}
	return out
}

// FuzzAssembleStream checks, on any input: no panic; an error is an
// *anthropic.Error with a position inside the input; a success is valid
// JSON whose content blocks are text (a string text), tool_use (an object
// input), thinking (string thinking and signature) or redacted_thinking (a
// string data), which DecodeResponse accepts with one tool call per
// tool_use block and the text blocks' texts joined, and which StreamOf
// renders as a stream that assembles back to the same bytes.
func FuzzAssembleStream(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, err := anthropic.AssembleStream(raw)
		if err != nil {
			var e *anthropic.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *anthropic.Error", err)
			}
			if e.Offset < 0 || e.Offset > len(raw) || e.Line < 1 || e.Col < 1 || strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("bad error position: %#v", e)
			}
			return
		}
		checkMessage(t, out)
		stream, err := anthropic.StreamOf(out)
		if err != nil {
			t.Fatalf("StreamOf of the result: %v\n%s", err, out)
		}
		again, err := anthropic.AssembleStream(stream)
		if err != nil {
			t.Fatalf("AssembleStream(StreamOf(result)): %v\n%s", err, stream)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("round trip differs:\n got %s\nwant %s", again, out)
		}
	})
}

// checkMessage checks the shape of an assembled message and what
// DecodeResponse makes of it.
func checkMessage(t *testing.T, out []byte) {
	t.Helper()
	var m struct {
		Type    string `json:"type"`
		Content []map[string]json.RawMessage
	}
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, out)
	}
	if m.Type != "message" {
		t.Fatalf("type %q", m.Type)
	}
	isString := func(v json.RawMessage) bool { return len(v) > 0 && v[0] == '"' }
	text, calls := "", 0
	for i, c := range m.Content {
		var typ string
		_ = json.Unmarshal(c["type"], &typ)
		ok := false
		switch typ {
		case "text":
			var s string
			ok = len(c) == 2 && json.Unmarshal(c["text"], &s) == nil
			text += s
		case "tool_use":
			ok = len(c) == 4 && len(c["input"]) > 0 && c["input"][0] == '{' && isString(c["id"]) && isString(c["name"])
			calls++
		case "thinking":
			ok = len(c) == 3 && isString(c["thinking"]) && isString(c["signature"])
		case "redacted_thinking":
			ok = len(c) == 2 && isString(c["data"])
		}
		if !ok {
			t.Fatalf("content[%d]: %q\n%s", i, typ, out)
		}
	}
	resp, err := anthropic.DecodeResponse(out)
	if err != nil {
		t.Fatalf("DecodeResponse of the result: %v\n%s", err, out)
	}
	if len(resp.ToolCalls) != calls || resp.Text != text {
		t.Fatalf("DecodeResponse: %d call(s) for %d tool_use block(s), text %q for %q", len(resp.ToolCalls), calls, resp.Text, text)
	}
}

// FuzzDecodeRequest checks the strict JSON reader against encoding/json and
// the request contract: a body DecodeRequest accepts is valid JSON, and
// one that is not valid JSON is refused; an error is an *anthropic.Error
// on one line with a position inside the body; on success every tool call
// has an object for arguments and every tool schema is an object or
// absent. Seeded with the recorded request, the requests Claude Code sends
// (testdata/claude-code) and small bodies of each shape.
func FuzzDecodeRequest(f *testing.F) {
	for _, data := range seeds.Files(f, filepath.Join("testdata", "*.json")) {
		f.Add(data)
	}
	for _, data := range seeds.Files(f, filepath.Join("testdata", "claude-code", "*.json")) { // Claude Code's requests
		f.Add(data)
	}
	for _, s := range []string{
		// System messages inside messages (once refused).
		`{"messages":[{"role":"user","content":"u"},{"role":"system","content":[{"type":"text","text":"env","cache_control":{"type":"ephemeral"}}],"output_config":{}},` +
			`{"role":"system","content":""},{"role":"system","content":[{"type":"image"}]}],"thinking":{"type":"adaptive"},"context_management":{"edits":[]}}`,
		`{"messages":[{"role":"system","content":null}]}`, `{"messages":[{"role":"system","content":[{"type":"text","text":7}]}]}`,
		`{"messages":[{"role":"user","content":[{"type":"text","text":"a\u00e9\ud83d\ude00"},{"tool_use_id":"t","type":"tool_result","content":null}]}]}`,
		`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{"a":[1,2.5e-3,true,null,"\""]}}]}],"tools":[{"name":"n","input_schema":{}}]}`,
		`{"system":[{"type":"text","text":"s"}],"max_tokens":1,"stream":true,"messages":[]}`,
		`{"messages":[],"messages":[]}`, `{"messages":[] , "x" : [ {} , -0 ]}`, "{\"messages\":[\"\xff\"]}",
		`{"messages":[` + strings.Repeat("[", 520) + `]}`, `{"a":1e}`, ` {"messages":[]} `, `{"messages":[{"role":"user","content":"\u0000"}]}`,
		`{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"t\ud800","signature":"s"},{"data":"d","type":"redacted_thinking"},` +
			`{"type":"tool_use","id":"t","name":"n","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}]}`,
		`{"messages":[{"role":"assistant","content":[{"type":"thinking","signature":null}]}]}`,
		// tool_result text blocks read as their concatenation
		// (not joined by "\n"), with empty blocks, a character cut
		// between blocks by escapes, and lists holding an image.
		`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"ab"},{"type":"text","text":"cd"}]}]}]}`,
		`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":""},{"text":"","type":"text"}]}]}]}`,
		`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"\n"},{"type":"text","text":"\u00e9\ud83d"},{"type":"text","text":"\ude00\""}]}]}]}`,
		`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},{"type":"text","text":"b"}]},` +
			`{"type":"tool_result","tool_use_id":"u","content":[{"type":"text","text":"c"},{"type":"text","text":"d"}]}]}]}`,
		`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text"},{"type":"text","text":"x"}]}]}]}`,
		`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"` + strings.Repeat("x", 25600) +
			`"},{"type":"text","text":"` + strings.Repeat("y", 25600) + `"}]}]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, _, err := anthropic.DecodeRequest(body, core.Tag{})
		if err != nil {
			var e *anthropic.Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(body) || e.Line < 1 || e.Col < 1 ||
				strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("bad error: %v (%#v)", err, e)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("accepted a body that is not JSON: %q", body)
		}
		for _, m := range req.Messages {
			for _, c := range m.ToolCalls {
				if !json.Valid(c.Arguments) || c.Arguments[0] != '{' {
					t.Fatalf("arguments %q", c.Arguments)
				}
			}
		}
		for _, tool := range req.Tools {
			if tool.InputSchema != nil && (!json.Valid(tool.InputSchema) || tool.InputSchema[0] != '{') {
				t.Fatalf("schema %q", tool.InputSchema)
			}
		}
		checkToolTexts(t, body, req)
	})
}

// checkToolTexts checks that the gateway's Wire reads each tool_result's
// content as DecodeRequest does: one reader is this package's strict one,
// the other core/jsonspan. Wire leaves out results whose content
// is absent or holds a block other than text, DecodeRequest none, so when
// both count the same results they are the same ones, in the same order.
func checkToolTexts(t *testing.T, body []byte, req core.Request) {
	t.Helper()
	c, err := anthropic.Wire{}.Read(body)
	if err != nil {
		t.Fatalf("DecodeRequest accepted a body Wire refuses: %v", err)
	}
	var tools []core.Message
	for _, m := range req.Messages {
		if m.Role == core.RoleTool {
			tools = append(tools, m)
		}
	}
	if len(tools) != len(c.Outputs) {
		return
	}
	for i, o := range c.Outputs {
		if o.CallID != tools[i].ToolCallID || o.Content != tools[i].Content {
			t.Fatalf("tool result %d: Wire reads %q %q, DecodeRequest %q %q", i, o.CallID, o.Content, tools[i].ToolCallID, tools[i].Content)
		}
	}
}
