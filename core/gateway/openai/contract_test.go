package openai_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/internal/llmtest"
)

// The chat-completions client keeps the core.LLM contract against a server
// that speaks the OpenAI wire format: concurrent use, an ended context
// refused before any request is sent, well-formed answers.
func TestClientKeepsTheContract(t *testing.T) {
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path != "/v1/chat/completions" || !strings.Contains(string(body), `"model":"m"`) {
			http.Error(w, "unexpected request: "+r.URL.Path+" "+string(body), http.StatusBadRequest)
			return
		}
		sent.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"tool_calls",`+
			`"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search","arguments":"{\"q\":\"x\"}"}}]}}],`+
			`"usage":{"prompt_tokens":12,"completion_tokens":5}}`)
	}))
	defer srv.Close()
	c := openai.Client{BaseURL: srv.URL + "/v1", Model: "m", HTTP: srv.Client()}
	req := core.Request{Tag: core.Tag{Site: core.SiteGatewayCompress}, Messages: []core.Message{{Role: core.RoleUser, Content: "find x"}}}
	if err := llmtest.TestLLM(c, req); err != nil {
		t.Fatal(err)
	}
	if n := sent.Load(); n != llmtest.Calls {
		t.Fatalf("the server answered %d requests: want the %d concurrent ones only (an ended context sends nothing)", n, llmtest.Calls)
	}
}
