package fakes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/finalreport"
)

var _ core.LLM = (*LLM)(nil)

// Options configure an LLM.
type Options struct {
	// Tokenizer, when set, fills Response.Usage with the token counts of the
	// request's messages and of the answer.
	Tokenizer core.Tokenizer
	// PlainFinal answers a Final step with its bare text when the request
	// names no final-report nonce, instead of recording a violation: for
	// agents that know nothing of toolout's final-report wrapper (toolout
	// serve). A request that names a nonce still gets the wrapper; an
	// oracle with wrap "final" still needs a nonce.
	PlainFinal bool
	// Bounded is for a server that runs for as long as its clients send
	// (toolout serve): Calls keep each request's Tag only (not its
	// messages, system text or tools), and the LLM keeps the first
	// MaxKept calls and the first MaxKept violations; the violations past
	// them are counted, and Violations says how many in one entry. Without
	// it everything is kept: a transcript shows each request.
	Bounded bool
}

// MaxKept bounds the calls and the violations an LLM with Options.Bounded
// keeps.
const MaxKept = 1000

// Call records one request and what was answered.
type Call struct {
	// Seq is the 1-based arrival order.
	Seq      int
	Request  core.Request
	Step     string // ID of the answering step; empty when none matched
	Response core.Response
	Err      error
}

type stepState struct {
	Step
	times    int
	used     int
	answered int
	waiting  int // requests blocked in waitAfter
	chunk    [2]int
}

// AfterTimeout bounds how long a step waits for the steps it comes after. It
// is a guard against scripts that can never be satisfied (say, the awaited
// request is queued behind the waiting one), not a timing device.
const AfterTimeout = 10 * time.Second

// LLM is a scripted, strict fake of core.LLM. See the package documentation.
type LLM struct {
	opts Options

	mu         sync.Mutex
	changed    chan struct{} // closed and replaced whenever a step answers
	steps      []*stepState
	calls      []Call
	violations []Violation
	notKept    int // violations past MaxKept (Options.Bounded)
	callIDs    int
	arrivals   int
}

// NewLLM returns an LLM that replays steps. Steps without an ID are named
// step-1, step-2, ... by their position. It fails when a step is invalid or
// two steps share an ID.
func NewLLM(steps []Step, opts Options) (*LLM, error) {
	l := &LLM{opts: opts, changed: make(chan struct{})}
	seen := map[string]bool{}
	var errs []error
	for i, s := range steps {
		if s.ID == "" {
			s.ID = fmt.Sprintf("step-%d", i+1)
		}
		if err := s.check(); err != nil {
			errs = append(errs, fmt.Errorf("fakes: step %q: %w", s.ID, err))
			continue
		}
		if seen[s.ID] {
			errs = append(errs, fmt.Errorf("fakes: step %q: duplicate id", s.ID))
		}
		seen[s.ID] = true
		st := &stepState{Step: s, times: max(s.Times, 1)}
		if s.Match.Chunk != "" {
			st.chunk[0], st.chunk[1], _ = parseChunk(s.Match.Chunk)
		}
		l.steps = append(l.steps, st)
	}
	for _, st := range l.steps {
		for _, id := range st.After {
			switch {
			case id == st.ID:
				errs = append(errs, fmt.Errorf("fakes: step %q: after: names itself", st.ID))
			case !seen[id]:
				errs = append(errs, fmt.Errorf("fakes: step %q: after: no step %q", st.ID, id))
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return l, nil
}

// waitAfter blocks, with l.mu held on entry and on return, until every step
// st comes after has answered all its times. It returns a violation when ctx
// ends or AfterTimeout passes first.
func (l *LLM) waitAfter(ctx context.Context, st *stepState) *Violation {
	var timeout <-chan time.Time
	for {
		pending := ""
		for _, id := range st.After {
			for _, o := range l.steps {
				if o.ID == id && o.answered < o.times {
					pending = id
				}
			}
		}
		if pending == "" {
			return nil
		}
		if timeout == nil {
			t := time.NewTimer(AfterTimeout)
			defer t.Stop()
			timeout = t.C
		}
		changed := l.changed
		l.mu.Unlock()
		var why string
		select {
		case <-changed:
		case <-ctx.Done():
			why = ctx.Err().Error()
		case <-timeout:
			why = fmt.Sprintf("waited %s", AfterTimeout)
		}
		l.mu.Lock()
		if why != "" {
			return &Violation{Pos: st.Pos, Msg: fmt.Sprintf("step %q: %s for step %q, which never answered", st.ID, why, pending)}
		}
	}
}

// Complete answers req from the script. A request that no step can answer gets
// an error, which is also recorded for Check.
func (l *LLM) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	if err := ctx.Err(); err != nil {
		return core.Response{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	call, err := l.complete(ctx, req)
	return call.Response, err
}

// complete answers req as Complete does and returns its call, whose Step
// names the step that answered it (l.mu is held): CompleteStream cuts by
// that step's stream, whatever was recorded since or not kept.
func (l *LLM) complete(ctx context.Context, req core.Request) (Call, error) {
	l.arrivals++
	call := Call{Seq: l.arrivals, Request: req}
	st, v := l.pick(req)
	var err error
	if v == nil {
		st.used++
		call.Step = st.ID
		if len(st.After) > 0 {
			st.waiting++
			v = l.waitAfter(ctx, st)
			st.waiting--
		}
	}
	if v == nil {
		call.Response, err = l.respond(st, req)
		if err != nil && !isInjected(err) {
			v = &Violation{Pos: st.Pos, Msg: fmt.Sprintf("step %q: %v", st.ID, err)}
		}
		st.answered++
		close(l.changed)
		l.changed = make(chan struct{})
	}
	if v != nil {
		l.record(*v)
		err = v
	}
	call.Err = err
	if l.opts.Bounded {
		call.Request = core.Request{Tag: req.Tag}
	}
	if !l.opts.Bounded || len(l.calls) < MaxKept {
		l.calls = append(l.calls, call)
	}
	return call, err
}

// record keeps a violation, or counts it past MaxKept (Options.Bounded).
func (l *LLM) record(v Violation) {
	if l.opts.Bounded && len(l.violations) >= MaxKept {
		l.notKept++
		return
	}
	l.violations = append(l.violations, v)
}

// Calls returns every request finished so far, in the order the LLM answered
// or refused them; Seq numbers them in arrival order. The two differ only for
// a step with After, whose request is recorded once it stops waiting.
func (l *LLM) Calls() []Call {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Call(nil), l.calls...)
}

// Waiting returns the ID of the step of every request now blocked until the
// steps it comes After have answered: in script order, an ID once per waiting
// request. A spec can wait for it (with a deadline) to know that a request has
// arrived and is held back, instead of sleeping.
func (l *LLM) Waiting() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, st := range l.steps {
		for range st.waiting {
			out = append(out, st.ID)
		}
	}
	return out
}

// Unused returns the steps that answered fewer requests than their Times.
func (l *LLM) Unused() []Step {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Step
	for _, st := range l.steps {
		if st.used < st.times {
			out = append(out, st.Step)
		}
	}
	return out
}

// Violation is a breach of the script: a request no step could answer, a
// step that could not respond, or a step used fewer times than scripted.
type Violation struct {
	// Pos is the position of the step concerned; empty when no step is.
	Pos string
	Msg string
}

func (v *Violation) Error() string { return "fakes: " + v.Msg + at(v.Pos) }

// Violations returns every breach of the script so far, in the order they
// happened, followed by the steps used fewer times than scripted.
func (l *LLM) Violations() []Violation {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]Violation(nil), l.violations...)
	if l.notKept > 0 {
		out = append(out, Violation{Msg: fmt.Sprintf("%d more violation(s) not kept (at most %d are)", l.notKept, MaxKept)})
	}
	for _, st := range l.steps {
		switch {
		case st.used >= st.times:
		case st.times == 1:
			out = append(out, Violation{Pos: st.Pos, Msg: fmt.Sprintf("step %q was never used", st.ID)})
		default:
			out = append(out, Violation{Pos: st.Pos, Msg: fmt.Sprintf("step %q was used %d of %d times", st.ID, st.used, st.times)})
		}
	}
	return out
}

// Check returns every violation joined in one error, or nil.
func (l *LLM) Check() error {
	var errs []error
	for _, v := range l.Violations() {
		errs = append(errs, &v)
	}
	return errors.Join(errs...)
}

func at(pos string) string {
	if pos == "" {
		return ""
	}
	return " (" + pos + ")"
}

type injected struct{ error }

func (e injected) Unwrap() error { return e.error }

func isInjected(err error) bool {
	var in injected
	return errors.As(err, &in)
}

// respond builds the answer of st; l.mu is held.
func (l *LLM) respond(st *stepState, req core.Request) (core.Response, error) {
	r := st.Respond
	var resp core.Response
	switch {
	case r.Error != nil:
		return resp, injected{injectedError(st.ID, *r.Error)}
	case r.Oracle != nil:
		text, err := oracles[r.Oracle.Name].Answer(req, r.Oracle.Params)
		if err != nil {
			return resp, err
		}
		nonce := RequestNonce(req)
		switch r.Oracle.Wrap {
		case "final":
			if nonce == "" {
				return resp, errors.New("oracle wrap final: the request names no final-report nonce")
			}
			text = finalreport.Wrap(nonce, text)
		case "", "auto":
			if nonce != "" {
				text = finalreport.Wrap(nonce, text)
			}
		}
		resp.Text = text
	case r.Final != nil:
		switch nonce := RequestNonce(req); {
		case nonce != "":
			resp.Text = finalreport.Wrap(nonce, *r.Final)
		case l.opts.PlainFinal:
			resp.Text = *r.Final
		default:
			return resp, errors.New("respond final: the request names no final-report nonce")
		}
	case r.Text != nil:
		resp.Text = strings.ReplaceAll(*r.Text, "{{nonce}}", RequestNonce(req))
	}
	for _, c := range r.ToolCalls {
		call := core.ToolCall{ID: c.ID, Name: c.Name}
		if call.ID == "" {
			l.callIDs++
			call.ID = fmt.Sprintf("call-%d", l.callIDs)
		}
		switch {
		case c.Custom:
			call = core.CustomCall(call.ID, c.Name, *c.Input)
		case c.Raw != nil:
			call.Arguments = json.RawMessage(*c.Raw)
		default:
			args := c.Args
			if args == nil {
				args = map[string]any{}
			}
			b, err := json.Marshal(args)
			if err != nil {
				return core.Response{}, fmt.Errorf("tool call %q: arguments: %w", c.Name, err)
			}
			call.Arguments = b
		}
		resp.ToolCalls = append(resp.ToolCalls, call)
	}
	resp.FinishReason = core.FinishStop
	if len(resp.ToolCalls) > 0 {
		resp.FinishReason = core.FinishToolCalls
	}
	if tk := l.opts.Tokenizer; tk != nil {
		_, _, all := Texts(req)
		resp.Usage.InputTokens = tk.Count(all)
		resp.Usage.OutputTokens = tk.Count(resp.Text)
		for _, c := range resp.ToolCalls {
			resp.Usage.OutputTokens += tk.Count(c.Name) + tk.Count(c.Input())
		}
	}
	return resp, nil
}

func injectedError(id string, e ErrorSpec) error {
	var base error
	switch e.Kind {
	case ErrorTimeout:
		base = context.DeadlineExceeded
	case ErrorRateLimit:
		base = core.ErrRateLimited
	default:
		base = core.ErrServer
	}
	if e.Message != "" {
		return fmt.Errorf("fake llm step %q: %s: %w", id, e.Message, base)
	}
	return fmt.Errorf("fake llm step %q: %w", id, base)
}
