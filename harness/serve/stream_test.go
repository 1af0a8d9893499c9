package serve_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/harness/serve"
	"github.com/toolout/toolout/internal/httpspec"
)

const streamScenario = "testdata/stream.yaml"

func openaiStream(who string, extra string) string {
	return `{"model":"m","stream":true` + extra + `,"messages":[{"role":"user","content":"` + who + `"}]}`
}

func anthropicStream(who string) string {
	return `{"model":"m","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"` + who + `"}]}`
}

var _ = Describe("toolout serve's streams", func() {
	It("streams an OpenAI answer as chunks, with the usage chunk when stream_options.include_usage is set", func() {
		r := start(serve.Options{}, streamScenario)
		a := post(r.base+"/v1/chat/completions", openaiStream("whole", `,"stream_options":{"include_usage":true}`))
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get("Content-Type")).To(Equal("text/event-stream"))
		Expect(a.body).To(HavePrefix(`data: {"choices":[{"delta":{"content":"","role":"assistant"},"finish_reason":null,"index":0}],"id":"cmpl-1"`))
		Expect(strings.Count(a.body, `"delta":{"content":`)).To(Equal(4), "the head and 3 pieces of text")
		Expect(strings.Count(a.body, `"arguments":`)).To(Equal(3), "3 pieces of arguments")
		Expect(a.body).To(MatchRegexp(`data: \{"choices":\[\],"id":"cmpl-1","model":"scripted","object":"chat.completion.chunk","usage":\{"completion_tokens":\d+,"prompt_tokens":\d+,"total_tokens":\d+\}\}\n\ndata: \[DONE\]\n\n$`))
		msg, err := openai.Wire{}.Assemble([]byte(a.body))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(msg)).To(ContainSubstring(`"content":"Request 1077 failed."`))
		Expect(string(msg)).To(ContainSubstring(`"arguments":"{\"since\":\"1h\"}"`))

		a = post(r.base+"/v1/chat/completions", openaiStream("whole", ""))
		Expect(a.body).NotTo(ContainSubstring("usage"), "no usage chunk unless asked")
		Expect(a.body).To(HaveSuffix("data: [DONE]\n\n"))
	})

	It("streams an Anthropic answer as its events", func() {
		r := start(serve.Options{}, streamScenario)
		a := post(r.base+"/v1/messages", anthropicStream("whole"))
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get("Content-Type")).To(Equal("text/event-stream"))
		Expect(a.body).To(HavePrefix("event: message_start\ndata: "))
		Expect(a.body).To(HaveSuffix("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"))
		msg, err := anthropic.AssembleStream([]byte(a.body))
		Expect(err).NotTo(HaveOccurred())
		resp, err := anthropic.DecodeResponse(msg)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("Request 1077 failed."))
		Expect(resp.ToolCalls).To(HaveLen(1))
		Expect(string(resp.ToolCalls[0].Arguments)).To(Equal(`{"since":"1h"}`))
	})

	It("answers a streaming step without a stream to a request that does not ask for one", func() {
		r := start(serve.Options{}, streamScenario)
		a := post(r.base+"/v1/chat/completions", `{"messages":[{"role":"user","content":"whole"}]}`)
		Expect(a.status).To(Equal(http.StatusOK))
		Expect(a.header.Get("Content-Type")).To(Equal("application/json"))
		Expect(a.json()).To(HaveKeyWithValue("object", "chat.completion"))
	})

	It("ends a stream with the wire's error event after error_after chunks", func() {
		r := start(serve.Options{}, streamScenario)
		a := post(r.base+"/v1/chat/completions", openaiStream("error", ""))
		Expect(a.status).To(Equal(http.StatusOK))
		Expect(a.body).To(HaveSuffix(`data: {"error":{"code":null,"message":"scripted stream error after 1 chunk(s)","type":"server_error"}}` + "\n\n"))
		_, err := openai.Wire{}.Assemble([]byte(a.body))
		Expect(err).To(HaveOccurred())
		a = post(r.base+"/v1/messages", anthropicStream("error"))
		Expect(a.body).To(HaveSuffix("event: error\ndata: {\"error\":{\"message\":\"scripted stream error after 1 chunk(s)\",\"type\":\"api_error\"},\"type\":\"error\"}\n\n"))
	})

	It("drops the connection after disconnect_after chunks, and goes on serving", func() {
		r := start(serve.Options{}, streamScenario)
		for _, c := range []struct{ path, body string }{{"/v1/chat/completions", openaiStream("disconnect", "")}, {"/v1/messages", anthropicStream("disconnect")}} {
			resp, err := http.Post(r.base+c.path, "application/json", strings.NewReader(c.body))
			Expect(err).NotTo(HaveOccurred())
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			Expect(err).To(MatchError(io.ErrUnexpectedEOF), string(b))
			Expect(string(b)).To(ContainSubstring("Request 10"))
			Expect(string(b)).NotTo(ContainSubstring("failed."))
		}
		Expect(post(r.base+"/v1/chat/completions", openaiStream("whole", "")).status).To(Equal(http.StatusOK))
	})

	It("lets a client go away mid-stream: the write fails, the request ends and frees its place", func() {
		text := strings.Repeat("abcde", 5000)
		file := filepath.Join(GinkgoT().TempDir(), "long.yaml")
		Expect(os.WriteFile(file, []byte(fmt.Sprintf("component: session\ninput: {user: hi}\nllm:\n- id: long\n  match: {user: [long]}\n"+
			"  respond:\n    text: %s\n    stream: {chunks: 5000}\n- id: after\n  match: {user: [after]}\n  respond: {text: ok}\n", text)), 0o644)).To(Succeed())
		ln, err := serve.Listen("127.0.0.1:0", false)
		Expect(err).NotTo(HaveOccurred())
		var log httpspec.Log
		// Small socket buffers on both ends: the stream's 600 KB of
		// events cannot all sit in the kernel, so the server is still
		// writing when the client goes.
		r := startOn(smallBuffers{ln}, serve.Options{MaxConcurrent: 1, Logf: log.Logf}, file)
		client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err == nil {
				err = c.(*net.TCPConn).SetReadBuffer(4096)
			}
			return c, err
		}}}
		req, err := http.NewRequest(http.MethodPost, r.base+"/v1/chat/completions", strings.NewReader(openaiStream("long", "")))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		Expect(err).NotTo(HaveOccurred())
		first, err := bufio.NewReader(resp.Body).ReadString('\n')
		Expect(err).NotTo(HaveOccurred())
		Expect(first).To(HavePrefix("data: "))
		Expect(resp.Body.Close()).To(Succeed()) // the rest is not read: the connection closes
		Eventually(log.Lines).WithTimeout(30 * time.Second).Should(ContainElement(MatchRegexp(`^long: POST /v1/chat/completions: session.turn turn=1: the answer was cut short: `)))
		Eventually(func() int {
			return post(r.base+"/v1/chat/completions", `{"messages":[{"role":"user","content":"after"}]}`).status
		}).WithTimeout(30*time.Second).WithPolling(20*time.Millisecond).Should(Equal(http.StatusOK), "the stream's request ended and left its place")
	})
})

// smallBuffers sets a 4 KiB send buffer on every connection it accepts.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		err = c.(*net.TCPConn).SetWriteBuffer(4096)
	}
	return c, err
}
