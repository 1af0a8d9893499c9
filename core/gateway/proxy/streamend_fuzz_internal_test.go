package proxy

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolout/toolout/core/jsonspan"
)

// FuzzStreamEnd holds endsStream, the byte scan that tells an event that
// ends its stream as it passes, to a reading of the parsed JSON: on any
// data that is JSON, it is true exactly when a key finish_reason (as sent,
// at any depth) has a string value, or the root's type is message_stop or
// a Responses API terminal event. Seeds: the terminal events of the three
// wires, and events that only name them.
func FuzzStreamEnd(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		`{"choices":[{"index":0,"delta":{"content":"finish_reason"},"finish_reason":null}]}`,
		`{"type":"message_stop"}`,
		`{"type":"content_block_delta","delta":{"type":"text_delta","text":"message_stop"}}`,
		`{"type":"response.completed","response":{"output":[]}}`,
		`{"type":"response.output_text.delta","delta":"\"response.failed\""}`,
		// Two choices: the first not finished, the second finished.
		`{"choices":[{"index":0,"finish_reason":null},{"index":1,"finish_reason":"stop"}]}`,
		`{"delta":{"finish_reason" : "length"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		root, err := jsonspan.Parse(data)
		if err != nil {
			return // nested past jsonspan's depth: endsStream reads no tree
		}
		want := hasStringFinish(data, root) || root.Get("type").Text() == "message_stop" || responsesEnd[root.Get("type").Text()]
		if got := endsStream(data); got != want {
			t.Fatalf("endsStream(%s) = %v, want %v", data, got, want)
		}
	})
}

// hasStringFinish reports whether n holds, at any depth, a key sent as
// "finish_reason" whose value is a string.
func hasStringFinish(data []byte, n *jsonspan.Node) bool {
	for i, v := range n.Vals {
		if n.Kind == '{' && bytes.HasPrefix(data[n.KeyStarts[i]:], []byte(`"finish_reason"`)) && v.Kind == '"' {
			return true
		}
		if hasStringFinish(data, v) {
			return true
		}
	}
	return false
}
