package proxy_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/internal/gatewaytest"
)

var _ = Describe("Poster, the api compressor's POST", func() {
	It("posts the output and reads the compressed text, honoring query_agnostic", func() {
		var got map[string]string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			Expect(r.Header.Get("Authorization")).To(Equal("Bearer k"))
			Expect(json.NewDecoder(r.Body).Decode(&got)).To(Succeed())
			fmt.Fprint(w, `{"compressed":"short"}`)
		}))
		DeferCleanup(srv.Close)
		out, err := gateway.API{Endpoint: srv.URL, APIKey: "k", Model: "m1", QueryAgnostic: true, Post: proxy.Poster(nil)}.Compress(ctx, gateway.Input{Tool: "t", Content: "long", Query: "q"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("short"))
		Expect(got).To(Equal(map[string]string{"model": "m1", "tool_name": "t", "content": "long"}))
	})

	It("fails on a timeout or a bad answer, which the pipe turns into passthrough", func() {
		// The handler reads the body first: only then does net/http watch
		// the connection and cancel r.Context() when the client gives up.
		// (Unread, the handler sat out a 5 s timer, and slow.Close waited
		// for it.) stop releases it in any case before the server closes;
		// the timer is reached only when the client ignores its Timeout, so
		// that such a defect fails the spec instead of hanging it.
		stop := make(chan struct{})
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-stop:
			case <-time.After(10 * time.Second):
			}
		}))
		DeferCleanup(slow.Close)
		DeferCleanup(func() { close(stop) }) // runs first: cleanups run last first
		_, err := gateway.API{Endpoint: slow.URL, Timeout: 20 * time.Millisecond, Post: proxy.Poster(nil)}.Compress(ctx, gateway.Input{Content: "x"})
		Expect(err).To(MatchError(ContainSubstring("context deadline exceeded")))
		bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503); fmt.Fprint(w, "down") }))
		DeferCleanup(bad.Close)
		p := gatewaytest.NewPipe(gateway.Config{}, gateway.API{Endpoint: bad.URL, Post: proxy.Poster(nil)})
		res, err := p.Process(ctx, []gateway.ToolOutput{{Content: gatewaytest.Sized(5000)}}, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(res[0].Reason).To(Equal("compression failed, fallback passthrough: api compressor: 503 Service Unavailable: down"))
	})
})
