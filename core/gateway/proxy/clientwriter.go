package proxy

import (
	"errors"
	"net/http"
	"time"
)

// clientWriter is the writer of every answer to a client. Each write and
// flush first sets the connection's write deadline ClientWriteTimeout ahead
// (http.ResponseController; net/http clears it once the response ends), so
// a client that accepts no byte for that long fails the write instead of
// blocking the handler for ever; failed remembers it, and the request is
// counted canceled. cut marks a stream that was cut after part of it
// reached the client (the upstream's stream broke, timed out or outgrew its
// bound, or a later round failed): it cannot be ended as a whole stream,
// and ServeHTTP aborts it once the request is counted. Flushes and
// deadlines reach the client's writer through Unwrap. The first final
// status, write or flush stamps the request's [OverheadHeader].
type clientWriter struct {
	http.ResponseWriter
	rc       *http.ResponseController
	timeout  time.Duration
	failed   bool
	cut      bool
	overhead *overhead
	// kept is what was written, up to keepMax bytes (a capture's answer);
	// overKept says more was written.
	kept     []byte
	keepMax  int
	overKept bool
}

// WriteHeader stamps the overhead on a final status (not on a 1xx).
func (c *clientWriter) WriteHeader(code int) {
	if code >= http.StatusOK {
		c.overhead.stamp(c.Header())
	}
	c.ResponseWriter.WriteHeader(code)
}

func newClientWriter(w http.ResponseWriter, timeout time.Duration) *clientWriter {
	return &clientWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: timeout}
}

// arm sets the write deadline; a writer without one (a recorder, a
// middleware that hides it) is written to without.
func (c *clientWriter) arm() { _ = c.rc.SetWriteDeadline(time.Now().Add(c.timeout)) }

// writePiece is how much of a write one deadline covers: a large answer
// is written in pieces, so the timeout bounds a stall, not how long a
// client that keeps reading takes over the whole of it.
const writePiece = 64 << 10

func (c *clientWriter) Write(b []byte) (int, error) {
	c.overhead.stamp(c.Header())
	n := 0
	for {
		c.arm()
		k, err := c.ResponseWriter.Write(b[n : n+min(len(b)-n, writePiece)])
		n += k
		if err != nil {
			c.failed = true
			return n, err
		}
		if n == len(b) {
			c.keep(b)
			return n, nil
		}
	}
}

// keep adds b to what is kept, when keeping.
func (c *clientWriter) keep(b []byte) {
	switch {
	case c.keepMax == 0 || c.overKept:
	case len(c.kept)+len(b) > c.keepMax:
		c.overKept, c.kept = true, nil
	default:
		c.kept = append(c.kept, b...)
	}
}

// FlushError is what http.ResponseController.Flush calls.
func (c *clientWriter) FlushError() error {
	c.overhead.stamp(c.Header())
	c.arm()
	err := c.rc.Flush()
	c.failed = c.failed || err != nil && !errors.Is(err, http.ErrNotSupported)
	return err
}

func (c *clientWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// asClient finds the clientWriter under w's wrappers.
func asClient(w http.ResponseWriter) *clientWriter {
	for {
		switch x := w.(type) {
		case *clientWriter:
			return x
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}

// markCut marks w's stream as cut (see clientWriter).
func markCut(w http.ResponseWriter) {
	if c := asClient(w); c != nil {
		c.cut = true
	}
}

// clientGone reports whether the client went away (its request's context
// ended) or stopped taking the answer (a write to it failed).
func clientGone(w http.ResponseWriter, r *http.Request) bool {
	c := asClient(w)
	return r.Context().Err() != nil || c != nil && c.failed
}
