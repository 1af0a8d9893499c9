package llmwire

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/fakes"
)

// event is one server-sent event as built; chunk marks the content
// deltas, final the events after them (the finish chunk, message_delta).
type event struct {
	name  string // "" for OpenAI's data-only events
	data  any    // a string as is, anything else as JSON
	chunk bool
	final bool
}

type events []event

// cut is where a stream with a fault after k chunks stops: right after its
// k-th chunk, or for k = 0 right before its first chunk (before its final
// events when it has none).
func (evs events) cut(k int) int {
	seen := 0
	for i, ev := range evs {
		if k == 0 && (ev.chunk || ev.final) {
			return i
		}
		if ev.chunk {
			if seen++; seen == k {
				return i + 1
			}
		}
	}
	return len(evs)
}

// answer is the stream's events up to its fault, where an error event ends
// it (error_after) or the connection drops (disconnect_after), in the
// middle of the next event with mid_event. A delay after the k-th chunk
// goes to the event at cut(k), which may be the error or the cut one.
func (evs events) answer(s fakes.Stream, w Wire) Answer {
	wait := make([]time.Duration, len(evs)+1)
	for k := range s.Delays {
		wait[evs.cut(k)] += s.Delay(k)
	}
	end := len(evs)
	if k := max(s.ErrorAfter, s.DisconnectAfter); k >= 0 {
		end = evs.cut(k)
	}
	out := evs[:end:end]
	if s.ErrorAfter >= 0 {
		msg := fmt.Sprintf("scripted stream error after %d chunk(s)", s.ErrorAfter)
		switch w {
		case Anthropic:
			out = append(out, event{name: "error", data: map[string]any{"type": "error", "error": map[string]any{"type": "api_error", "message": msg}}})
		case Responses:
			out = append(out, responsesError(msg))
		default:
			out = append(out, event{data: map[string]any{"error": map[string]any{"message": msg, "type": "server_error", "code": nil}}})
		}
	}
	mid := s.DisconnectAfter >= 0 && s.MidEvent && end < len(evs)
	if mid {
		out = append(out, evs[end])
	}
	if w == Responses {
		sequence(out)
	}
	a := Answer{Status: http.StatusOK, Header: http.Header{"Content-Type": {"text/event-stream"}}, Cut: s.DisconnectAfter >= 0}
	for i, ev := range out {
		data, ok := ev.data.(string)
		if !ok {
			js, _ := json.Marshal(ev.data)
			data = string(js)
		}
		a.Events = append(a.Events, Event{Name: ev.name, Data: data, Delay: wait[i]})
	}
	if mid {
		a.Partial = len(a.Events[end].Bytes()) / 2
	}
	return a
}

// openaiEvents is a chat completion as the API streams it: a head chunk
// with the role, one chunk per text piece (content) and per argument piece
// (tool_calls; a call's first piece brings its id and name), a chunk with
// the finish_reason, and [DONE].
func openaiEvents(s fakes.Stream, id string) events {
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "model": Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	evs := events{{data: chunk(map[string]any{"role": "assistant", "content": ""}, nil)}}
	for _, p := range s.Text {
		evs = append(evs, event{data: chunk(map[string]any{"content": p}, nil), chunk: true})
	}
	for i, c := range s.Response.ToolCalls {
		for j, p := range s.Args[i] {
			call := map[string]any{"index": i, "function": map[string]any{"arguments": p}}
			if j == 0 {
				call["id"], call["type"] = c.ID, "function"
				call["function"] = map[string]any{"name": c.Name, "arguments": p}
			}
			evs = append(evs, event{data: chunk(map[string]any{"tool_calls": []any{call}}, nil), chunk: true})
		}
	}
	finish := "stop"
	if len(s.Response.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	return append(evs, event{data: chunk(map[string]any{}, finish), final: true}, event{data: "[DONE]", final: true})
}

// anthropicEvents is a message as the Messages API streams it:
// message_start, a text block (one text_delta per piece) when there is
// text, a tool_use block per call (one input_json_delta per piece),
// message_delta with the stop_reason, and message_stop.
func anthropicEvents(s fakes.Stream, id string) events {
	resp := s.Response
	evs := events{{name: "message_start", data: map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": resp.Usage.InputTokens, "output_tokens": 0}}}}}
	block := func(start map[string]any, deltas []map[string]any) {
		i := evs.blocks()
		evs = append(evs, event{name: "content_block_start", data: map[string]any{"type": "content_block_start", "index": i, "content_block": start}})
		for _, d := range deltas {
			evs = append(evs, event{name: "content_block_delta", data: map[string]any{"type": "content_block_delta", "index": i, "delta": d}, chunk: true})
		}
		evs = append(evs, event{name: "content_block_stop", data: map[string]any{"type": "content_block_stop", "index": i}})
	}
	if len(s.Text) > 0 {
		var ds []map[string]any
		for _, p := range s.Text {
			ds = append(ds, map[string]any{"type": "text_delta", "text": p})
		}
		block(map[string]any{"type": "text", "text": ""}, ds)
	}
	for i, c := range resp.ToolCalls {
		var ds []map[string]any
		for _, p := range s.Args[i] {
			ds = append(ds, map[string]any{"type": "input_json_delta", "partial_json": p})
		}
		block(map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": map[string]any{}}, ds)
	}
	return append(evs,
		event{name: "message_delta", final: true, data: map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": anthropic.StopReason(resp), "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": resp.Usage.OutputTokens}}},
		event{name: "message_stop", final: true, data: map[string]any{"type": "message_stop"}})
}

// blocks counts the content blocks started in evs.
func (evs events) blocks() int {
	n := 0
	for _, ev := range evs {
		if ev.name == "content_block_start" {
			n++
		}
	}
	return n
}
