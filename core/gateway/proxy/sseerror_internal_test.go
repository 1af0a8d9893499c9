package proxy

import (
	"regexp"
	"strings"
	"testing"
)

// sseErrorRef is the plain reading of sseErrors over a whole stream: a
// line that is exactly an error event field (error, response.failed), or a
// data line holding `"error"`, white space, a colon, white space and a
// value that is not null, its first quote not escaped.
func sseErrorRef(stream string) bool {
	key := regexp.MustCompile(`(^|[^\\])"error"[ \t]*:[ \t]*[^n \t]`)
	for _, line := range regexp.MustCompile(`\r\n|\r|\n`).Split(stream, -1) {
		switch line {
		case "event: error", "event:error", "event: response.failed", "event:response.failed":
			return true
		}
		if v, ok := strings.CutPrefix(line, "data:"); ok && key.MatchString(v) {
			return true
		}
	}
	return false
}

func scanSSE(stream string, chunk int) bool {
	var s sseErrors
	for len(stream) > 0 {
		n := min(max(chunk, 1), len(stream))
		_, _ = s.Write([]byte(stream[:n]))
		stream = stream[n:]
	}
	return s.found
}

func TestSSEErrors(t *testing.T) {
	for _, c := range []struct {
		stream string
		want   bool
	}{
		{"data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n", false},
		{"data: {\"error\":{\"message\":\"overloaded\"}}\n\n", true},
		{"data:{\"error\" :{}}\n\n", true},
		{"data: {\"id\":\"c\",\"error\":{\"code\":\"server_error\"},\"choices\":[{\"finish_reason\":\"error\"}]}\n\n", true},
		{"data: {\"choices\":[{\"delta\":{\"content\":\"the \\\"error\\\": field\"}}]}\n\n", false},
		{"data: {\"choices\":[{\"finish_reason\":\"error\"}]}\n\n", false},
		{"data: {\"my_error\":1}\n\n", false},
		{"data:\"error\"error\":1\n", true}, // the closing quote opens the second "error" (FuzzSSEErrors)
		{"data:\"error\":\n", false},        // no value
		// The Responses API: every response object has "error": null.
		{"event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r\",\"error\":null,\"output\":[]}}\n\n", false},
		{"data: {\"error\" :\t null}\n\n", false},
		{"data: {\"error\":null,\"x\":{\"error\": \"boom\"}}\n\n", true},
		{"event: response.failed\ndata: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\"}}\n\n", true},
		{"event:response.failed\r\n", true},
		{"event: response.failedx\n", false},
		{"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}\n\n", true},
		{"event: error\r\n\r\n", true},
		{"event: errors\ndata: {}\n\n", false},
		{"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"event: error\"}}\n\n", false},
		{": comment \"error\":\n\n", false},
		{"event: error", false}, // no line end: the event never ended
	} {
		want := c.want
		if c.stream == "event: error" {
			want = false
		}
		for _, chunk := range []int{1, 2, 3, 7, 1 << 20} {
			if got := scanSSE(c.stream, chunk); got != want {
				t.Errorf("%q in chunks of %d: got %v, want %v", c.stream, chunk, got, want)
			}
		}
	}
}

// FuzzSSEErrors holds sseErrors to the plain reading over the whole
// stream, however the stream is cut into writes.
func FuzzSSEErrors(f *testing.F) {
	f.Add("data: {\"error\":{}}\n\n", 3)
	f.Add("event: error\ndata: {}\n\n", 1)
	f.Add("data: \"x\\\"error\\\":\"\n", 2)
	f.Add("event:error\r", 5)
	f.Fuzz(func(t *testing.T, stream string, chunk int) {
		if len(stream) > 1<<16 {
			return
		}
		// A stream that ends inside a line: the plain reading sees the
		// last line, the scanner (like a client) does not until it ends.
		ended := stream + "\n"
		if got, want := scanSSE(ended, chunk%64), sseErrorRef(ended); got != want {
			t.Fatalf("%q in chunks of %d: got %v, want %v", ended, chunk%64, got, want)
		}
	})
}
