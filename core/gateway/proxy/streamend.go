package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolout/toolout/core/jsonspan"
)

// streamEnd reads a round's events as they come for what makes a stream
// whole, so that a round with no tool call (every event relayed as it
// came) needs no assembly at its end, where it would delay the end of the
// client's response: an event that ends the stream (an OpenAI "[DONE]" or
// a finish_reason that is not null, an Anthropic message_stop, a
// Responses API response.completed, incomplete or failed), and a data
// line that is not JSON. Names in quotes only occur as JSON keys and
// values: inside a JSON string the quotes are escaped.
type streamEnd struct {
	events int
	ended  bool
	bad    error // the first data line that is not JSON
}

// errNotWhole is a round whose events did not end it, or held data that
// is not JSON.
var errNotWhole = errors.New("the stream ended before its terminal event, or holds data that is not JSON")

// watch reads one event.
func (e *streamEnd) watch(ev []byte) {
	e.events++
	data, at := eventData(ev)
	if at < 0 || e.bad != nil {
		return
	}
	data = bytes.TrimSpace(data)
	switch {
	case bytes.Equal(data, []byte("[DONE]")):
		e.ended = true
	case !json.Valid(data):
		e.bad = fmt.Errorf("event %d: data is not JSON: %s", e.events, logLine(data))
	case !e.ended:
		e.ended = endsStream(data)
	}
}

// endsStream says whether an event's JSON data ends its stream.
func endsStream(data []byte) bool {
	key := []byte(`"finish_reason"`)
	for rest := data; ; {
		i := bytes.Index(rest, key)
		if i < 0 {
			break
		}
		// Every choice's: the first may be null while another's ends it.
		if rest = rest[i+len(key):]; valueIsString(rest) {
			return true
		}
	}
	for _, t := range []string{`"message_stop"`, `"response.completed"`, `"response.incomplete"`, `"response.failed"`} {
		if bytes.Contains(data, []byte(t)) {
			root, err := jsonspan.Parse(data)
			typ := root.Get("type").Text()
			return err == nil && (typ == "message_stop" || responsesEnd[typ])
		}
	}
	return false
}

// valueIsString says whether rest, what follows a JSON key, is `: "…`.
func valueIsString(rest []byte) bool {
	rest = bytes.TrimLeft(rest, " \t\r\n")
	if len(rest) == 0 || rest[0] != ':' {
		return false
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	return len(rest) > 0 && rest[0] == '"'
}

// whole says whether the round came whole: every data line JSON, an
// event that ends the stream, and no error event in what was sent (errs)
// or kept quiet.
func (e *streamEnd) whole(errs *sseErrors, quiet []byte) bool {
	if e.bad != nil || !e.ended || errs.found {
		return false
	}
	var q sseErrors
	_, _ = q.Write(quiet)
	return !q.found
}
