package toolouttest

import (
	"net/http/httptest"
	"testing"

	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/harness/serve"
)

// Server is one scenario's scripted model served over HTTP in process,
// for an agent under test that speaks the OpenAI or Anthropic wire.
type Server struct {
	// URL is the server's root, http://127.0.0.1:PORT: the base URL an
	// Anthropic SDK takes (ANTHROPIC_BASE_URL), which posts to
	// URL/v1/messages.
	URL string
	// OpenAIBaseURL is URL + "/v1": the base URL an OpenAI SDK takes
	// (OPENAI_BASE_URL), for Chat Completions (POST /chat/completions)
	// and Responses (POST /responses) alike.
	OpenAIBaseURL string

	srv *serve.Server
	id  string
}

// Serve serves the scenario file's llm steps on a loopback port until t
// ends, as `toolout serve FILE` does (see harness/serve for the routes,
// the matching and the answers). At the end of t it stops the server and
// fails t with every breach of the script (Server.Check): a request no
// step answered, a step left unused, a request refused. A file that does
// not load fails t at once.
func Serve(t testing.TB, file string) *Server {
	t.Helper()
	srv, err := serve.Load([]string{file}, serve.Options{KeepRequests: true})
	if err != nil {
		t.Fatalf("toolouttest: %v", err)
	}
	ts := httptest.NewServer(srv)
	s := &Server{URL: ts.URL, OpenAIBaseURL: ts.URL + "/v1", srv: srv, id: srv.Bases()[0].Scenario}
	t.Cleanup(func() {
		ts.Close()
		_ = srv.Close()
		if err := srv.Check(); err != nil {
			t.Errorf("toolouttest: %s did not go as scripted:\n%v", file, err)
		}
	})
	return s
}

// Calls returns the requests the server has answered or refused so far,
// in arrival order, each with the step that answered it (empty when none
// did), the request as the scripted model saw it (its tag, messages and
// tools) and the response.
func (s *Server) Calls() []fakes.Call { return s.srv.Calls(s.id) }

// Check returns every breach of the script so far, one per line, or nil;
// the server checks it again when the test ends.
func (s *Server) Check() error { return s.srv.Check() }
