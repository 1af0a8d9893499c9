package llmwire_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/fakes/llmwire"
)

// A scripted step answers a streaming Chat Completions request in two
// chunks and its connection drops after the first (disconnect_after: 1);
// an HTTP client reads the head chunk, the first delta, then the drop.
func ExampleWire_Reply() {
	text := "Request 1077 failed."
	llm, err := fakes.NewLLM([]fakes.Step{{ID: "answer", Respond: fakes.Respond{Text: &text,
		Stream: &fakes.StreamSpec{Chunks: 2, DisconnectAfter: new(1)}}}}, fakes.Options{})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req, stream, err := llmwire.OpenAI.Decode(body, core.Tag{Site: core.SiteGatewayUpstream})
		if err != nil {
			llmwire.OpenAI.BadRequest(err).ServeHTTP(w, r)
			return
		}
		s, err := llm.CompleteStream(r.Context(), req)
		if err != nil {
			llmwire.OpenAI.Error(err).ServeHTTP(w, r)
			return
		}
		a, _ := llmwire.OpenAI.Reply(s, llmwire.OpenAI.ID(1), stream)
		a.ServeHTTP(w, r)
	}))
	defer srv.Close()

	resp, err := http.Post(srv.URL+llmwire.OpenAI.Path(), "application/json",
		strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"Why did 1077 fail?"}]}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"))
	fmt.Print(string(got))
	fmt.Println("read:", err)
	// Output:
	// 200 text/event-stream
	// data: {"choices":[{"delta":{"content":"","role":"assistant"},"finish_reason":null,"index":0}],"id":"cmpl-1","model":"scripted","object":"chat.completion.chunk"}
	//
	// data: {"choices":[{"delta":{"content":"Request 10"},"finish_reason":null,"index":0}],"id":"cmpl-1","model":"scripted","object":"chat.completion.chunk"}
	//
	// read: unexpected EOF
}
