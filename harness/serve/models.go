package serve

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/toolout/toolout/fakes/llmwire"
)

// Model is the id GET /v1/models lists, the model every answer names
// (llmwire.Model). The scripted model answers a request naming any model,
// and GET /v1/models/ID answers for any ID.
const Model = llmwire.Model

// modelCreated is the models' creation time: 2026-01-01T00:00:00Z, the
// fakes' clock start, so that the listing is the same on every run.
const (
	modelCreated   = 1767225600
	modelCreatedAt = "2026-01-01T00:00:00Z"
)

// models answers GET /v1/models (the list) and GET /v1/models/ID (one
// model), in the OpenAI shape, or the Anthropic one when the request
// carries anthropic-version (as the Anthropic SDKs' requests do).
func (s *Server) models(w http.ResponseWriter, r *http.Request, sc *script, a llmwire.Wire, id string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.reject(w, r, sc, a, http.StatusMethodNotAllowed, r.Method+" "+clip(r.URL.Path)+": want GET")
		return
	}
	name := Model
	if id != "" {
		unescaped, err := url.PathUnescape(id)
		if err != nil || len(unescaped) > 256 {
			s.reject(w, r, sc, a, http.StatusNotFound, "model "+clip(id)+": not a model id")
			return
		}
		name = unescaped
	}
	model := func() map[string]any {
		if a == llmwire.Anthropic {
			return map[string]any{"type": "model", "id": name, "display_name": "toolout scripted model", "created_at": modelCreatedAt}
		}
		return map[string]any{"id": name, "object": "model", "created": modelCreated, "owned_by": "toolout"}
	}
	var out any = model()
	if id == "" && a == llmwire.Anthropic {
		out = map[string]any{"data": []any{model()}, "has_more": false, "first_id": name, "last_id": name}
	} else if id == "" {
		out = map[string]any{"object": "list", "data": []any{model()}}
	}
	body, _ := json.Marshal(out)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
