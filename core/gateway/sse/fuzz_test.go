package sse_test

import (
	"bytes"
	"testing"

	"github.com/toolout/toolout/core/gateway/sse"
)

// FuzzScan checks, on any bytes, that Scan ends without an error of its
// own, that every byte of an event's data that is not a line join stands at
// the offset Offset gives, that a single-line event's data is a view of the
// stream, and that no event is dispatched from past the input's last line
// end.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"event: a\ndata: {}\n\n",
		"\xef\xbb\xbfdata: ab\r\ndata:cd\rdata: e\n\n",
		"data: cut",
		": comment\n\nid: 1\nretry: 2\ndata\n\n",
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
		"data: x\r\r\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		last := bytes.LastIndexAny(raw, "\r\n")
		err := sse.Scan(raw, []string{"a"}, func(e *sse.Event) error {
			for k, c := range e.Data {
				if c == '\n' && !e.InStream() {
					continue
				}
				at := e.Offset(k)
				if at < 0 || at > last || raw[at] != c {
					t.Fatalf("data byte %d (%q) maps to offset %d of %q", k, c, at, raw)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("Scan: %v", err)
		}
	})
}
