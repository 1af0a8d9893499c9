package jsonaware

import (
	"testing"
)

// FuzzDefaultMatcher holds the hand-written matcher that Shorten runs for
// DefaultErrorPattern to the regexp itself, on any text.
func FuzzDefaultMatcher(f *testing.F) {
	for _, s := range []string{
		"", "ok", "ERROR: x", "TypeError", "NullPointerException", "request timed out", "TIMED OUT", "timedout",
		"HTTP/1.1 503 Service Unavailable", "http/2 500", "status: 502", "STATUS=504", "status 5000", "status 200",
		"x5030", "tracebac\u212a", "ſtatus 503", "Erro", "aborted", "permission denied", "connection refused", "fai",
		"status status 503", "http/ 503", "HTTP/1.1503", "status    503", "status     503", "HTTP/1.1.1.1.1 503",
		"HTTP/1.1.1.1.1.1 503", "xstatus 503", "_status 503", "status 5031", "status 503_", "status 503.", "(status=503)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := (defaultMatcher{}).Match([]byte(s)), DefaultErrorPattern.MatchString(s); got != want {
			t.Fatalf("%q: matcher %v, DefaultErrorPattern %v", s, got, want)
		}
	})
}
