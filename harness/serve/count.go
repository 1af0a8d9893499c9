package serve

import (
	"net/http"
	"strconv"

	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/fakes/llmwire"
)

// countTokens answers POST /v1/messages/count_tokens (Claude Code asks it,
// e.g. before it reads a large file) with {"input_tokens": N}: the count
// of the request's texts that the answer to the same body would report as
// its usage.input_tokens (fakes.Texts: every message's content joined by
// "\n", the system text included; cl100k_base). The body is read and
// refused as a message's is (405, 415, 413, 408, 400, in the Anthropic
// error shape, each counted as rejected); the request asks no step, so it
// spends none and is no violation.
func (s *Server) countTokens(w http.ResponseWriter, r *http.Request, sc *script) {
	api := llmwire.Anthropic
	release, ok := s.admit(w, r, sc, api)
	if !ok {
		return
	}
	defer release()
	in, status, err := s.decode(w, r, api)
	if err != nil {
		s.logf("%s: %s %s: %d %v", sc.sc.ID, r.Method, r.URL.Path, status, err)
		s.reject(w, r, sc, api, status, err.Error())
		return
	}
	_, _, all := fakes.Texts(in.req)
	n := s.tk.Count(all)
	s.logf("%s: %s %s: count_tokens: 200 (%d tokens)", sc.sc.ID, r.Method, r.URL.Path, n)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"input_tokens":` + strconv.Itoa(n) + `}`))
}
