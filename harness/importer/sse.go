package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
)

// A log's response may be the text of the event stream the API sent, in a
// string, as a proxy or an agent that streams (Claude Code always does)
// captures it: Anthropic's event:/data: lines from message_start to
// message_stop, or OpenAI's data: chunks and [DONE]. The stream is
// assembled into the message the API would have sent without streaming,
// by the gateway's own assemblers (anthropic.AssembleStream and
// openai.Wire.Assemble: linear in the stream's length, a stream cut short
// is an error), and read as that message. An error in the stream is named
// at its place in the log, through the string's escapes; an error in the
// assembled message at the string, saying so.

// streamAt is the response at offset at of the trace, a JSON string that
// holds an event stream: its decoded text and the raw bytes between its
// quotes.
type streamAt struct {
	at   int
	text []byte
	lit  []byte
}

// streamed returns the offset of the response of the call object at obj
// (that ends at end) when it is a string, an event stream; else -1.
func (t *parsedTrace) streamed(obj, end int) int {
	at := child(t.data[obj:end], "response")
	if at < 0 || obj+at >= end || t.data[obj+at] != '"' {
		return -1
	}
	return obj + at
}

// stringAt returns the JSON string at offset at of t.data (its syntax
// checked) as a streamAt.
func (t *parsedTrace) streamAt(at int) streamAt {
	raw := t.valueAt(at)
	var s string
	_ = json.Unmarshal(raw, &s)
	return streamAt{at: at, text: []byte(s), lit: raw[1 : len(raw)-1]}
}

// pos returns the offset in the trace of decoded offset d of the stream.
func (s streamAt) pos(d int) int { return s.at + 1 + rawOffset(s.lit, d) }

// anthStream assembles the Anthropic event stream at at and reads its
// message as anthReply reads a response.
func (t *parsedTrace) anthStream(at int) (traceMessage, error) {
	s := t.streamAt(at)
	msg, err := anthropic.AssembleStream(s.text)
	if err != nil {
		var ae *anthropic.Error
		off := len(s.text)
		if errors.As(err, &ae) {
			off = ae.Offset
		}
		return traceMessage{}, t.errorf(s.pos(off), "response: the event stream: %v", err)
	}
	sub := t.assembled(msg, at)
	reply, err := sub.anthReply(0)
	return detach(reply, at), err
}

// chatStream assembles the OpenAI chat completions stream at at and reads
// its choices[0].message as a reply.
func (t *parsedTrace) chatStream(at int) (traceMessage, error) {
	s := t.streamAt(at)
	if line, off, ok := badChunk(s.text); !ok {
		_, err := openai.Wire{}.Assemble(s.text)
		return traceMessage{}, t.errorf(s.pos(off), "response: the event stream, line %d: %v", line, err)
	}
	body, err := openai.Wire{}.Assemble(s.text)
	if err != nil {
		return traceMessage{}, t.errorf(at, "response: the event stream: %v", err)
	}
	sub := t.assembled(body, at)
	choices := child(body, "choices")
	first := child(body[choices:], 0)
	if choices < 0 || first < 0 {
		return traceMessage{}, t.errorf(at, "response: the event stream: no choice")
	}
	msg := choices + first + child(body[choices+first:], "message")
	sub.msgs = []traceMessage{{raw: sub.valueAt(msg), at: msg}}
	if err := sub.parseMessage(0); err != nil {
		return traceMessage{}, err
	}
	return detach(sub.msgs[0], at), nil
}

// badChunk finds the first data line of an OpenAI stream that is neither
// [DONE] nor JSON: its 1-based line number and the offset of its data;
// ok when there is none.
func badChunk(text []byte) (line, off int, ok bool) {
	for start, n := 0, 1; start < len(text); n++ {
		end := len(text)
		if i := bytes.IndexByte(text[start:], '\n'); i >= 0 {
			end = start + i
		}
		l := bytes.TrimRight(text[start:end], "\r")
		if data, found := bytes.CutPrefix(l, []byte("data:")); found {
			data = bytes.TrimSpace(data)
			if len(data) > 0 && string(data) != "[DONE]" && !json.Valid(data) {
				return n, start + len("data:") + bytes.Index(l[len("data:"):], data[:1]), false
			}
		}
		start = end + 1
	}
	return 0, 0, true
}

// assembled is the trace of an assembled message: its errors are named at
// the stream's string at offset at of t, saying so.
func (t *parsedTrace) assembled(msg []byte, at int) *parsedTrace {
	return &parsedTrace{name: t.name, data: msg, outer: t, outerAt: at}
}

// detach places a reply read from an assembled message at the stream's
// string at offset at of the trace: its positions in the assembled bytes
// mean nothing in the log.
func detach(m traceMessage, at int) traceMessage {
	m.raw, m.at, m.fields = nil, at, map[string]int{}
	return m
}

// outerError is an error of an assembled message, named at its stream.
func (t *parsedTrace) outerError(msg string) error {
	return t.outer.errorf(t.outerAt, "%s", fmt.Sprintf("response (assembled from its event stream): %s", msg))
}
