package components

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/harness"
)

// A forwarded request whose body asks to stream goes through the gateway's
// HTTP proxy (core/gateway.Proxy: its streamThrough and streamOffered paths),
// in process: the client is an httptest recorder, and the upstream a
// RoundTripper that answers each round from the scripted LLM. A round that
// asks to stream is answered as server-sent events of the request's wire,
// one delta event per chunk of the step's respond.stream (fakes.Stream),
// with its error_after and disconnect_after faults; any other round with
// the whole JSON body. The request's outcome then holds what the client
// saw: the response is the client's stream, the error what an SDK reading
// it would report (an error status, or a stream its wire cannot assemble:
// cut, or ended by an error event), rounds the rounds header (a trailer on
// a stream), and stream the HTTP status, the proxy's outcome and the
// expansions' answers. The per-output decisions are in the log only (the
// proxy does not return them).

// gatewayStreamJSON is what a streamed request's client and the proxy saw.
type gatewayStreamJSON struct {
	Status     int      `json:"status"`
	Outcome    string   `json:"outcome"`
	Expansions []string `json:"expansions"`
}

// asksStream reports whether a client body asks for a stream.
func asksStream(wire gateway.Wire, body []byte) bool {
	c, err := wire.Read(body)
	return err == nil && c.Stream
}

// streamObserver records the proxy's outcome and expansions.
type streamObserver struct {
	gateway.NopObserver
	outcome    string
	expansions []string
}

func (o *streamObserver) Request(_, outcome string) { o.outcome = outcome }
func (o *streamObserver) Expansion(answer string)   { o.expansions = append(o.expansions, answer) }

// runGatewayStream sends one streaming client request through the proxy.
func runGatewayStream(env *harness.Env, g *gateway.Gateway, body []byte) gatewayRequestOutcome {
	up := &scriptedTransport{env: env, wire: g.Wire}
	p := gateway.NewProxy(g, &url.URL{Scheme: "http", Host: "upstream.invalid"}, &http.Client{Transport: up})
	obs := &streamObserver{}
	p.Logf, p.Observer = env.Logf, obs
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, g.Wire.Path(), bytes.NewReader(body)))
	ro := gatewayRequestOutcome{Results: []gatewayResultJSON{}, Expansions: []gateway.Expansion{}, response: rec.Body.String()}
	ro.Rounds, _ = strconv.Atoi(rec.Header().Get(gateway.RoundsHeader))
	ro.Stream = &gatewayStreamJSON{Status: rec.Code, Outcome: obs.outcome, Expansions: obs.expansions}
	if ro.Stream.Expansions == nil {
		ro.Stream.Expansions = []string{}
	}
	for _, b := range up.bodies {
		ro.allRounds = append(ro.allRounds, string(b))
	}
	ro.upstream = up.sent
	if len(up.bodies) > 0 {
		ro.forwarded = ro.allRounds[0]
	}
	switch {
	case rec.Code != http.StatusOK:
		ro.Error = fmt.Sprintf("status %d: %s", rec.Code, strings.TrimSpace(rec.Body.String()))
	case strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream"):
		msg, err := g.Wire.Assemble(rec.Body.Bytes())
		if err != nil {
			ro.Error = err.Error()
		}
		ro.assembled = string(msg)
	}
	return ro
}

// scriptedTransport is the model behind the proxy: every round's body is
// kept, decoded as the wire's provider would, and answered by the LLM.
type scriptedTransport struct {
	env    *harness.Env
	wire   gateway.Wire
	bodies [][]byte
	sent   []string // every round's answer as sent, for the transcript
}

func (t *scriptedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	t.bodies = append(t.bodies, body)
	round, _ := strconv.Atoi(r.Header.Get(gateway.RoundHeader))
	tag := core.Tag{Site: core.SiteGatewayUpstream, Turn: round}
	decode, id := openai.DecodeRequest, fmt.Sprintf("cmpl-%d", round)
	if t.wire.Name() == "anthropic" {
		decode, id = anthropic.DecodeRequest, fmt.Sprintf("msg_%d", round)
	}
	req, stream, err := decode(body, tag)
	if err != nil {
		return t.answer(http.StatusBadRequest, "application/json", t.wire.ErrorBody(http.StatusBadRequest, err.Error()), nil), nil
	}
	s, err := t.env.LLM.CompleteStream(r.Context(), req)
	switch {
	case err != nil:
		code := http.StatusInternalServerError
		switch {
		case errors.Is(err, core.ErrRateLimited):
			code = http.StatusTooManyRequests
		case errors.Is(err, context.DeadlineExceeded):
			code = http.StatusGatewayTimeout
		}
		return t.answer(code, "application/json", t.wire.ErrorBody(code, err.Error()), nil), nil
	case !stream && t.wire.Name() == "anthropic":
		return t.answer(http.StatusOK, "application/json", anthropic.EncodeResponse(s.Response, id, "scripted"), nil), nil
	case !stream:
		return t.answer(http.StatusOK, "application/json", openai.EncodeResponse(s.Response, id, "scripted"), nil), nil
	}
	events := openaiEvents(s, id)
	if t.wire.Name() == "anthropic" {
		events = anthropicEvents(s, id)
	}
	var cutErr error
	if s.DisconnectAfter >= 0 {
		cutErr = io.ErrUnexpectedEOF
	}
	sse := events.render(s, t.wire.Name())
	t.sent = append(t.sent, string(sse))
	return t.answer(http.StatusOK, "text/event-stream", sse, cutErr), nil
}

// answer is a response whose body reads b, then ends with cut (io.EOF
// when nil), as a connection dropped mid-stream does.
func (t *scriptedTransport) answer(code int, contentType string, b []byte, cut error) *http.Response {
	var rd io.Reader = bytes.NewReader(b)
	if cut != nil {
		rd = io.MultiReader(rd, errReader{cut})
	}
	return &http.Response{StatusCode: code, Status: http.StatusText(code), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {contentType}}, Body: io.NopCloser(rd), ContentLength: -1}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// sseEvent is one server-sent event; chunk marks the content deltas,
// final the events after them (the finish chunk, message_delta).
type sseEvent struct {
	name  string // "" for OpenAI's data-only events
	data  any    // a string as is, anything else as JSON
	chunk bool
	final bool
}

type sseEvents []sseEvent

// cut is where a stream with a fault after k chunks stops: right after its
// k-th chunk, or for k = 0 right before its first chunk (before its final
// events when it has none).
func (evs sseEvents) cut(k int) int {
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

// render writes the events up to the stream's fault, where an error event
// ends it (error_after) or nothing more comes (disconnect_after).
func (evs sseEvents) render(s fakes.Stream, wire string) []byte {
	end := len(evs)
	if k := max(s.ErrorAfter, s.DisconnectAfter); k >= 0 {
		end = evs.cut(k)
	}
	out := evs[:end]
	if s.ErrorAfter >= 0 {
		msg := fmt.Sprintf("scripted stream error after %d chunk(s)", s.ErrorAfter)
		if wire == "anthropic" {
			out = append(out[:end:end], sseEvent{name: "error", data: map[string]any{"type": "error", "error": map[string]any{"type": "api_error", "message": msg}}})
		} else {
			out = append(out[:end:end], sseEvent{data: map[string]any{"error": map[string]any{"message": msg, "type": "server_error", "code": nil}}})
		}
	}
	var b bytes.Buffer
	for _, ev := range out {
		if ev.name != "" {
			fmt.Fprintf(&b, "event: %s\n", ev.name)
		}
		data, ok := ev.data.(string)
		if !ok {
			js, _ := json.Marshal(ev.data)
			data = string(js)
		}
		fmt.Fprintf(&b, "data: %s\n\n", data)
	}
	return b.Bytes()
}

// openaiEvents is a chat completion as the API streams it: a head chunk
// with the role, one chunk per text piece (content) and per argument piece
// (tool_calls; a call's first piece brings its id and name), a chunk with
// the finish_reason, and [DONE].
func openaiEvents(s fakes.Stream, id string) sseEvents {
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "model": "scripted",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	evs := sseEvents{{data: chunk(map[string]any{"role": "assistant", "content": ""}, nil)}}
	for _, p := range s.Text {
		evs = append(evs, sseEvent{data: chunk(map[string]any{"content": p}, nil), chunk: true})
	}
	for i, c := range s.Response.ToolCalls {
		for j, p := range s.Args[i] {
			call := map[string]any{"index": i, "function": map[string]any{"arguments": p}}
			if j == 0 {
				call["id"], call["type"] = c.ID, "function"
				call["function"] = map[string]any{"name": c.Name, "arguments": p}
			}
			evs = append(evs, sseEvent{data: chunk(map[string]any{"tool_calls": []any{call}}, nil), chunk: true})
		}
	}
	finish := "stop"
	if len(s.Response.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	return append(evs, sseEvent{data: chunk(map[string]any{}, finish), final: true}, sseEvent{data: "[DONE]", final: true})
}

// anthropicEvents is a message as the Messages API streams it:
// message_start, a text block (one text_delta per piece) when there is
// text, a tool_use block per call (one input_json_delta per piece),
// message_delta with the stop_reason, and message_stop.
func anthropicEvents(s fakes.Stream, id string) sseEvents {
	resp := s.Response
	evs := sseEvents{{name: "message_start", data: map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": "scripted", "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": resp.Usage.InputTokens, "output_tokens": 0}}}}}
	block := func(start map[string]any, deltas []map[string]any) {
		i := blocks(evs)
		evs = append(evs, sseEvent{name: "content_block_start", data: map[string]any{"type": "content_block_start", "index": i, "content_block": start}})
		for _, d := range deltas {
			evs = append(evs, sseEvent{name: "content_block_delta", data: map[string]any{"type": "content_block_delta", "index": i, "delta": d}, chunk: true})
		}
		evs = append(evs, sseEvent{name: "content_block_stop", data: map[string]any{"type": "content_block_stop", "index": i}})
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
		sseEvent{name: "message_delta", final: true, data: map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": anthropic.StopReason(resp), "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": resp.Usage.OutputTokens}}},
		sseEvent{name: "message_stop", final: true, data: map[string]any{"type": "message_stop"}})
}

// blocks counts the content blocks started in evs.
func blocks(evs sseEvents) int {
	n := 0
	for _, ev := range evs {
		if ev.name == "content_block_start" {
			n++
		}
	}
	return n
}
