package serve

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/fakes/llmwire"
)

// rejections are the requests refused with a 4xx of serve's own (400,
// 404, 405, 408, 413, 415: never reaching the script), kept for the
// report as the violations are: the first fakes.MaxKept, the rest
// counted.
type rejections struct {
	mu    sync.Mutex
	kept  []string // "rejected METHOD PATH: STATUS reason"
	total int
}

// add records one refusal.
func (rs *rejections) add(msg string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.total++
	if len(rs.kept) < fakes.MaxKept {
		rs.kept = append(rs.kept, msg)
	}
}

// problems returns the refusals as problems of a scenario at pos, then
// one that counts those not kept.
func (rs *rejections) problems(scenario, pos string) []Problem {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var out []Problem
	for _, m := range rs.kept {
		out = append(out, Problem{Scenario: scenario, Pos: pos, Msg: m})
	}
	if n := rs.total - len(rs.kept); n > 0 {
		out = append(out, Problem{Scenario: scenario, Pos: pos, Msg: fmt.Sprintf("%d more rejected request(s) not kept (at most %d are)", n, fakes.MaxKept)})
	}
	return out
}

func (rs *rejections) count() int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.total
}

// maxReason bounds the reason of a refusal kept for the report.
const maxReason = 512

// reject answers a refused request: a 4xx is recorded as a problem of
// the request's scenario (of the only one when it reached none, else of
// none) with its method, path (escaped, at most 120 bytes), status and
// reason on one line; any other status (503: busy or stopping) is only
// answered.
func (s *Server) reject(w http.ResponseWriter, r *http.Request, sc *script, api llmwire.Wire, status int, msg string) {
	if status >= 400 && status < 500 {
		if sc == nil && len(s.scripts) == 1 {
			sc = s.scripts[0]
		}
		rs := &s.unrouted
		if sc != nil {
			rs = &sc.rejected
		}
		path := r.URL.EscapedPath()
		if len(path) > 120 {
			path = path[:120] + "..."
		}
		reason := oneLine(msg)
		if len(reason) > maxReason {
			reason = fakes.Quote(reason)
		}
		rs.add(fmt.Sprintf("rejected %s %s: %d %s", r.Method, path, status, reason))
	}
	s.fail(w, api, status, msg)
}

// Rejected returns how many requests every scenario (and none) refused
// with a 4xx of serve's own so far (a request no step answers, 422, is a
// violation of its script instead).
func (s *Server) Rejected() int {
	n := s.unrouted.count()
	for _, sc := range s.scripts {
		n += sc.rejected.count()
	}
	return n
}
