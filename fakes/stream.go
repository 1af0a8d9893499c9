package fakes

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolout/toolout/core"
)

// StreamSpec says how a step's answer is streamed when the request asks for
// a stream (respond.stream). The answer's content is cut into chunks: the
// text's pieces first, then each tool call's argument pieces, in order.
// Chunks and Split are exclusive; with neither, the text and each call's
// arguments are one chunk each.
type StreamSpec struct {
	// Chunks cuts the text and each tool call's arguments into this many
	// pieces of near-equal length in runes (fewer when one has fewer runes).
	Chunks int `yaml:"chunks"`
	// Split gives the text's pieces explicitly; they must join to the text
	// (before "{{nonce}}" is replaced, in each piece). Tool call arguments
	// then come whole, one chunk per call.
	Split []string `yaml:"split"`
	// ErrorAfter ends the stream after this many chunks with an error event
	// in the provider's format.
	ErrorAfter *int `yaml:"error_after"`
	// DisconnectAfter cuts the stream after this many chunks: no final
	// chunk, no end event; the reader sees the connection drop.
	DisconnectAfter *int `yaml:"disconnect_after"`
	// MidEvent, with DisconnectAfter, drops the connection in the middle
	// of the event that follows the K-th chunk: the first half of its
	// bytes go out, then nothing.
	MidEvent bool `yaml:"mid_event"`
	// Delay holds chunks back on the scenario's clock (a real wait for a
	// server).
	Delay *DelaySpec `yaml:"delay"`
	// Recorded is a real model's timing, as toolout serve --record kept
	// it: played by a server asked to (toolout serve --replay-speed F > 0,
	// each wait times F, on top of Delay's), never in process.
	Recorded *RecordedSpec `yaml:"recorded"`
}

// RecordedSpec is a recorded stream's timing: the time to its first byte,
// and the time between its chunks (the recording's total over its
// chunks, evenly).
type RecordedSpec struct {
	FirstByte time.Duration `yaml:"first_byte"`
	Every     time.Duration `yaml:"every"`
}

// MaxDelay bounds each delay of a stream.
const MaxDelay = 10 * time.Minute

// DelaySpec says when a stream waits: Every before each chunk, and For
// after the After-th chunk (before what follows it; after 0, before the
// first chunk). Both may be given; they add up.
type DelaySpec struct {
	Every time.Duration `yaml:"every"`
	After *int          `yaml:"after"`
	For   time.Duration `yaml:"for"`
}

// check checks the delay's own fields (for StreamSpec.Validate, so that
// a loader that validates every struct reports each problem once).
func (d DelaySpec) check() error {
	var errs []error
	switch {
	case d.Every == 0 && d.After == nil && d.For == 0:
		errs = append(errs, errors.New("want every, or after with for"))
	case (d.After == nil) != (d.For == 0):
		errs = append(errs, errors.New("after and for go together"))
	case d.After != nil && *d.After < 0:
		errs = append(errs, fmt.Errorf("after %d: must be zero or more", *d.After))
	}
	errs = append(errs, durations(map[string]time.Duration{"every": d.Every, "for": d.For})...)
	return oneLine(errs)
}

// durations checks that each named duration lies from 0 to MaxDelay, in
// the order of the names.
func durations(named map[string]time.Duration) []error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(named)) {
		if d := named[name]; d < 0 || d > MaxDelay {
			errs = append(errs, fmt.Errorf("%s %v: want a duration from 0 to %v", name, d, MaxDelay))
		}
	}
	return errs
}

// Validate checks the stream's own fields.
func (s StreamSpec) Validate() error {
	var errs []error
	switch {
	case s.Chunks < 0:
		errs = append(errs, fmt.Errorf("chunks %d: must not be negative", s.Chunks))
	case s.Chunks > 0 && s.Split != nil:
		errs = append(errs, errors.New("chunks and split are exclusive"))
	}
	if s.Split != nil && len(s.Split) == 0 {
		errs = append(errs, errors.New("split: want at least one piece"))
	}
	for i, p := range s.Split {
		if p == "" {
			errs = append(errs, fmt.Errorf("split[%d]: empty piece", i))
		}
	}
	if s.ErrorAfter != nil && s.DisconnectAfter != nil {
		errs = append(errs, errors.New("error_after and disconnect_after are exclusive"))
	}
	if s.MidEvent && s.DisconnectAfter == nil {
		errs = append(errs, errors.New("mid_event: goes with disconnect_after (the event the connection drops in)"))
	}
	if s.Delay != nil {
		if err := s.Delay.check(); err != nil {
			errs = append(errs, fmt.Errorf("delay: %w", err))
		}
	}
	if r := s.Recorded; r != nil {
		for _, err := range durations(map[string]time.Duration{"first_byte": r.FirstByte, "every": r.Every}) {
			errs = append(errs, fmt.Errorf("recorded: %w", err))
		}
	}
	for _, f := range s.faults() {
		if f.k != nil && *f.k < 0 {
			errs = append(errs, fmt.Errorf("%s %d: must be zero or more", f.name, *f.k))
		}
	}
	return oneLine(errs)
}

// oneLine joins errs with "; ", so that a loader shows one line per problem.
func oneLine(errs []error) error {
	var msgs []string
	for _, err := range errs {
		msgs = append(msgs, err.Error())
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; "))
}

type fault struct {
	name string
	k    *int
}

func (s StreamSpec) faults() []fault {
	return []fault{{"error_after", s.ErrorAfter}, {"disconnect_after", s.DisconnectAfter}}
}

// against checks the stream against the rest of the response.
func (s StreamSpec) against(r Respond) error {
	switch {
	case r.Error != nil:
		return errors.New("an injected error has nothing to stream")
	case s.Split != nil && r.Text == nil:
		return errors.New("split cuts text: the step has no text")
	case s.Split != nil && strings.Join(s.Split, "") != *r.Text:
		return fmt.Errorf("split: the pieces join to %q, not to the text %q", strings.Join(s.Split, ""), *r.Text)
	}
	return nil
}

// Stream is a scripted answer as it is streamed: the response and its
// content cut into chunks. ErrorAfter and DisconnectAfter are -1 when unset.
type Stream struct {
	Response core.Response
	// Text is the text's pieces; they join to Response.Text.
	Text []string
	// Args holds, per tool call, its arguments' pieces (a custom call's
	// input text's: core.ToolCall.Input).
	Args            [][]string
	ErrorAfter      int
	DisconnectAfter int
	// MidEvent: the connection drops in the middle of the event that
	// follows the DisconnectAfter-th chunk.
	MidEvent bool
	// Delays, when not nil, has Chunks()+1 entries: Delays[k] is the wait
	// after the k-th chunk, before what follows it (Delays[0]: before the
	// first chunk).
	Delays []time.Duration
	// Recorded, when not nil, is the recorded timing as Delays are
	// (StreamSpec.Recorded): played only by Replayed.
	Recorded []time.Duration
}

// Replayed is s with its recorded timing, each wait times speed, added to
// its delays (each at most MaxDelay); s itself without recorded timing or
// for a speed of 0 or less.
func (s Stream) Replayed(speed float64) Stream {
	if s.Recorded == nil || speed <= 0 {
		return s
	}
	delays := make([]time.Duration, len(s.Recorded))
	for k, d := range s.Recorded {
		delays[k] = min(s.Delay(k)+time.Duration(float64(d)*speed), MaxDelay)
	}
	s.Delays = delays
	return s
}

// Delay is the wait after the k-th chunk; zero without one.
func (s Stream) Delay(k int) time.Duration {
	if k < 0 || k >= len(s.Delays) {
		return 0
	}
	return s.Delays[k]
}

// Chunks is the number of content chunks: text pieces and argument pieces.
func (s Stream) Chunks() int {
	n := len(s.Text)
	for _, a := range s.Args {
		n += len(a)
	}
	return n
}

// CompleteStream answers req as [LLM.Complete] does and returns the answer
// cut as its step's respond.stream says (one chunk per part without one).
// A fault beyond the stream's chunks is a violation.
func (l *LLM) CompleteStream(ctx context.Context, req core.Request) (Stream, error) {
	if err := ctx.Err(); err != nil {
		return Stream{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stream(ctx, req)
}

// stream answers req as CompleteStream does (l.mu is held).
func (l *LLM) stream(ctx context.Context, req core.Request) (Stream, error) {
	call, err := l.complete(ctx, req)
	if err != nil {
		return Stream{}, err
	}
	spec, pos, _ := l.streamSpec(call.Step)
	s, msg := cutStream(call.Response, req, spec)
	if msg != "" {
		return l.streamViolation(pos, call.Step, msg)
	}
	return s, nil
}

// TryStream is CompleteStream for a request some step answers; for one
// that no step answers (none matches, or every one that matches is used
// up) it returns ok false and records nothing: no call, no violation. A
// server that records what a real model answers such a request
// (toolout serve --record) asks it first.
func (l *LLM) TryStream(ctx context.Context, req core.Request) (s Stream, ok bool, err error) {
	if err := ctx.Err(); err != nil {
		return Stream{}, true, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, v := l.pick(req); v != nil {
		return Stream{}, false, nil
	}
	s, err = l.stream(ctx, req)
	return s, true, err
}

// Streamed returns the answer of a call the LLM answered (one of
// [LLM.Calls], with its request) cut as [LLM.CompleteStream] cut it, and
// whether its step scripts a stream (respond.stream): a transcript shows
// with it the events a streaming client got. It records nothing.
func (l *LLM) Streamed(c Call) (Stream, bool, error) {
	l.mu.Lock()
	spec, _, scripted := l.streamSpec(c.Step)
	l.mu.Unlock()
	s, msg := cutStream(c.Response, c.Request, spec)
	if msg != "" {
		return s, scripted, fmt.Errorf("fakes: step %q: stream: %s", c.Step, msg)
	}
	return s, scripted, nil
}

// streamSpec is the respond.stream of the step with the given id, the
// step's position, and whether it has one (else the zero spec); l.mu is
// held.
func (l *LLM) streamSpec(id string) (StreamSpec, string, bool) {
	for _, st := range l.steps {
		if st.ID == id && st.Respond.Stream != nil {
			return *st.Respond.Stream, st.Pos, true
		}
	}
	return StreamSpec{}, "", false
}

// cutStream cuts resp, the answer to req, as spec says, or says why it
// cannot.
func cutStream(resp core.Response, req core.Request, spec StreamSpec) (Stream, string) {
	s := Stream{Response: resp, ErrorAfter: -1, DisconnectAfter: -1}
	n := max(spec.Chunks, 1)
	switch {
	case spec.Split != nil:
		for _, p := range spec.Split {
			s.Text = append(s.Text, strings.ReplaceAll(p, "{{nonce}}", RequestNonce(req)))
		}
	case resp.Text != "":
		s.Text = cut(resp.Text, n)
	}
	for _, c := range resp.ToolCalls {
		s.Args = append(s.Args, cut(c.Input(), n))
	}
	if strings.Join(s.Text, "") != resp.Text {
		return Stream{}, "split: a {{nonce}} spans two pieces"
	}
	for _, f := range spec.faults() {
		if f.k != nil && *f.k > s.Chunks() {
			return Stream{}, fmt.Sprintf("%s %d: the stream has %d chunks", f.name, *f.k, s.Chunks())
		}
	}
	if spec.ErrorAfter != nil {
		s.ErrorAfter = *spec.ErrorAfter
	}
	if spec.DisconnectAfter != nil {
		s.DisconnectAfter = *spec.DisconnectAfter
	}
	s.MidEvent = spec.MidEvent
	if spec.Delay != nil {
		if msg := s.delay(*spec.Delay); msg != "" {
			return Stream{}, msg
		}
	}
	if r := spec.Recorded; r != nil {
		s.Recorded = make([]time.Duration, s.Chunks()+1)
		for k := range s.Chunks() {
			s.Recorded[k] = r.Every
		}
		s.Recorded[0] = r.FirstByte
	}
	return s, ""
}

// delay sets s.Delays from d, or says why d does not fit the stream: a
// delay after its last chunk, or past its fault, waits for nothing.
func (s *Stream) delay(d DelaySpec) string {
	n := s.Chunks()
	s.Delays = make([]time.Duration, n+1)
	for k := range n {
		s.Delays[k] = d.Every
	}
	if d.After == nil {
		return ""
	}
	k := *d.After
	switch end := max(s.ErrorAfter, s.DisconnectAfter); {
	case k > n:
		return fmt.Sprintf("delay after %d: the stream has %d chunks", k, n)
	case end >= 0 && k > end:
		return fmt.Sprintf("delay after %d: the stream ends at its fault after %d chunks", k, end)
	case k == s.DisconnectAfter && !s.MidEvent:
		return fmt.Sprintf("delay after %d: nothing follows the disconnect there (mid_event sends half an event)", k)
	}
	s.Delays[k] += d.For
	return ""
}

// streamViolation records and returns a violation; l.mu is held.
func (l *LLM) streamViolation(pos, id, msg string) (Stream, error) {
	v := Violation{Pos: pos, Msg: fmt.Sprintf("step %q: stream: %s", id, msg)}
	l.record(v)
	return Stream{}, &v
}

// cut splits s into n pieces of near-equal rune counts (the first ones one
// rune longer), or one piece per rune when s has fewer than n runes.
func cut(s string, n int) []string {
	runes := utf8.RuneCountInString(s)
	if runes == 0 {
		return nil
	}
	n = min(n, runes)
	out := make([]string, 0, n)
	for i := range n {
		size := runes / n
		if i < runes%n {
			size++
		}
		end := 0
		for range size {
			_, w := utf8.DecodeRuneInString(s[end:])
			end += w
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}
