package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/fakes/llmwire"
)

// Request headers serve reads and answer headers it writes.
const (
	// TagHeader carries the request's core.Tag in its String form; the
	// answer carries the tag the request was matched with.
	TagHeader = "X-Toolout-Tag"
	// ScenarioHeader names, on every answer, the scenario that answered.
	ScenarioHeader = "X-Toolout-Scenario"
)

// The routes under a base path.
const (
	pathChat        = "/v1/chat/completions"
	pathResponses   = "/v1/responses"
	pathMessages    = "/v1/messages"
	pathCountTokens = "/v1/messages/count_tokens"
	pathModels      = "/v1/models"
)

// ServeHTTP routes a request to its scenario and answers it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sc, rest := s.route(r.URL.EscapedPath())
	api := llmwire.OpenAI
	if rest == pathMessages || rest == pathCountTokens || r.Header.Get("anthropic-version") != "" {
		api = llmwire.Anthropic
	}
	if sc == nil {
		var bases []string
		for _, b := range s.Bases() {
			bases = append(bases, b.Path)
		}
		s.reject(w, r, nil, api, http.StatusNotFound, fmt.Sprintf("no scenario is served at %s (bases: %s)", clip(r.URL.Path), strings.Join(bases, ", ")))
		return
	}
	w.Header().Set(ScenarioHeader, sc.sc.ID)
	switch {
	case rest == pathChat:
		s.complete(w, r, sc, llmwire.OpenAI)
	case rest == pathMessages:
		s.complete(w, r, sc, llmwire.Anthropic)
	case rest == pathResponses:
		s.complete(w, r, sc, llmwire.Responses)
	case rest == pathCountTokens:
		s.countTokens(w, r, sc)
	case rest == pathModels || strings.HasPrefix(rest, pathModels+"/"):
		s.models(w, r, sc, api, strings.TrimPrefix(strings.TrimPrefix(rest, pathModels), "/"))
	default:
		s.reject(w, r, sc, api, http.StatusNotFound, fmt.Sprintf("no route %s under %s/v1 (routes: POST %s, POST %s, POST %s, POST %s, GET %s)",
			clip(rest), sc.prefix, pathChat, pathResponses, pathMessages, pathCountTokens, pathModels))
	}
}

// route finds the scenario whose base path starts path (the longest, when
// one id is a prefix of another), and the rest of the path from "/v1". With
// one scenario, a path that starts with "/v1/" is its.
func (s *Server) route(path string) (*script, string) {
	var best *script
	for _, sc := range s.scripts {
		if strings.HasPrefix(path, sc.prefix+"/v1/") && (best == nil || len(sc.prefix) > len(best.prefix)) {
			best = sc
		}
	}
	switch {
	case best != nil:
		return best, path[len(best.prefix):]
	case len(s.scripts) == 1 && strings.HasPrefix(path, "/v1/"):
		return s.scripts[0], path
	}
	return nil, ""
}

// admit lets a POST in when a slot of MaxConcurrent is free: a request
// with another method is rejected (405, counted), one past the limit gets
// 503 with Retry-After (not counted: the client retries it). When ok,
// release frees the slot.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, sc *script, api llmwire.Wire) (release func(), ok bool) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		s.reject(w, r, sc, api, http.StatusMethodNotAllowed, fmt.Sprintf("%s %s: want POST", r.Method, clip(r.URL.Path)))
		return nil, false
	}
	select {
	case s.sem <- struct{}{}:
		return func() { <-s.sem }, true
	default:
		w.Header().Set("Retry-After", "1")
		s.fail(w, api, http.StatusServiceUnavailable, fmt.Sprintf("more than %d requests at once", s.opts.MaxConcurrent))
		return nil, false
	}
}

// complete answers one completion request from sc's script.
func (s *Server) complete(w http.ResponseWriter, r *http.Request, sc *script, api llmwire.Wire) {
	release, ok := s.admit(w, r, sc, api)
	if !ok {
		return
	}
	defer release()
	if s.stop.Err() != nil {
		s.fail(w, api, http.StatusServiceUnavailable, "the server is stopping")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.Timeout)
	defer cancel()
	defer context.AfterFunc(s.stop, cancel)()

	in, status, err := s.read(w, r, sc, api)
	if err != nil {
		s.logf("%s: %s %s: %d %v", sc.sc.ID, r.Method, r.URL.Path, status, err)
		s.reject(w, r, sc, api, status, err.Error())
		return
	}
	w.Header().Set(TagHeader, in.req.Tag.String())
	st, answered, err := s.script(ctx, sc, in)
	if !answered {
		s.record(ctx, w, r, sc, api, in)
		return
	}
	defer s.checkDone() // after the answer is written
	var v *fakes.Violation
	var a llmwire.Answer
	switch {
	case errors.As(err, &v):
		// 422: the request is well formed and the script has no answer
		// for it; and no SDK retries a 422 (they retry 408, 409, 429,
		// 5xx), so one unmatched request stays one violation.
		s.logf("%s: %s %s: %s: 422 %s", sc.sc.ID, r.Method, r.URL.Path, in.req.Tag, oneLine(err.Error()))
		s.fail(w, api, http.StatusUnprocessableEntity, err.Error())
		return
	case err != nil:
		a = api.Error(err)
	default:
		id := sc.nextID(api)
		if a, err = api.Reply(st, id, in.stream); err != nil {
			s.unsendable(w, r, sc, api, in.req.Tag, err)
			return
		}
		if in.includeUsage {
			a = api.WithUsage(a, st.Response.Usage, id)
		}
		if api == llmwire.Responses && in.keep {
			sc.chain.keep(id, in.req, st.Response)
		}
	}
	s.logf("%s: %s %s: %s: %d", sc.sc.ID, r.Method, r.URL.Path, in.req.Tag, a.Status)
	switch err := a.Write(ctx, w, llmwire.Sleep); {
	case errors.Is(err, llmwire.ErrCut):
		panic(http.ErrAbortHandler) // the script's disconnect_after: drop the connection
	case err != nil:
		// A stream past Timeout, or a client gone: drop the connection,
		// for a body ended cleanly would read as the whole answer.
		s.logf("%s: %s %s: %s: the answer was cut short: %v", sc.sc.ID, r.Method, r.URL.Path, in.req.Tag, err)
		panic(http.ErrAbortHandler)
	}
}

// script answers the request from sc's steps; answered is false when a
// recorder is to answer it instead: every request with Only, else one no
// step answers.
func (s *Server) script(ctx context.Context, sc *script, in incoming) (st fakes.Stream, answered bool, err error) {
	rec := s.opts.Record
	switch {
	case rec == nil:
		st, err = sc.llm.CompleteStream(ctx, in.req)
		answered = true
	case rec.Only():
		return st, false, nil
	default:
		st, answered, err = sc.llm.TryStream(ctx, in.req)
	}
	return st.Replayed(s.opts.ReplaySpeed), answered, err
}

// record answers a request by the recorder: forwarded to the real model,
// the answer relayed and recorded for the scenario's file; an upstream
// that did not answer is 502 in the API's error shape.
func (s *Server) record(ctx context.Context, w http.ResponseWriter, r *http.Request, sc *script, api llmwire.Wire, in incoming) {
	s.forwarded.Add(1)
	s.logf("%s: %s %s: %s: recording", sc.sc.ID, r.Method, r.URL.Path, in.req.Tag)
	if err := s.opts.Record.Record(ctx, w, r.Header, sc.sc.File, api, api.Path(), in.body); err != nil {
		s.logf("%s: %s %s: %s: 502 %v", sc.sc.ID, r.Method, r.URL.Path, in.req.Tag, err)
		s.fail(w, api, http.StatusBadGateway, err.Error())
	}
}

// unsendable answers a request whose step's answer its wire cannot carry
// (a custom tool call asked on Chat Completions or Messages) with 422, as
// a request no step answers is, and records it as a problem of the
// scenario: the step is spent, the script was not followed.
func (s *Server) unsendable(w http.ResponseWriter, r *http.Request, sc *script, api llmwire.Wire, tag fmt.Stringer, err error) {
	s.logf("%s: %s %s: %s: 422 %v", sc.sc.ID, r.Method, r.URL.Path, tag, err)
	sc.unsent.add(fmt.Sprintf("answered %s %s: 422 %v", r.Method, clip(r.URL.Path), err))
	s.fail(w, api, http.StatusUnprocessableEntity, err.Error())
}

// fail writes an error in the API's error shape.
func (s *Server) fail(w http.ResponseWriter, api llmwire.Wire, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(errorBody(api, status, "toolout serve: "+msg))
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

// clip shortens text quoted in a message to at most 120 bytes.
func clip(s string) string {
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return fmt.Sprintf("%q", s)
}
