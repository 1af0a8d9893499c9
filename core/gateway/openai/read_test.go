package openai_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/openai"
)

// FuzzReadToolText checks, for any texts a, b, c sent as one string or as
// three text parts of a tool message, that Wire reads the tool content as
// exactly the concatenation of the texts the client sent (each as JSON
// decodes it), and DecodeRequest reads the same. Seeded with parts that a
// reader joining them by "\n" would get wrong.
func FuzzReadToolText(f *testing.F) {
	f.Add("ab", "cd", "", true)
	f.Add("", "", "", true)
	f.Add("line 1\n", "", "line 2\n", true)
	f.Add("é", "\U0001F600", "\"\\/\u2028<&>\x00", true)
	f.Add("a\xffb", "\xed\xa0\x80", "z", true) // invalid UTF-8: JSON sends U+FFFD
	f.Add(strings.Repeat("x", 25600), strings.Repeat("y", 25600), "", true)
	f.Add("ab", "cd", "ef", false)
	f.Fuzz(func(t *testing.T, a, b, c string, parts bool) {
		var content any = a + b + c
		if parts {
			content = []any{map[string]any{"type": "text", "text": a}, map[string]any{"type": "text", "text": b},
				map[string]any{"type": "text", "text": c}}
		}
		body, err := json.Marshal(map[string]any{"messages": []any{
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "call_1", "type": "function",
				"function": map[string]any{"name": "logs", "arguments": "{}"}}}},
			map[string]any{"role": "tool", "tool_call_id": "call_1", "content": content}}})
		if err != nil {
			t.Fatal(err)
		}
		want := sent(a) + sent(b) + sent(c)
		if !parts {
			want = sent(a + b + c)
		}
		conv, err := openai.Wire{}.Read(body)
		if err != nil || len(conv.Outputs) != 1 {
			t.Fatalf("Read: %v, %d outputs\n%s", err, len(conv.Outputs), body)
		}
		if got := conv.Outputs[0].Content; got != want {
			t.Fatalf("Read: %d bytes %q, want %d bytes %q", len(got), got, len(want), want)
		}
		req, _, err := openai.DecodeRequest(body, core.Tag{})
		if err != nil || req.Messages[1].Content != want {
			t.Fatalf("DecodeRequest: %v, %q, want %q", err, req.Messages[1].Content, want)
		}
	})
}

// sent is s as a client's JSON sends it (invalid UTF-8 becomes U+FFFD).
func sent(s string) string {
	raw, _ := json.Marshal(s)
	var out string
	_ = json.Unmarshal(raw, &out)
	return out
}
