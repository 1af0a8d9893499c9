package anthropic_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
)

// fuzzSeeds are the recorded-style streams of testdata (and their CRLF and
// cut forms), the JSON fixtures rendered with StreamOf, and small streams
// that once broke an assumption.
func fuzzSeeds(f *testing.F) [][]byte {
	sse, _ := filepath.Glob(filepath.Join("testdata", "*.sse"))
	bodies, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	files := append(sse, bodies...)
	if len(sse) == 0 || len(bodies) == 0 {
		f.Fatal("no testdata")
	}
	var seeds [][]byte
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		switch filepath.Ext(name) {
		case ".sse":
			seeds = append(seeds, data, bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")), data[:len(data)/2])
		case ".json":
			if stream, err := anthropic.StreamOf(data); err == nil {
				seeds = append(seeds, stream)
			}
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
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// FuzzAssembleStream checks, on any input: no panic; an error is an
// *anthropic.Error with a position inside the input; a success is valid
// JSON whose content blocks are text or tool_use (with an object input),
// which DecodeResponse accepts, and which StreamOf renders as a stream that
// assembles back to the same bytes.
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
		var m struct {
			Type    string `json:"type"`
			Content []struct {
				Type  string          `json:"type"`
				Input json.RawMessage `json:"input"`
			} `json:"content"`
		}
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("result is not JSON: %v\n%s", err, out)
		}
		if m.Type != "message" {
			t.Fatalf("type %q", m.Type)
		}
		for i, c := range m.Content {
			switch {
			case c.Type == "text" && c.Input == nil:
			case c.Type == "tool_use" && len(c.Input) > 0 && c.Input[0] == '{':
			default:
				t.Fatalf("content[%d]: type %q input %s", i, c.Type, c.Input)
			}
		}
		if _, err := anthropic.DecodeResponse(out); err != nil {
			t.Fatalf("DecodeResponse of the result: %v\n%s", err, out)
		}
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

// FuzzDecodeRequest checks the strict JSON reader against encoding/json and
// the request contract: a body DecodeRequest accepts is valid JSON, and
// one that is not valid JSON is refused; an error is an *anthropic.Error
// on one line with a position inside the body; on success every tool call
// has an object for arguments and every tool schema is an object or
// absent. Seeded with the recorded request and small bodies of each shape.
func FuzzDecodeRequest(f *testing.F) {
	bodies, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, name := range bodies {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		`{"messages":[{"role":"user","content":[{"type":"text","text":"a\u00e9\ud83d\ude00"},{"tool_use_id":"t","type":"tool_result","content":null}]}]}`,
		`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{"a":[1,2.5e-3,true,null,"\""]}}]}],"tools":[{"name":"n","input_schema":{}}]}`,
		`{"system":[{"type":"text","text":"s"}],"max_tokens":1,"stream":true,"messages":[]}`,
		`{"messages":[],"messages":[]}`, `{"messages":[] , "x" : [ {} , -0 ]}`, "{\"messages\":[\"\xff\"]}",
		`{"messages":[` + strings.Repeat("[", 520) + `]}`, `{"a":1e}`, ` {"messages":[]} `, `{"messages":[{"role":"user","content":"\u0000"}]}`,
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
	})
}
