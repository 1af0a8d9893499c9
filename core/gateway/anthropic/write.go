package anthropic

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/jsonlex"
)

// StreamOf renders a message JSON (a Messages API response body) as the
// complete event stream the API would have sent for it: message_start
// (the message with empty content, null stop_reason and stop_sequence, and
// its usage), then per block content_block_start (text "", input {},
// thinking and signature "", or the whole redacted_thinking block), one
// content_block_delta with the whole text (text_delta, none for an empty
// text) or the whole input (input_json_delta, partial_json the compact
// input JSON), or for a thinking block one thinking_delta with its whole
// text and one signature_delta with its signature (each left out when
// empty), content_block_stop; then message_delta with
// stop_reason, stop_sequence and usage {output_tokens}; then message_stop.
// Each event is an "event:" line, a "data:" line and a blank line.
// [AssembleStream] of the result gives the message back, rendered as
// EncodeResponse renders; members of the message other than id, type,
// role, model, content, stop_reason, stop_sequence and usage are left out.
// The message is read as [DecodeResponse] reads it, with its errors.
func StreamOf(message []byte) ([]byte, error) {
	m, err := parseMessage(message, "message")
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(len(message) + 512)
	_ = writeEvents(&buf, m, streamShape{})
	return buf.Bytes(), nil
}

// WriteStream writes resp as a streamed Messages API answer, the way the
// API streams: message_start, a ping, the text split after each space into
// several text_delta events, each tool input split into two
// input_json_delta pieces (on a UTF-8 boundary), message_delta and
// message_stop. The message is the one [EncodeResponse] renders. When w
// has a Flush method (an http.ResponseWriter), it is called after each
// event. It is meant for scripted upstreams in tests.
func WriteStream(w io.Writer, resp core.Response, id, model string) error {
	return writeEvents(w, fromResponse(resp, id, model), streamShape{ping: true, split: true})
}

// streamShape says how writeEvents cuts a message into events.
type streamShape struct {
	ping  bool // a ping after message_start
	split bool // text after each space, inputs in two halves
}

func (s streamShape) text(t string) []string {
	if t == "" {
		return nil
	}
	if !s.split {
		return []string{t}
	}
	parts := strings.SplitAfter(t, " ")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

func (s streamShape) input(in []byte) []string {
	if !s.split || len(in) < 2 {
		return []string{string(in)}
	}
	half := len(in) / 2
	for half > 0 && !utf8.RuneStart(in[half]) {
		half--
	}
	return []string{string(in[:half]), string(in[half:])}
}

// writeEvents writes m as an event stream cut as shape says.
func writeEvents(w io.Writer, m message, shape streamShape) error {
	flusher, _ := w.(interface{ Flush() })
	var b []byte
	emit := func(name string, data []byte) error {
		b = append(b[:0], "event: "...)
		b = append(b, name...)
		b = append(b, "\ndata: "...)
		b = append(b, data...)
		b = append(b, "\n\n"...)
		_, err := w.Write(b)
		if err == nil && flusher != nil {
			flusher.Flush()
		}
		return err
	}
	head := m
	head.content, head.stopReason, head.stopSequence = nil, nil, nil
	if err := emit("message_start", append([]byte(`{"type":"message_start","message":`), append(head.marshal(), '}')...)); err != nil {
		return err
	}
	if shape.ping {
		if err := emit("ping", []byte(`{"type":"ping"}`)); err != nil {
			return err
		}
	}
	for i, c := range m.content {
		if err := writeBlock(emit, i, c, shape); err != nil {
			return err
		}
	}
	d := []byte(`{"type":"message_delta","delta":{"stop_reason":`)
	d = appendOptString(d, m.stopReason)
	d = append(d, `,"stop_sequence":`...)
	d = appendOptString(d, m.stopSequence)
	d = append(d, `},"usage":{"output_tokens":`...)
	d = strconv.AppendInt(d, int64(max(tokens(m.usage, "output_tokens"), 0)), 10)
	if err := emit("message_delta", append(d, "}}"...)); err != nil {
		return err
	}
	return emit("message_stop", []byte(`{"type":"message_stop"}`))
}

// writeBlock writes the start, deltas and stop events of block i.
func writeBlock(emit func(string, []byte) error, i int, c block, shape streamShape) error {
	idx := strconv.Itoa(i)
	start := []byte(`{"type":"content_block_start","index":` + idx + `,"content_block":`)
	if err := emit("content_block_start", append(c.appendJSON(start, true), '}')); err != nil {
		return err
	}
	for _, delta := range shape.deltas(c) {
		d := append([]byte(`{"type":"content_block_delta","index":`+idx+`,"delta":`), delta...)
		if err := emit("content_block_delta", append(d, '}')); err != nil {
			return err
		}
	}
	return emit("content_block_stop", []byte(`{"type":"content_block_stop","index":`+idx+`}`))
}

// deltas returns the deltas of block c, each a JSON object, cut as shape
// says: text_delta pieces of a text, input_json_delta pieces of a tool
// input, or the deltas of a thinking block.
func (s streamShape) deltas(c block) [][]byte {
	var parts []string
	kind, key := "text_delta", "text"
	switch c.typ {
	case "text":
		parts = s.text(c.text)
	case "tool_use":
		parts = s.input(c.input)
		kind, key = "input_json_delta", "partial_json"
	default:
		return c.thinkingDeltas()
	}
	out := make([][]byte, 0, len(parts))
	for _, part := range parts {
		d := jsonlex.Append([]byte(`{"type":"`+kind+`","`+key+`":`), part)
		out = append(out, append(d, '}'))
	}
	return out
}
