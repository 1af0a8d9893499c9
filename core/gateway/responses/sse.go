package responses

import (
	"bytes"
)

// event is one dispatched server-sent event.
type event struct {
	name string // the event field, "" when the event had none
	// data is the data lines joined by "\n": a view of the stream when the
	// event has one data line (the API's case), else a buffer reused for
	// the next event.
	data []byte
	// segs maps offsets in data to offsets in the stream: data line k
	// starts at segs[k].data in data and at segs[k].raw in the stream.
	segs []seg
	buf  []byte
}

type seg struct{ data, raw int }

// rawOffset maps an offset in e.data to the offset in the stream.
func (e *event) rawOffset(off int) int {
	k := 0
	for k+1 < len(e.segs) && e.segs[k+1].data <= off {
		k++
	}
	return e.segs[k].raw + off - e.segs[k].data
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

// scanEvents parses raw as a server-sent event stream (WHATWG HTML,
// "Server-sent events"): lines end at "\n", "\r\n" or "\r"; a leading BOM
// is dropped; "field: value" lines with one optional space after the
// colon; a line starting with ":" is a comment; a blank line dispatches
// the event when it has data (its data lines joined by "\n"); "id",
// "retry" and unknown fields are ignored; an event not ended by a blank
// line when the input ends is discarded. Each dispatched event goes to
// each; an error from each stops the scan. It keeps nothing of a
// dispatched event.
func scanEvents(raw []byte, each func(e *event) error) error {
	i := 0
	if bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	var e event
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
			e.name, e.data, e.segs, e.buf = "", nil, e.segs[:0], e.buf[:0]
		case text[0] == ':':
		default:
			c := bytes.IndexByte(text, ':')
			name, value, at := text, []byte(nil), len(text)
			if c >= 0 {
				name, value, at = text[:c], text[c+1:], c+1
				if len(value) > 0 && value[0] == ' ' {
					value, at = value[1:], at+1
				}
			}
			switch string(name) {
			case "event":
				e.name = string(value)
			case "data":
				e.add(value, i+at)
			}
		}
		i = next
	}
	return nil
}

// add adds a data line that starts at offset at of the stream.
func (e *event) add(value []byte, at int) {
	switch len(e.segs) {
	case 0:
		e.data = value
		e.segs = append(e.segs, seg{0, at})
		return
	case 1:
		e.buf = append(e.buf[:0], e.data...)
	}
	e.buf = append(e.buf, '\n')
	e.segs = append(e.segs, seg{len(e.buf), at})
	e.buf = append(e.buf, value...)
	e.data = e.buf
}
