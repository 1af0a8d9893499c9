package serve_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/toolout/toolout/harness/serve"
)

// FuzzRequest sends any body, route, content type and X-Toolout-Tag to a
// Server serving the over-cap-handle and stream scenarios (no step there
// waits or cuts its stream), and checks the contract on the answer: a
// status from the documented set; a JSON answer is a JSON object in the
// API's shape (an "error" object for an error); a stream is
// text/event-stream; a request refused before matching (400, 404, 405,
// 413, 415) leaves the scripts untouched and is counted as rejected,
// which no other answer is; count_tokens never asks the script either,
// and its 200 is {"input_tokens": N}. Seeds: the specs' requests of the
// three APIs, streaming or not, broken forms of them, Claude Code's
// requests, and Codex-like Responses requests.
func FuzzRequest(f *testing.F) {
	load := func() *serve.Server {
		srv, err := serve.Load([]string{overCap, streamScenario}, serve.Options{MaxBodyBytes: 64 << 10})
		if err != nil {
			f.Fatal(err)
		}
		return srv
	}
	srv := load()
	addRequestSeeds(f)
	routes := []string{"/session/over-cap-handle/v1/chat/completions", "/session/over-cap-handle/v1/messages",
		"/stream/v1/chat/completions", "/stream/v1/messages", "/v1/chat/completions", "/stream/v1/models", "/stream/v1/x",
		"/session/over-cap-handle/v1/messages?beta=true", "/stream/v1/messages/count_tokens?beta=true",
		"/session/over-cap-handle/v1/responses", "/stream/v1/responses?api-version=1"}
	f.Fuzz(func(t *testing.T, route uint8, body, contentType, tag string) {
		path := routes[int(route)%len(routes)]
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		if tag != "" {
			req.Header.Set(serve.TagHeader, tag)
		}
		before := len(srv.Calls("session/over-cap-handle")) + len(srv.Calls("stream"))
		if before > 1000 || srv.Rejected() > 1000 { // a server records every call: a fresh one bounds the memory of a long run
			srv, before = load(), 0
		}
		rejected := srv.Rejected()
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		after := len(srv.Calls("session/over-cap-handle")) + len(srv.Calls("stream"))
		code, ct := rec.Code, rec.Header().Get("Content-Type")
		if !slices.Contains([]int{200, 400, 404, 405, 413, 415, 422, 429, 500, 504}, code) {
			t.Fatalf("%s %q: status %d", path, body, code)
		}
		if slices.Contains([]int{400, 404, 405, 413, 415}, code) && after != before {
			t.Fatalf("%s %q: refused with %d, yet the script was asked", path, body, code)
		}
		if refused := slices.Contains([]int{400, 404, 405, 413, 415}, code); refused != (srv.Rejected() == rejected+1) {
			t.Fatalf("%s %q: status %d, rejected count %d -> %d", path, body, code, rejected, srv.Rejected())
		}
		if strings.Contains(path, "/count_tokens") && (after != before || code == 200 && !strings.HasPrefix(rec.Body.String(), `{"input_tokens":`)) {
			t.Fatalf("%s %q: count_tokens answered %d %q, the script asked %d times", path, body, code, rec.Body.String(), after-before)
		}
		switch ct {
		case "text/event-stream":
			if code != 200 || !strings.HasPrefix(rec.Body.String(), "data: ") && !strings.HasPrefix(rec.Body.String(), "event: ") {
				t.Fatalf("%s %q: a stream with status %d: %q", path, body, code, rec.Body.String())
			}
		case "application/json":
			var v map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
				t.Fatalf("%s %q: answer %q is not a JSON object: %v", path, body, rec.Body.String(), err)
			}
			if _, isErr := v["error"]; code != 200 && !isErr {
				t.Fatalf("%s %q: status %d without an error object: %q", path, body, code, rec.Body.String())
			}
		default:
			t.Fatalf("%s %q: content type %q", path, body, ct)
		}
	})
}

// addRequestSeeds adds FuzzRequest's seeds: route index, body, content
// type and tag header.
func addRequestSeeds(f *testing.F) {
	bodies := []string{openaiTurn1, openaiTurn2, anthropicTurn1, anthropicTurn2, openaiStream("whole", `,"stream_options":{"include_usage":true}`),
		anthropicStream("whole"), openaiStream("error", ""), `{"messages":[]}`, `[`, `{"max_tokens":1}`, strings.Repeat("[", 300), ""}
	for i, b := range bodies {
		f.Add(uint8(i), b, "application/json", []string{"", "session.turn turn=2", "extract.map chunk=2/5", "turn=0"}[i%4])
	}
	f.Add(uint8(0), openaiTurn1, "text/plain", "")
	f.Add(uint8(3), anthropicTurn1, "application/json; charset=utf-8", "session.turn\tturn=1")
	f.Add(uint8(0), openaiTurn2, "application/json", "session.turn turn=2 round=2")
	f.Add(uint8(0), "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", "application/json", "") // a gzip body sent without its Content-Encoding
	// Claude Code's requests, to /v1/messages?beta=true and to
	// count_tokens, and a system message inside messages[].
	for i, name := range []string{"turn1.json", "turn2.json", "budgeted.json", "count_tokens.json"} {
		data, err := os.ReadFile("../../core/gateway/anthropic/testdata/claude-code/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(7+i%2), string(data), "application/json", "")
	}
	f.Add(uint8(8), `{"messages":[{"role":"user","content":"Count ERROR lines per host."},{"role":"system","content":[{"type":"text","text":"env"}]}]}`, "application/json", "")
	// The Responses wire, Codex-like turns, streamed or not, a
	// continuation, faults, and broken items.
	for i, b := range []string{respTurn1, respTurn2, respUser("whole", `,"stream":true`), respUser("error", `,"stream":true`),
		`{"model":"m","previous_response_id":"resp_1","input":[{"type":"function_call_output","call_id":"call-1","output":"x"}]}`,
		`{"model":"m","input":[{"type":7}]}`, `{"model":"m","input":{"role":"user"}}`, `{"input":"x","store":"no"}`} {
		f.Add(uint8(9+i%2), b, "application/json", "")
	}
	// Values of the wrong JSON type, which once got a 400
	// quoting a Go struct type.
	for _, b := range []string{`{"messages":[{"role":1}]}`, `{"messages":{}}`, `{"max_tokens":1.5,"messages":[]}`,
		`{"messages":[{"role":"user","content":"x"}],"stream_options":5}`, "{\"messages\":[\r\n[1]]}"} {
		f.Add(uint8(0), b, "application/json", "")
	}
}
