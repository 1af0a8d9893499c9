package proxy

import (
	"bytes"
	"slices"
)

// sseErrors watches a server-sent event stream that is relayed without
// being parsed (what a live round sends the client) for an error event, so that the request is
// counted as upstream_error and not ok: an `event: error` line (the
// Anthropic Messages API's and the Responses API's error event), an
// `event: response.failed` line (a Responses API response that failed),
// or a `data:` line whose JSON has a member named "error" at any depth
// whose value is not null (an OpenAI-compatible server's mid-stream error
// chunk: `{"error": {...}}`, or a chunk that carries one beside its
// choices, as some routers send; every Responses API response object has
// `"error": null`, which is no error). An "error" in a string cannot
// match: inside a JSON string its quotes are escaped. It reads
// each byte once and keeps a few bytes of state, whatever the length of a
// line, so it adds nothing to the relay's bound.
//
// The zero value is ready to use.
type sseErrors struct {
	found bool
	// midLine: the next byte does not start a line; field[:n] holds the
	// start of the line (at most len("event: error") bytes).
	midLine bool
	field   [fieldCap]byte
	n       int
	inField bool // still reading the line's start into field
	data    bool // in a data line's value: matching `"error"\s*:\s*` and a value not null
	match   int  // bytes of `"error"` matched so far, len+1 after it (waiting for ':'), len+2 after the ':'
	prev    byte // the byte before the current one in the data line
}

// errKey is what a member named error starts with, as written in JSON.
const errKey = `"error"`

// errorEvents are the event field lines of an error event.
var errorEvents = []string{"event: error", "event:error", "event: response.failed", "event:response.failed"}

// fieldCap is the most bytes of a line kept to read its field: enough for
// the longest of errorEvents and "data:".
const fieldCap = len("event: response.failed")

// Write reads p, the next bytes of the stream; it never fails.
func (s *sseErrors) Write(p []byte) (int, error) {
	for _, c := range p {
		s.byte(c)
	}
	return len(p), nil
}

func (s *sseErrors) byte(c byte) {
	if c == '\n' || c == '\r' {
		s.endLine()
		return
	}
	if !s.midLine {
		s.midLine, s.inField, s.data, s.match, s.prev, s.n = true, true, false, 0, 0, 0
	}
	if s.inField {
		if s.n == fieldCap { // longer than "event: error"
			s.inField = false
			return
		}
		s.field[s.n] = c
		s.n++
		f := s.field[:s.n]
		switch {
		case string(f) == "data:":
			s.inField, s.data = false, true
		case !startsField(f):
			s.inField = false
		}
		return
	}
	if s.data && !s.found {
		s.dataByte(c)
	}
}

// dataByte advances the match of `"error"` followed by optional white
// space and a colon.
func (s *sseErrors) dataByte(c byte) {
	defer func() { s.prev = c }()
	switch {
	case s.match == len(errKey)+2: // after the ':': white space, then a value
		switch c {
		case ' ', '\t':
			return
		case 'n': // null
			s.match = 0
			return
		}
		s.found = true
		return
	case s.match == len(errKey)+1: // after `"error"`: white space, then ':'
		switch c {
		case ' ', '\t':
			return
		case ':':
			s.match++
			return
		}
		if s.prev == '"' && c == errKey[1] { // that closing quote opens another "error"
			s.match = 2
			return
		}
		s.match = 0
	case s.match > 0 && c == errKey[s.match]:
		s.match++
		if s.match == len(errKey) {
			s.match++
		}
		return
	}
	s.match = 0
	if c == '"' && s.prev != '\\' {
		s.match = 1
	}
}

// startsField reports whether f may start an error event line or "data:".
func startsField(f []byte) bool {
	if bytes.HasPrefix([]byte("data:"), f) {
		return true
	}
	for _, e := range errorEvents {
		if bytes.HasPrefix([]byte(e), f) {
			return true
		}
	}
	return false
}

// endLine ends the current line: a field line that is exactly one of
// errorEvents is an error event.
func (s *sseErrors) endLine() {
	if s.inField {
		if slices.Contains(errorEvents, string(s.field[:s.n])) {
			s.found = true
		}
	}
	s.midLine, s.inField, s.data = false, false, false
}
