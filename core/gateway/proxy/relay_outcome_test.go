package proxy_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// A stream relayed without being parsed (its request offers no
// expand_context) is still counted by what it held.
var _ = Describe("the outcome of a stream relayed as it came", func() {
	stream := func(events string) (string, []string) {
		base, ev := proxyFront(proxy.Limits{}, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, events)
		})
		resp, err := http.Post(base+openai.Path, "application/json", strings.NewReader(string(chatBody("1", "t", "a small tool result", true))))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		req, _ := ev.snapshot()
		return string(got), req
	}
	text := `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"the \"error\": key"}}]}` + "\n\n"

	It("is ok for a stream of text, even one that talks about errors", func() {
		got, req := stream(text + "data: [DONE]\n\n")
		Expect(got).To(Equal(text + "data: [DONE]\n\n"))
		Expect(req).To(Equal([]string{"openai/" + proxy.OutcomeOK}))
	})

	It("is upstream_error for a stream that holds the upstream's mid-stream error chunk, relayed as it came", func() {
		failed := text + `data: {"error":{"message":"the model is overloaded","type":"server_error"}}` + "\n\n"
		got, req := stream(failed)
		Expect(got).To(Equal(failed))
		Expect(req).To(Equal([]string{"openai/" + proxy.OutcomeUpstreamError}))
	})

	It("is upstream_error for a stream that holds an error event", func() {
		failed := text + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}\n\n"
		got, req := stream(failed)
		Expect(got).To(Equal(failed))
		Expect(req).To(Equal([]string{"openai/" + proxy.OutcomeUpstreamError}))
	})
})

// A stream cut after part of it reached the client must not look whole to
// the client: the official OpenAI Node SDK returns the text so far without
// an error when a stream simply ends (checked by hand against openai
// 6.49), so the proxy drops the connection instead of ending the response.
var _ = Describe("a stream cut after part of it reached the client", func() {
	text := `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"The failing host is"}}]}` + "\n\n"
	// cut: the model's connection drops after the text (no finish_reason,
	// no [DONE], and no end of the chunked body).
	cut := func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, text)
		_ = http.NewResponseController(w).Flush()
		panic(http.ErrAbortHandler)
	}
	read := func(body []byte) (string, error, []string) {
		base, ev := proxyFront(proxy.Limits{}, cut)
		resp, err := http.Post(base+openai.Path, "application/json", bytes.NewReader(body))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		got, err := io.ReadAll(resp.Body)
		req, _ := ev.snapshot()
		return string(got), err, req
	}

	It("is aborted when relayed as it came: the client has the text and a transport error, and the request counts as upstream_error", func() {
		got, err, req := read(chatBody("1", "t", "a small tool result", true))
		Expect(got).To(Equal(text))
		Expect(err).To(MatchError(io.ErrUnexpectedEOF))
		Expect(req).To(Equal([]string{"openai/" + proxy.OutcomeUpstreamError}))
	})

	It("is aborted when relayed event by event (the request offers expand_context)", func() {
		got, err, req := read(chatBody("1", "logs__query", bigLog("db-1"), true))
		Expect(got).To(Equal(text))
		Expect(err).To(MatchError(io.ErrUnexpectedEOF))
		Expect(req).To(Equal([]string{"openai/" + proxy.OutcomeUpstreamError}))
	})

	It("is aborted when the model's response ends, cleanly, before its stream is whole (no finish_reason, no [DONE])", func() {
		base, ev := proxyFront(proxy.Limits{}, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, text)
		})
		resp, err := http.Post(base+openai.Path, "application/json", bytes.NewReader(chatBody("1", "logs__query", bigLog("db-1"), true)))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		Expect(string(got)).To(Equal(text))
		Expect(err).To(MatchError(io.ErrUnexpectedEOF))
		req, _ := ev.snapshot()
		Expect(req).To(Equal([]string{"openai/" + proxy.OutcomeUpstreamError}))
	})

	It("is not aborted when it ends whole", func() {
		base, _ := proxyFront(proxy.Limits{}, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, text+"data: [DONE]\n\n")
		})
		resp, err := http.Post(base+openai.Path, "application/json", bytes.NewReader(chatBody("1", "t", "a small tool result", true)))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(text + "data: [DONE]\n\n"))
	})
})
