package llmwire

import (
	"encoding/json"

	"github.com/toolout/toolout/core"
)

// WithUsage returns a with the usage chunk an OpenAI stream sends when the
// request sets stream_options.include_usage: after the finish_reason
// chunk, before "data: [DONE]", a chat.completion.chunk with no choices
// and the usage (prompt, completion and total tokens). Only a whole OpenAI
// stream gets it: an Anthropic stream carries its usage in message_start
// and message_delta, a JSON answer in its body, and a stream that a fault
// ends before [DONE] never reaches it, as with the API.
func (w Wire) WithUsage(a Answer, u core.Usage, id string) Answer {
	n := len(a.Events)
	if w != OpenAI || !a.Stream() || n == 0 || a.Events[n-1].Data != "[DONE]" {
		return a
	}
	data, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion.chunk", "model": Model, "choices": []any{},
		"usage": map[string]int{"prompt_tokens": u.InputTokens, "completion_tokens": u.OutputTokens, "total_tokens": u.InputTokens + u.OutputTokens}})
	evs := make([]Event, 0, n+1)
	evs = append(append(evs, a.Events[:n-1]...), Event{Data: string(data)}, a.Events[n-1])
	a.Events = evs
	return a
}
