package responses_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/internal/wireparse"
	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/internal/seeds"
)

// requestSeeds are the captured Codex bodies (testdata/codex) and small
// requests that once broke an assumption.
func requestSeeds(f *testing.F) [][]byte {
	out := seeds.Files(f, filepath.Join("testdata", "codex", "*.json"))
	for _, s := range []string{
		`{"input":"hi","instructions":"be brief","stream":true,"max_output_tokens":5}`,
		`{"input":[{"role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_image","image_url":"x"}]},` +
			`{"type":"function_call","call_id":"c","name":"f","arguments":"{oops"},{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"x"}]},` +
			`{"type":"custom_tool_call","call_id":"d","name":"p","input":"\u00e9\n"},{"type":"custom_tool_call_output","call_id":"d","output":"ok"},` +
			`{"type":"local_shell_call","call_id":"e","action":{"type":"exec","command":["ls"]}},{"type":"local_shell_call_output","id":"e","output":"f"},` +
			`{"type":"reasoning","encrypted_content":"x","summary":[]},{"type":"compaction","encrypted_content":"y"},{"id":"msg_1"},{"type":"zz"}],` +
			`"tools":[{"type":"function","name":"f","parameters":{"type": "object"}},{"type":"custom","name":"p"},{"type":"web_search"}]}`,
		`{"input":[{"type":"function_call_output","call_id":"c","output":"` + strings.Repeat("x", 300) + `"},{"type":"message","role":"assistant","content":""},{"type":"function_call","call_id":"c","name":"","arguments":""}]}`,
		`{"input":[{"type":"message","role":"developer","content":"\ud800"}],"previous_response_id":"resp_1","conversation":{"id":"c"}}`,
		`{"input":null,"tools":null,"stream":null,"store":false}`,
		`{"input":[{"type":"function_call_output","call_id":"c","call_id":"d","output":""}]}`,
		`{"input":[{"type":"shell_call_output","call_id":"s","output":[{"stdout":"a","stderr":"","outcome":{"type":"exit","exit_code":0}}]}]}`,
		`[]`, `{"input":` + strings.Repeat("[", 600),
	} {
		out = append(out, []byte(s))
	}
	return out
}

// compactJSON is raw JSON without white space, as encoding/json writes a
// RawMessage.
func compactJSON(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// FuzzDecodeRequest checks, on any input: no panic; an error is a
// *responses.Error with a position inside the input, on one line; a
// request it reads is one EncodeRequest writes back to a body it reads to
// the same request (parameters compared compacted, as encoding/json writes
// them).
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range requestSeeds(f) {
		f.Add(s)
	}
	tag := core.Tag{Site: core.SiteSessionTurn, Turn: 1}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, _, err := responses.DecodeRequest(body, tag)
		if err != nil {
			checkError(t, err, body)
			return
		}
		for i := range req.Tools {
			req.Tools[i].InputSchema = compactJSON(req.Tools[i].InputSchema)
		}
		again, _, err := responses.DecodeRequest(responses.EncodeRequest(req, "m"), tag)
		if err != nil {
			t.Fatalf("DecodeRequest(EncodeRequest(req)): %v", err)
		}
		for i := range again.Tools {
			again.Tools[i].InputSchema = compactJSON(again.Tools[i].InputSchema)
		}
		if !reflect.DeepEqual(again, req) {
			t.Fatalf("round trip differs:\n got %+v\nwant %+v", again, req)
		}
	})
}

// checkError checks that err is a *responses.Error at a place of input,
// on one line.
func checkError(t *testing.T, err error, input []byte) {
	t.Helper()
	var e *responses.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not a *responses.Error", err)
	}
	if e.Offset < 0 || e.Offset > len(input) || e.Line < 1 || e.Col < 1 || strings.ContainsAny(err.Error(), "\r\n") {
		t.Fatalf("bad error position: %#v", e)
	}
}

// FuzzRead checks the Wire's reading of a request on any input: no panic;
// it reads what wireparse.ParseObject reads; each output's content is the
// text of its value (a string, or input_text parts); compressing every
// output (Conversation.Rewrite) gives a body that Read reads to the same
// outputs with the new text, and whose bytes outside the contents are the
// body's.
func FuzzRead(f *testing.F) {
	for _, s := range requestSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := responses.Wire{}.Read(body)
		if _, perr := wireparse.ParseObject(body, "x"); (err == nil) != (perr == nil) {
			t.Fatalf("Read: %v, ParseObject: %v", err, perr)
		}
		if err != nil {
			return
		}
		var results []gateway.Result
		for i, o := range c.Outputs {
			n := c.Contents[i]
			if text, whole := wireparse.ResultText(n, "input_text", "output_text"); !whole || text != o.Content || n.Kind != '"' && n.Kind != '[' {
				t.Fatalf("output %d: content %q, value %s", i, o.Content, body[n.Start:n.End])
			}
			results = append(results, gateway.Result{Index: i, Action: gateway.ActionCompressed, Text: "X"})
		}
		out, err := c.Rewrite(results, false)
		if err != nil {
			t.Fatal(err)
		}
		again, err := responses.Wire{}.Read(out)
		if err != nil || len(again.Outputs) != len(c.Outputs) {
			t.Fatalf("the rewritten body reads as %v, %d outputs, want %d:\n%s", err, len(again.Outputs), len(c.Outputs), out)
		}
		at, k := 0, 0
		for i, o := range again.Outputs {
			if o.Content != "X" || o.CallID != c.Outputs[i].CallID {
				t.Fatalf("output %d after the rewrite: %+v", i, o)
			}
			n, m := c.Contents[i], again.Contents[i]
			if !bytes.Equal(body[at:n.Start], out[k:m.Start]) {
				t.Fatalf("bytes before output %d changed", i)
			}
			at, k = n.End, m.End
		}
		if !bytes.Equal(body[at:], out[k:]) {
			t.Fatalf("bytes after the last output changed")
		}
	})
}

// streamSeeds are the captured Codex streams, the package's own, cut and
// CRLF forms, and small streams that once broke an assumption.
func streamSeeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, data := range seeds.Files(f, filepath.Join("testdata", "codex", "*.sse")) {
		out = append(out, data, bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")), data[:len(data)/2])
	}
	full := responses.EncodeStream(core.Response{Text: "a\u2028<b>", ToolCalls: []core.ToolCall{{ID: "c", Name: "f", Arguments: json.RawMessage(`{}`)},
		{ID: "d", Name: "p", Arguments: json.RawMessage(`"x"`), Custom: true}}}, "resp_1", "m")
	out = append(out, full)
	for _, s := range []string{
		"data: {\"type\":\"response.output_item.done\",\"output_index\":2,\"item\":{\"type\":\"x\"}}\n\ndata: {\"type\":\"response.completed\",\"response\":{}}\n\n",
		"data: {\"type\":\"response.completed\",\n\ndata: \"response\":{\"output\":[]}}\n\n",
		"data: {\"type\":\"response.completed\",\ndata: \"response\":{\"output\":\n data: []}}\n\n",
		"event: error\ndata: {\"type\":\"error\",\"error\":{\"code\":\"x\",\"message\":\"y\"}}\n\n",
		"\xef\xbb\xbfdata: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\",\"output\":[]}}\r\r",
		"data: {\"type\":\"response.output_item.done\",\"output_index\":99999999999,\"item\":{}}\n\n",
		"data:{\"type\":\"response.failed\",\"response\":{\"output\":[0]}}\r\r",
	} {
		out = append(out, []byte(s))
	}
	return out
}

// FuzzAssemble checks, on any input: no panic; an error is a
// *responses.Error with a position inside the input, on one line; a
// success is a JSON object, and when its output is an array, StreamOf
// renders it as a stream that Assemble reads back to the same bytes (line
// ends between tokens made spaces).
func FuzzAssemble(f *testing.F) {
	for _, s := range streamSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, err := responses.Assemble(raw)
		if err != nil {
			checkError(t, err, raw)
			return
		}
		root, err := jsonspan.Parse(out)
		if err != nil || root.Kind != '{' {
			t.Fatalf("result is not a JSON object: %v\n%s", err, out)
		}
		if o := root.Get("output"); o == nil || o.Kind != '[' {
			return
		}
		stream, err := responses.StreamOf(out)
		if err != nil {
			t.Fatalf("StreamOf of the result: %v\n%s", err, out)
		}
		again, err := responses.Assemble(stream)
		if err != nil {
			t.Fatalf("Assemble(StreamOf(result)): %v\n%s", err, stream)
		}
		flat := bytes.Clone(out)
		for i, c := range flat {
			if c == '\n' || c == '\r' {
				flat[i] = ' '
			}
		}
		if !bytes.Equal(again, flat) {
			t.Fatalf("round trip differs:\n got %s\nwant %s", again, out)
		}
	})
}
