package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/fakes/llmwire"
	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// Defaults of Options.
const (
	DefaultMaxBodyBytes  = proxy.DefaultMaxBodyBytes
	DefaultMaxConcurrent = proxy.DefaultMaxRequests
	// DefaultTimeout bounds one request: longer than fakes.AfterTimeout,
	// so that a step waiting for the steps it comes after fails with the
	// fake's own violation rather than this bound.
	DefaultTimeout = fakes.AfterTimeout + 5*time.Second
)

// Options bound and instrument a Server. A zero field means its default.
type Options struct {
	// MaxBodyBytes refuses larger request bodies with 413.
	MaxBodyBytes int64
	// MaxConcurrent requests are handled at once; more get 503 with
	// Retry-After.
	MaxConcurrent int
	// Timeout bounds the handling of one request.
	Timeout time.Duration
	// Logf, when set, gets one line per request: the scenario, the route,
	// the tag and the step that answered (or the error).
	Logf func(format string, args ...any)
	// KeepRequests keeps every request whole in Calls (its messages,
	// system text and tools) and every call and violation, for a test
	// that serves a few requests and reads them afterwards
	// (toolouttest.Serve). Without it the scripted LLMs are bounded
	// (fakes.Options.Bounded), as a server that runs for as long as its
	// clients send must be.
	KeepRequests bool
	// Record, when set, answers the requests no step answers (every
	// request, when it says Only) by forwarding them to a real model and
	// recording the exchange (harness/record: toolout serve --record); a
	// scenario may then have no llm steps.
	Record Recorder
	// ReplaySpeed plays the recorded timing of the steps' streams
	// (respond.stream.recorded, written by a recording), each wait times
	// it: 1 as recorded, 0 (the default) not at all.
	ReplaySpeed float64
}

// Recorder forwards a request to a real model, relays its answer to w and
// records the exchange for the scenario file (harness/record.Recorder).
// An error means nothing was written to w.
type Recorder interface {
	Only() bool
	Record(ctx context.Context, w http.ResponseWriter, h http.Header, scenario string, wire llmwire.Wire, path string, body []byte) error
}

// Server answers HTTP requests from the scripted LLMs of one or more
// scenarios; see the package documentation. It is an http.Handler and is
// safe for concurrent use.
type Server struct {
	opts     Options
	scripts  []*script
	sem      chan struct{}
	unrouted rejections     // 4xx of requests no scenario of several held
	tk       core.Tokenizer // cl100k_base: usage and count_tokens

	stop     context.Context // cancelled by Close
	cancel   context.CancelFunc
	done     chan struct{} // closed once every step has answered all its times
	doneOnce sync.Once

	forwarded atomic.Int64 // requests the recorder answered
}

// Forwarded is how many requests the recorder (Options.Record) answered
// by forwarding them, whether or not their call was recorded.
func (s *Server) Forwarded() int { return int(s.forwarded.Load()) }

// script is one scenario served: its own LLM, its routes and counters.
type script struct {
	sc     *harness.Scenario
	llm    *fakes.LLM
	site   string // the site of a request without X-Toolout-Tag
	prefix string // "/<id>" (path-escaped per segment)
	ids    atomic.Int64

	rejected rejections // its requests refused with a 4xx of serve's own
	unsent   rejections // answers its wire cannot carry (a custom call on chat)
	chain    chain      // Responses answers kept for previous_response_id
}

// Load reads the scenario files with toolout's own components
// (components.Default) and returns a Server for them. Errors are the
// loader's, each at its file:line:col. With Options.Record, a file that
// does not exist yet (in a folder that does) is a new session scenario to
// record, without steps, its id the file's name: the recording writes it.
func Load(files []string, opts Options) (*Server, error) {
	var scs []*harness.Scenario
	var errs []error
	for _, f := range files {
		if _, err := os.Stat(f); opts.Record != nil && errors.Is(err, os.ErrNotExist) {
			if _, err := os.Stat(filepath.Dir(f)); err != nil {
				errs = append(errs, fmt.Errorf("%s: its folder: %w", f, err))
				continue
			}
			id := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
			scs = append(scs, &harness.Scenario{ID: id, Component: "session", Path: f, File: f})
			continue
		}
		sc, err := harness.Load(components.Default(), f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		scs = append(scs, sc)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return New(scs, opts)
}

// New returns a Server for loaded scenarios. Each gets a fresh scripted
// LLM (fakes.LLM with Options.PlainFinal, and token counts from
// cl100k_base for usage) and the base path /<id>/v1; with one scenario,
// /v1 too. It fails when there is no scenario, when one has no llm steps,
// or when two have the same id; its errors, and Load's and Listen's, carry
// no package prefix: a command prints them after its own name.
func New(scs []*harness.Scenario, opts Options) (*Server, error) {
	if len(scs) == 0 {
		return nil, errors.New("no scenario")
	}
	opts = opts.withDefaults()
	tk, err := tokens.New("cl100k_base")
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, sem: make(chan struct{}, opts.MaxConcurrent), tk: tk, done: make(chan struct{})}
	s.stop, s.cancel = context.WithCancel(context.Background())
	seen := map[string]string{}
	for _, sc := range scs {
		if len(sc.LLM) == 0 && opts.Record == nil {
			return nil, fmt.Errorf("%s: no llm steps: nothing to serve", sc.Path)
		}
		if other, dup := seen[sc.ID]; dup {
			return nil, fmt.Errorf("%s and %s have the same id %q: each needs a base path of its own", other, sc.Path, sc.ID)
		}
		seen[sc.ID] = sc.Path
		llm, err := fakes.NewLLM(sc.LLM, fakes.Options{Tokenizer: tk, PlainFinal: true, Bounded: !opts.KeepRequests})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sc.Path, err)
		}
		s.scripts = append(s.scripts, &script{sc: sc, llm: llm, site: Site(sc.Component), prefix: escapePath(sc.ID)})
	}
	return s, nil
}

func (o Options) withDefaults() Options {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = DefaultMaxConcurrent
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

// escapePath escapes each segment of a scenario id for a URL path.
func escapePath(id string) string {
	segs := strings.Split(id, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return "/" + strings.Join(segs, "/")
}

// Site returns the call site a request without X-Toolout-Tag is matched
// as, for a scenario of the named component: the site of the component's
// model. The session's agent loop asks session.turn (core/session), the
// gateway's upstream model gateway.upstream (harness/components'
// gateway). The extract component has no single model (map and reduce
// calls for full-chunked, the read-grep sub-agent's turns) and the llm
// component sends the tags its input names, so for those (and any other)
// it is "": a step that names a tag then matches only a request that
// sends X-Toolout-Tag.
func Site(component string) string {
	switch component {
	case "session":
		return core.SiteSessionTurn
	case "gateway":
		return core.SiteGatewayUpstream
	}
	return ""
}

// Base is where one scenario is served.
type Base struct {
	// Scenario is the scenario's id, e.g. "session/over-cap-handle".
	Scenario string
	// Path is the OpenAI-style base path, "/<id>/v1"; an OpenAI SDK takes
	// the server's URL with it, an Anthropic SDK without the "/v1".
	Path string
}

// Bases lists the scenarios' base paths, in the order given to New. With
// one scenario, "/v1" serves it too.
func (s *Server) Bases() []Base {
	out := make([]Base, len(s.scripts))
	for i, sc := range s.scripts {
		out[i] = Base{Scenario: sc.sc.ID, Path: sc.prefix + "/v1"}
	}
	return out
}

// Problem is a breach of one scenario's script: a request no step could
// answer, a step that could not respond, a step used fewer times than
// scripted, or a request refused with a 4xx before it reached the script.
type Problem struct {
	// Scenario is the scenario's id.
	Scenario string
	// Pos is the step's file:line:col, or the scenario's file when no step
	// is concerned (a request nothing matched; the message then names the
	// nearest step and its position; a request refused with a 4xx), or
	// empty for a refused request that no scenario of several held.
	Pos string
	// Msg is the fake's violation in one line.
	Msg string
}

// String is "pos: msg", or msg alone without a position.
func (p Problem) String() string {
	if p.Pos == "" {
		return p.Msg
	}
	return p.Pos + ": " + p.Msg
}

// Problems returns every breach so far, scenario by scenario in the
// order given to New: the violations in the order they happened, then
// the steps used fewer times than scripted, then the requests it refused
// with a 4xx of serve's own ("rejected POST /v1/chat/completions: 400
// reason", at the scenario's file); last, with neither scenario nor
// position, those refused that no scenario of several held. Call it once
// the clients are done (after Close) for the final report.
func (s *Server) Problems() []Problem {
	var out []Problem
	for _, sc := range s.scripts {
		for _, v := range sc.llm.Violations() {
			p := Problem{Scenario: sc.sc.ID, Pos: v.Pos, Msg: oneLine(v.Msg)}
			if p.Pos == "" {
				p.Pos = sc.sc.Path
			}
			out = append(out, p)
		}
		out = append(out, sc.unsent.problems(sc.sc.ID, sc.sc.Path)...)
		out = append(out, sc.rejected.problems(sc.sc.ID, sc.sc.Path)...)
	}
	return append(out, s.unrouted.problems("", "")...)
}

// Check returns every problem joined in one error, or nil.
func (s *Server) Check() error {
	var errs []error
	for _, p := range s.Problems() {
		errs = append(errs, errors.New(p.String()))
	}
	return errors.Join(errs...)
}

// oneLine joins the lines of a violation (a nearest-step diff spans
// several) with "; ", or a space after a line that ends with ":".
func oneLine(msg string) string {
	var b strings.Builder
	for i, l := range strings.Split(msg, "\n") {
		if i > 0 {
			if strings.HasSuffix(b.String(), ":") {
				b.WriteString(" ")
			} else {
				b.WriteString("; ")
			}
		}
		b.WriteString(strings.TrimSpace(l))
	}
	return b.String()
}

// Unused returns how many steps of every scenario have answered fewer
// requests than their times so far.
func (s *Server) Unused() int {
	n := 0
	for _, sc := range s.scripts {
		n += len(sc.llm.Unused())
	}
	return n
}

// Done is closed once every step of every scenario has answered all its
// times (its Times, and no request of it still waiting) and that answer
// has been written: `toolout serve --exit-when-done` stops then.
func (s *Server) Done() <-chan struct{} { return s.done }

// checkDone closes done when every script is spent.
func (s *Server) checkDone() {
	for _, sc := range s.scripts {
		if len(sc.llm.Unused()) > 0 || len(sc.llm.Waiting()) > 0 {
			return
		}
	}
	s.doneOnce.Do(func() { close(s.done) })
}

// Close ends every request still waiting for the steps its step comes
// after (each becomes a violation) and refuses later requests with 503. It
// does not close listeners: the http.Server's Shutdown does.
func (s *Server) Close() error {
	s.cancel()
	return nil
}

// Calls returns the requests the scenario with the given id has answered
// or refused so far (fakes.LLM.Calls), or nil for an unknown id: the
// first fakes.MaxKept of them, each with its request's tag only (the
// scripted LLMs are fakes.Options.Bounded, so that a server's memory does
// not grow with the requests it is sent); with Options.KeepRequests, all
// of them, each request whole.
func (s *Server) Calls(scenario string) []fakes.Call {
	for _, sc := range s.scripts {
		if sc.sc.ID == scenario {
			return sc.llm.Calls()
		}
	}
	return nil
}

// Waiting returns the steps of the scenario with the given id whose
// requests now wait for the steps they come after (fakes.LLM.Waiting).
func (s *Server) Waiting(scenario string) []string {
	for _, sc := range s.scripts {
		if sc.sc.ID == scenario {
			return sc.llm.Waiting()
		}
	}
	return nil
}

// HTTPServer returns an http.Server for s with bounded timeouts: 10 s to
// read a request's header, 1 min for the whole request, the longer of
// that and Timeout plus 30 s to write the answer, 1 min idle, 64 KiB of
// header. Both the read timeout and Timeout end before the write timeout
// (all run from the end of the header), so a 408 for a body past the read
// timeout reaches its client (with a write timeout of Timeout + 30 s, 45 s,
// the connection was closed at 60 s without it) and the write timeout
// only drops a client that stops reading.
func (s *Server) HTTPServer() *http.Server {
	const read = time.Minute
	return &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: read,
		WriteTimeout: max(read, s.opts.Timeout) + 30*time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 64 << 10}
}
