package proxy

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

// TestAppendEventLongLine: a line as long as the reader's buffer comes in
// two pieces, the second only its "\n"; that piece is not a blank line, so
// the event goes on to the blank line that ends it. The first round's own
// reader had taken it for one and cut the event short.
func TestAppendEventLongLine(t *testing.T) {
	stream := "data: 0123456789\n\ndata: {}\n\n" // the first line is 16 bytes, bufio's smallest buffer
	rd := bufio.NewReaderSize(strings.NewReader(stream), 16)
	var raw bytes.Buffer
	for _, want := range []string{"data: 0123456789\n\n", "data: {}\n\n"} {
		ev, err := appendEvent(&raw, rd)
		if err != nil || string(ev) != want {
			t.Fatalf("appendEvent = %q, %v; want %q", ev, err, want)
		}
	}
	if raw.String() != stream {
		t.Fatalf("raw holds %q, want the whole stream", raw.String())
	}
}
