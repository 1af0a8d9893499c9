package llmwire

import (
	"encoding/json"
	"fmt"

	"github.com/toolout/toolout/fakes"
)

// responsesEvents is a response as the Responses API streams it, built
// around the body core/gateway/responses encodes (so a stream's objects
// are the JSON answer's): response.created and response.in_progress with
// the response in progress (no output, no usage); for each output item,
// in order, response.output_item.added (the item in progress, empty),
// its deltas, its done event and response.output_item.done (the item
// whole). A message's deltas are response.output_text.delta, one per text
// piece, inside response.content_part.added / .done, before
// response.output_text.done; a function_call's are
// response.function_call_arguments.delta, one per argument piece, then
// .done; a custom_tool_call's response.custom_tool_call_input.delta, one
// per piece of its input text, then .done. response.completed carries the
// whole response, usage included. Every event is "event: TYPE" and a data
// line whose JSON holds the same type and its sequence_number, 0, 1, 2...
func responsesEvents(s fakes.Stream, body []byte) (events, error) {
	var whole map[string]json.RawMessage
	if err := json.Unmarshal(body, &whole); err != nil {
		return nil, fmt.Errorf("llmwire: responses: the encoded response: %w", err)
	}
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(whole["output"], &items); err != nil {
		return nil, fmt.Errorf("llmwire: responses: the encoded response's output: %w", err)
	}
	head := clone(whole)
	head["status"], head["output"], head["usage"] = raw("in_progress"), raw([]any{}), raw(nil)
	if _, ok := head["completed_at"]; ok {
		head["completed_at"] = raw(nil)
	}
	evs := events{
		{name: "response.created", data: map[string]any{"response": head}},
		{name: "response.in_progress", data: map[string]any{"response": head}},
	}
	calls := 0
	for i, item := range items {
		var typ, id string
		_ = json.Unmarshal(item["type"], &typ)
		_ = json.Unmarshal(item["id"], &id)
		var pieces []string
		switch typ {
		case "message":
			pieces = s.Text
		case "function_call", "custom_tool_call":
			if calls < len(s.Args) {
				pieces = s.Args[calls]
			}
			calls++
		}
		evs = append(evs, itemEvents(typ, id, i, item, pieces)...)
	}
	return append(evs, event{name: "response.completed", final: true, data: map[string]any{"response": json.RawMessage(body)}}), nil
}

// itemEvents are the events of the output item at index i: added (in
// progress, empty), one delta per piece (a chunk of the stream), the done
// events.
func itemEvents(typ, id string, i int, item map[string]json.RawMessage, pieces []string) events {
	at := func(m map[string]any) map[string]any {
		m["item_id"], m["output_index"] = id, i
		return m
	}
	added := clone(item)
	if _, ok := added["status"]; ok {
		added["status"] = raw("in_progress")
	}
	var deltas, done events
	switch typ {
	case "message":
		var text string
		for _, p := range pieces {
			text += p
		}
		added["content"] = raw([]any{})
		part := func(t string) map[string]any {
			return map[string]any{"type": "output_text", "annotations": []any{}, "logprobs": []any{}, "text": t}
		}
		deltas = events{{name: "response.content_part.added", data: at(map[string]any{"content_index": 0, "part": part("")})}}
		for _, p := range pieces {
			deltas = append(deltas, event{name: "response.output_text.delta", chunk: true,
				data: at(map[string]any{"content_index": 0, "delta": p, "logprobs": []any{}})})
		}
		done = events{
			{name: "response.output_text.done", data: at(map[string]any{"content_index": 0, "text": text, "logprobs": []any{}})},
			{name: "response.content_part.done", data: at(map[string]any{"content_index": 0, "part": part(text)})},
		}
	case "function_call":
		added["arguments"] = raw("")
		for _, p := range pieces {
			deltas = append(deltas, event{name: "response.function_call_arguments.delta", chunk: true, data: at(map[string]any{"delta": p})})
		}
		done = events{{name: "response.function_call_arguments.done", data: at(map[string]any{"name": item["name"], "arguments": item["arguments"]})}}
	case "custom_tool_call":
		added["input"] = raw("")
		for _, p := range pieces {
			deltas = append(deltas, event{name: "response.custom_tool_call_input.delta", chunk: true, data: at(map[string]any{"delta": p})})
		}
		done = events{{name: "response.custom_tool_call_input.done", data: at(map[string]any{"input": item["input"]})}}
	}
	out := events{{name: "response.output_item.added", data: map[string]any{"output_index": i, "item": added}}}
	out = append(append(out, deltas...), done...)
	return append(out, event{name: "response.output_item.done", data: map[string]any{"output_index": i, "item": item}})
}

// responsesError is the error event that ends a stream cut by
// error_after: the Responses API's "error" event (type, code, message,
// param, sequence_number, as the SDKs' ResponseErrorEvent reads it).
func responsesError(msg string) event {
	return event{name: "error", data: map[string]any{"code": "server_error", "message": msg, "param": nil}}
}

// sequence gives every event of a Responses stream, in the order sent,
// its type and its sequence_number (the error event of a fault
// included), first in its data as the API writes them, then the event's
// own members.
func sequence(out events) {
	for i := range out {
		js, _ := json.Marshal(out[i].data) // maps of strings, numbers and JSON
		head := fmt.Sprintf(`{"type":%q,"sequence_number":%d`, out[i].name, i)
		if rest := js[1 : len(js)-1]; len(rest) > 0 {
			head += "," + string(rest)
		}
		out[i].data = head + "}"
	}
}

func clone(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func raw(v any) json.RawMessage {
	b, _ := json.Marshal(v) // the values given always marshal
	return b
}
