// Package sse scans a server-sent event stream as the wire packages
// (core/gateway/anthropic, core/gateway/responses) read a model's streamed
// answer: one pass over the bytes, nothing kept of an event once it is
// handed on, and every offset in an event's data mapped back to the stream,
// so that a problem found in an event's JSON is reported where it stands
// in the stream.
//
// The grammar is WHATWG HTML's "Server-sent events": lines end at "\n",
// "\r\n" or "\r"; a leading BOM is dropped; "field: value" lines with one
// optional space after the colon; a line starting with ":" is a comment; a
// blank line dispatches the event when it has data (its data lines joined
// by "\n"); "id", "retry" and unknown fields are ignored. Where the
// standard would dispatch at the end of the input, this package does not:
// an event not ended by a blank line, or a last line with no line end,
// was cut, and is discarded, so that a caller that needs its terminal
// event reports the stream as cut.
//
// Hand-written rather than taken from a library: the SSE clients in Go's
// ecosystem read from an io.Reader with bufio and allocate per event,
// while the gateway holds the whole stream and needs an event's data as a
// view of it (one data line, the APIs' case, allocates nothing) and the
// offset mapping above.
package sse

import "bytes"

// Event is one dispatched event. It is valid only inside the callback
// that gets it: the scan reuses it for the next event.
type Event struct {
	// Name is the event field, "" when the event had none.
	Name string
	// Data is the data lines joined by "\n": a view of the stream when the
	// event has one data line, else a buffer reused for the next event.
	Data []byte
	// segs maps offsets in Data to offsets in the stream: data line k
	// starts at segs[k].data in Data and at segs[k].raw in the stream.
	segs []seg
	buf  []byte
}

type seg struct{ data, raw int }

// Offset maps an offset in e.Data to the offset in the stream.
func (e *Event) Offset(off int) int {
	if len(e.segs) == 0 {
		return off
	}
	k := 0
	for k+1 < len(e.segs) && e.segs[k+1].data <= off {
		k++
	}
	return e.segs[k].raw + off - e.segs[k].data
}

// InStream reports whether e.Data is a view of the stream (the event has
// one data line), valid after the callback returns; else it is a buffer
// the scan reuses for the next event.
func (e *Event) InStream() bool { return len(e.segs) == 1 }

// Scan calls each with every event of raw, in order, and stops at the
// first error each returns, which it returns. names are the event names
// the caller expects: an event named one of them gets that string, so that
// reading it allocates nothing.
func Scan(raw []byte, names []string, each func(e *Event) error) error {
	i := 0
	if bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	var e Event
	for i < len(raw) {
		text, next, ok := line(raw, i)
		if !ok {
			break // an unterminated last line: the input was cut
		}
		switch {
		case len(text) == 0:
			if len(e.segs) > 0 {
				if err := each(&e); err != nil {
					return err
				}
			}
			e.Name, e.Data, e.segs, e.buf = "", nil, e.segs[:0], e.buf[:0]
		case text[0] == ':':
		default:
			name, value, at := field(text)
			switch string(name) {
			case "event":
				e.Name = intern(value, names)
			case "data":
				e.add(value, i+at)
			}
		}
		i = next
	}
	return nil
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

// field splits a line into its field name and value, and returns the
// offset of the value in the line.
func field(text []byte) (name, value []byte, at int) {
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

// add adds a data line that starts at offset at of the stream.
func (e *Event) add(value []byte, at int) {
	switch len(e.segs) {
	case 0:
		e.Data = value
		e.segs = append(e.segs, seg{0, at})
		return
	case 1:
		e.buf = append(e.buf[:0], e.Data...)
	}
	e.buf = append(e.buf, '\n')
	e.segs = append(e.segs, seg{len(e.buf), at})
	e.buf = append(e.buf, value...)
	e.Data = e.buf
}

func intern(value []byte, names []string) string {
	for _, name := range names {
		if string(value) == name {
			return name
		}
	}
	return string(value)
}
