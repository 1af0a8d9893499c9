package proxy_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/internal/httpspec"
)

// messagesServer is an Anthropic-compatible scripted upstream, answering
// as one message or as a stream (anthropic.WriteStream).
func messagesServer(llm core.LLM) *httptest.Server {
	return scriptedUpstream(llm, anthropic.DecodeRequest, func(w http.ResponseWriter, resp core.Response, stream bool) {
		if !stream {
			_, _ = w.Write(anthropic.EncodeResponse(resp, "msg_1", "claude-test"))
			return
		}
		_ = anthropic.WriteStream(w, resp, "msg_1", "claude-test")
	})
}

func messagesBody(content string, stream bool) []byte {
	body, _ := json.Marshal(map[string]any{
		"model": "claude-test", "max_tokens": 1024, "stream": stream,
		"messages": []any{
			map[string]any{"role": "user", "content": "which host failed?"},
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": "logs", "input": map[string]any{}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": content}}},
		},
	})
	return body
}

var _ = Describe("the proxy on the Anthropic Messages API, end to end over loopback", func() {
	content := bigLog("db-7")
	shadow := gateway.ShadowID(content)

	serve := func() (string, *fakes.LLM) {
		llm := expandOnce(shadow, "toolu_x1", "db-7")
		base, _ := expandFront(llm, messagesServer, anthropic.Wire{})
		return base, llm
	}
	It("compresses a tool_result, answers expand_context inside, and returns only the final message", func() {
		base, llm := serve()
		resp, out := httpspec.Post(base+anthropic.Path, messagesBody(content, false))
		Expect(resp.StatusCode).To(Equal(200), out)
		final, err := anthropic.DecodeResponse([]byte(out))
		Expect(err).NotTo(HaveOccurred())
		expectFinalOnly(llm, final, out, "db-7 failed at line 333.")
	})

	It("streams: the client gets a complete Messages stream without the phantom call", func() {
		base, llm := serve()
		resp, out := httpspec.Post(base+anthropic.Path, messagesBody(content, true))
		Expect(resp.StatusCode).To(Equal(200), out)
		Expect(resp.Header.Get("Content-Type")).To(HavePrefix("text/event-stream"))
		Expect(out).NotTo(ContainSubstring("expand_context"))
		msg, err := anthropic.AssembleStream([]byte(out))
		Expect(err).NotTo(HaveOccurred(), "a stream the SDKs parse: message_start … message_stop")
		final, err := anthropic.DecodeResponse(msg)
		Expect(err).NotTo(HaveOccurred())
		Expect(final.Text).To(Equal("db-7 failed at line 333."))
		Expect(llm.Check()).To(Succeed())
	})

	It("refuses the same bodies as the OpenAI route, in the Messages API's error shape", func() {
		base, _ := serve()
		resp, out := httpspec.Post(base+anthropic.Path, `[]`)
		Expect(resp.StatusCode).To(Equal(http.StatusBadRequest))
		var e struct {
			Type  string `json:"type"`
			Error struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
		}
		Expect(json.Unmarshal([]byte(out), &e)).To(Succeed(), out)
		Expect(e.Type).To(Equal("error"))
		Expect(e.Error.Type).To(Equal("invalid_request_error"))
		Expect(e.Error.Message).To(ContainSubstring("must be a JSON object"))
	})

	It("forwards other paths under /v1/messages to the Anthropic upstream, not the default one", func() {
		openaiUp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "openai upstream") }))
		DeferCleanup(openaiUp.Close)
		anthUp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "anthropic upstream "+r.URL.Path) }))
		DeferCleanup(anthUp.Close)
		ou, _ := url.Parse(openaiUp.URL)
		au, _ := url.Parse(anthUp.URL)
		g := newGateway(true)
		p := proxy.New(g, ou, nil)
		p.Handle(&gateway.Gateway{Pipe: g.Pipe, Wire: anthropic.Wire{}, Expand: true}, au)
		front := httptest.NewServer(p)
		DeferCleanup(front.Close)
		_, out := httpspec.Post(front.URL+"/v1/messages/count_tokens", `{}`)
		Expect(out).To(Equal("anthropic upstream /v1/messages/count_tokens"))
	})
})
