package proxy_test

import (
	"bytes"
	"context"
	"io"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/internal/httpspec"
)

var _ = Describe("faults, and the status the client receives", func() {
	// through starts a proxy in front of up and posts body to it.
	through := func(up http.HandlerFunc, body []byte) (*http.Response, string, *events) {
		front, ev := proxyFront(proxy.Limits{}, up)
		resp, out := httpspec.Post(front+openai.Path, body)
		return resp, out, ev
	}
	big := chatBody("1", "logs__query", bigLog("db-1"), false)
	bigStream := chatBody("1", "logs__query", bigLog("db-1"), true)

	DescribeTable("upstream faults",
		func(body []byte, up http.HandlerFunc, code int, header, value, contains string) {
			resp, out, ev := through(up, body)
			Expect(resp.StatusCode).To(Equal(code))
			if header != "" {
				Expect(resp.Header.Get(header)).To(Equal(value))
			}
			Expect(out).To(ContainSubstring(contains))
			req, _ := ev.snapshot()
			Expect(req).To(Equal([]string{"openai/upstream_error"}))
		},
		Entry("500 is relayed with its body", big, func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, `{"error":{"message":"boom"}}`, http.StatusInternalServerError)
		}, 500, "", "", "boom"),
		Entry("429 is relayed with Retry-After", big, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Retry-After", "7")
			http.Error(w, `{"error":{"type":"rate_limit"}}`, http.StatusTooManyRequests)
		}, 429, "Retry-After", "7", "rate_limit"),
		Entry("a connection reset mid-body is 502", big, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", "1000")
			_, _ = io.WriteString(w, `{"choices":[{"message":`)
			conn, _, err := http.NewResponseController(w).Hijack()
			Expect(err).NotTo(HaveOccurred())
			conn.Close()
		}, 502, "", "", "reading the response"),
		Entry("a stream cut before anything was relayed (a tool call is held) is 502, never a partial answer", bigStream, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"logs__query","arguments":"{"}}]}}]}`+"\n\n")
		}, 502, "", "", "cut"),
		Entry("malformed JSON is 502", big, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"choices":[{"message":{"content":"hi"}]`)
		}, 502, "", "", "invalid JSON"),
	)

	It("cancels the upstream call when the client goes away mid-request", func() {
		arrived, canceled := make(chan struct{}), make(chan struct{})
		front, ev := proxyFront(proxy.Limits{}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body) // a server sees a closed connection only once it has read the body
			close(arrived)
			<-r.Context().Done()
			close(canceled)
		}))
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, front+openai.Path, bytes.NewReader(bigStream))
		errc := make(chan error, 1)
		go func() {
			resp, err := http.DefaultClient.Do(req)
			if err == nil {
				resp.Body.Close()
			}
			errc <- err
		}()
		<-arrived
		cancel()
		Expect(<-errc).To(MatchError(context.Canceled))
		<-canceled // the upstream saw the cancellation: no work left running
		Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(Equal([]string{"openai/canceled"}))
	})
})
