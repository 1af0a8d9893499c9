package gateway

import "bytes"

// sseErrors watches a server-sent event stream that is relayed without
// being parsed (streamThrough) for an error event, so that the request is
// counted as upstream_error and not ok: an `event: error` line (the
// Anthropic Messages API's error event) or a `data:` line whose JSON has
// a member named "error" at any depth (an OpenAI-compatible server's
// mid-stream error chunk: `{"error": {...}}`, or a chunk that carries one
// beside its choices, as some routers send). An "error" in a string
// cannot match: inside a JSON string its quotes are escaped. It reads
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
	data    bool // in a data line's value: matching `"error"\s*:`
	match   int  // bytes of `"error"` matched so far, or len+1 after it (waiting for ':')
	prev    byte // the byte before the current one in the data line
}

// errKey is what a member named error starts with, as written in JSON.
const errKey = `"error"`

// fieldCap is the most bytes of a line kept to read its field: enough for
// "event: error" and "data:".
const fieldCap = len("event: error")

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
		case !bytes.HasPrefix([]byte("event: error"), f) && !bytes.HasPrefix([]byte("event:error"), f) &&
			!bytes.HasPrefix([]byte("data:"), f):
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
	case s.match == len(errKey)+1: // after `"error"`: white space, then ':'
		switch c {
		case ' ', '\t':
			return
		case ':':
			s.found = true
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

// endLine ends the current line: a field line of exactly "event: error"
// (or "event:error") is an error event.
func (s *sseErrors) endLine() {
	if s.inField {
		if f := string(s.field[:s.n]); f == "event: error" || f == "event:error" {
			s.found = true
		}
	}
	s.midLine, s.inField, s.data = false, false, false
}
