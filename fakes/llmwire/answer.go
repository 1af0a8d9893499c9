package llmwire

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
)

// Answer is the scripted model's HTTP answer to one request: a status,
// headers, and either a JSON Body or a stream of Events. A stream that ends
// with Cut has no clean end: the connection drops after its last event.
type Answer struct {
	Status int
	Header http.Header
	// Body is a JSON answer's whole body; nil for a stream.
	Body []byte
	// Events are a stream's events as they are sent, the fault's error
	// event included.
	Events []Event
	// Cut says the connection drops after the events (disconnect_after):
	// no end event, no clean end of the body.
	Cut bool
	// Partial, when positive on a cut stream, is how many bytes of its
	// last event go out before the drop (mid_event): the connection drops
	// in the middle of that event.
	Partial int
}

// eventBytes is the i-th event as it goes out: whole, or the last one of
// a cut stream only in part.
func (a Answer) eventBytes(i int) []byte {
	b := a.Events[i].Bytes()
	if a.Cut && a.Partial > 0 && i == len(a.Events)-1 && a.Partial < len(b) {
		b = b[:a.Partial]
	}
	return b
}

// Event is one server-sent event.
type Event struct {
	// Name is the event's "event:" field; empty for OpenAI's data-only
	// events.
	Name string
	// Data is the event's one "data:" line (JSON, or OpenAI's [DONE]).
	Data string
	// Delay is how long the model waits before sending the event.
	Delay time.Duration
}

// Bytes is the event as it is sent: "event: NAME\n" when it has a name,
// "data: DATA\n", and the blank line that ends it.
func (e Event) Bytes() []byte {
	var b []byte
	if e.Name != "" {
		b = append(append(append(b, "event: "...), e.Name...), '\n')
	}
	return append(append(append(b, "data: "...), e.Data...), "\n\n"...)
}

// Stream reports whether the answer is a stream of events.
func (a Answer) Stream() bool { return a.Body == nil }

// Bytes is the body as it is sent: the JSON body, or every event.
func (a Answer) Bytes() []byte {
	if !a.Stream() {
		return a.Body
	}
	var b []byte
	for i := range a.Events {
		b = append(b, a.eventBytes(i)...)
	}
	return b
}

// ErrCut is what reading or writing a cut stream ends with.
var ErrCut = errors.New("llmwire: the scripted stream was cut")

// Wait waits d before an event is sent, or returns why it could not.
type Wait func(ctx context.Context, d time.Duration) error

// MaxDelay bounds the real wait of [Sleep]: a longer delay waits this long
// (fakes bounds a scripted delay to the same).
const MaxDelay = fakes.MaxDelay

// Sleep is the real [Wait]: it returns after d (at most [MaxDelay]), or
// with ctx's error when ctx ends first.
func Sleep(ctx context.Context, d time.Duration) error {
	return core.Sleep(ctx, min(d, MaxDelay))
}

// Response is the answer as an in-process http.RoundTripper returns it:
// its body reads the answer's bytes, calling wait (with ctx) before an
// event that has a Delay, and ends with io.EOF, or with
// io.ErrUnexpectedEOF when the stream is cut, as a dropped connection
// reads; an error of wait ends it too.
func (a Answer) Response(ctx context.Context, wait Wait) *http.Response {
	b := &body{ctx: ctx, wait: wait, end: io.EOF}
	if a.Cut {
		b.end = io.ErrUnexpectedEOF
	}
	if !a.Stream() {
		b.segs = []segment{{b: a.Body}}
	}
	for i, ev := range a.Events {
		if len(b.segs) == 0 || ev.Delay > 0 {
			b.segs = append(b.segs, segment{delay: ev.Delay})
		}
		last := &b.segs[len(b.segs)-1]
		last.b = append(last.b, a.eventBytes(i)...)
	}
	return &http.Response{StatusCode: a.Status, Status: http.StatusText(a.Status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: a.Header.Clone(), Body: io.NopCloser(b), ContentLength: -1}
}

// segment is bytes of a body that come together, after a delay.
type segment struct {
	delay time.Duration
	b     []byte
}

// body reads segments, waiting before each one that has a delay.
type body struct {
	ctx  context.Context
	wait Wait
	segs []segment
	cur  []byte
	end  error
}

func (b *body) Read(p []byte) (int, error) {
	for len(b.cur) == 0 {
		if len(b.segs) == 0 {
			return 0, b.end
		}
		s := b.segs[0]
		b.segs = b.segs[1:]
		if s.delay > 0 && b.wait != nil {
			if err := b.wait(b.ctx, s.delay); err != nil {
				b.segs, b.end = nil, err
				return 0, err
			}
		}
		b.cur = s.b
	}
	n := copy(p, b.cur)
	b.cur = b.cur[n:]
	return n, nil
}

// Write sends the answer to w: the status and headers, then the JSON body,
// or each event in turn, waiting its Delay first (wait; nil is [Sleep])
// and flushing it at once. A cut stream returns [ErrCut] once its events
// are flushed: the caller must then drop the connection rather than end
// the body cleanly (an http.Handler panics with http.ErrAbortHandler, as
// [Answer.ServeHTTP] does). Any other error is w's, or wait's.
func (a Answer) Write(ctx context.Context, w http.ResponseWriter, wait Wait) error {
	if wait == nil {
		wait = Sleep
	}
	for k, v := range a.Header {
		w.Header()[k] = append([]string(nil), v...)
	}
	w.WriteHeader(a.Status)
	if !a.Stream() {
		_, err := w.Write(a.Body)
		return err
	}
	rc := http.NewResponseController(w)
	if err := flush(rc); err != nil {
		return err
	}
	for i, ev := range a.Events {
		if ev.Delay > 0 {
			if err := wait(ctx, ev.Delay); err != nil {
				return err
			}
		}
		if _, err := w.Write(a.eventBytes(i)); err != nil {
			return err
		}
		if err := flush(rc); err != nil {
			return err
		}
	}
	if a.Cut {
		return ErrCut
	}
	return nil
}

// flush flushes what was written; a writer that cannot flush sends it at
// its end.
func flush(rc *http.ResponseController) error {
	if err := rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// ServeHTTP writes the answer to w with real waits bounded by r's context,
// and drops the connection where the stream is cut (it panics with
// http.ErrAbortHandler, which net/http handles quietly: HTTP/1 closes the
// connection, the body unterminated; HTTP/2 resets the stream).
func (a Answer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := a.Write(r.Context(), w, Sleep); errors.Is(err, ErrCut) {
		panic(http.ErrAbortHandler)
	}
}

var _ http.Handler = Answer{}
