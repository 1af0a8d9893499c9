package anthropic

import (
	"bytes"
	"errors"
)

// event is one dispatched server-sent event.
type event struct {
	name string // the event field, "" when the event had none
	// data is the data lines joined by "\n": a view of the stream when the
	// event has one data line (the API's case), else a buffer reused for
	// the next event.
	data  []byte
	lines int // data lines so far
	buf   []byte
	raw   []byte
	start int // offset in raw of the event's first line
}

// line returns the line at i (without its end) and the offset after its
// end; ok is false when the line is not ended before the end of raw.
func line(raw []byte, i int) (text []byte, next int, ok bool) {
	j := i
	for j < len(raw) && raw[j] != '\n' && raw[j] != '\r' {
		j++
	}
	if j == len(raw) {
		return nil, j, false
	}
	next = j + 1
	if raw[j] == '\r' && next < len(raw) && raw[next] == '\n' {
		next++
	}
	return raw[i:j], next, true
}

// splitField splits a line into its field name and value, and returns the
// offset of the value in the line.
func splitField(text []byte) (name, value []byte, at int) {
	c := bytes.IndexByte(text, ':')
	if c < 0 {
		return text, nil, len(text)
	}
	name, value, at = text[:c], text[c+1:], c+1
	if len(value) > 0 && value[0] == ' ' {
		value, at = value[1:], at+1
	}
	return name, value, at
}

// rawOffset maps an offset in e.data to the offset in the stream, by
// reading the event's lines again (only on an error).
func (e *event) rawOffset(off int) int {
	pos := 0 // offset in data of the current data line
	for i := e.start; i < len(e.raw); {
		text, next, ok := line(e.raw, i)
		if !ok || len(text) == 0 {
			break
		}
		if name, value, at := splitField(text); text[0] != ':' && string(name) == "data" {
			if off <= pos+len(value) {
				return i + at + off - pos
			}
			pos += len(value) + 1
		}
		i = next
	}
	return e.start
}

// scanEvents parses raw as a server-sent event stream (WHATWG HTML, "Server-
// sent events"): lines end at "\n", "\r\n" or "\r"; a leading BOM is
// dropped; "field: value" lines with one optional space after the colon; a
// line starting with ":" is a comment; a blank line dispatches the event
// when it has data (its data lines joined by "\n"); "id", "retry" and
// unknown fields are ignored; an event not ended by a blank line when the
// input ends is discarded. Each dispatched event goes to each; an error
// from each stops the scan and is returned with its offset mapped to raw.
// The scan keeps nothing of a dispatched event.
func scanEvents(raw []byte, each func(e *event) error) error {
	i := 0
	if bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	e := event{raw: raw, start: -1}
	for i < len(raw) {
		text, next, ok := line(raw, i)
		if !ok {
			break // an unterminated last line: the input was cut
		}
		switch {
		case len(text) == 0:
			if e.lines > 0 {
				if err := each(&e); err != nil {
					return mapOffset(err, &e)
				}
			}
			e.name, e.data, e.lines, e.buf, e.start = "", nil, 0, e.buf[:0], -1
		case text[0] == ':':
		default:
			if e.start < 0 {
				e.start = i
			}
			name, value, _ := splitField(text)
			switch string(name) {
			case "event":
				e.name = eventName(value)
			case "data":
				e.addData(value)
			}
		}
		i = next
	}
	return nil
}

// addData adds a data line to the event.
func (e *event) addData(value []byte) {
	e.lines++
	switch e.lines {
	case 1:
		e.data = value
		return
	case 2:
		e.buf = append(e.buf[:0], e.data...)
	}
	e.buf = append(e.buf, '\n')
	e.buf = append(e.buf, value...)
	e.data = e.buf
}

// mapOffset turns the data offset of err into a stream offset.
func mapOffset(err error, e *event) error {
	var pe *Error
	if errors.As(err, &pe) {
		pe.Offset = e.rawOffset(pe.Offset)
	}
	return err
}

// eventNames are the names of the API's events, kept so that reading one
// allocates nothing.
var eventNames = []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop",
	"message_delta", "message_stop", "ping", "error"}

func eventName(value []byte) string {
	for _, name := range eventNames {
		if string(value) == name {
			return name
		}
	}
	return string(value)
}
