package httpspec_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/httpspec"
)

var _ = Describe("Send", func() {
	// echo answers with the request's method, path, content type and body,
	// and the status the path names (/418 → 418).
	echo := func() string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			status := http.StatusOK
			_, _ = fmt.Sscanf(r.URL.Path, "/%d", &status)
			w.WriteHeader(status)
			fmt.Fprintf(w, "%s %s %s [%s]", r.Method, r.URL.Path, r.Header.Get("Content-Type"), body)
		}))
		DeferCleanup(srv.Close)
		return srv.URL
	}

	It("sends the method, content type and body, and returns the whole answer", func() {
		resp, body := httpspec.Send(http.MethodPut, echo()+"/x", "text/plain", []byte("hello"))
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(body).To(Equal("PUT /x text/plain [hello]"))
	})

	It("returns an error status as an answer", func() {
		resp, body := httpspec.Post(echo()+"/503", `{}`)
		Expect(resp.StatusCode).To(Equal(http.StatusServiceUnavailable))
		Expect(body).To(Equal("POST /503 application/json [{}]"))
	})

	It("asks with GET, without a body or a content type", func() {
		_, body := httpspec.Get(echo() + "/v1/models")
		Expect(body).To(Equal("GET /v1/models  []"))
	})

	It("fails the spec, naming the error, when no response comes", func() {
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close()
		err := InterceptGomegaFailure(func() { httpspec.Post(url, "{}") })
		Expect(err).To(MatchError(ContainSubstring("connection refused")))
	})
})

var _ = Describe("Send's bounds", func() {
	It("fails the spec when the body breaks off", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", "100")
			_, _ = io.WriteString(w, "only part")
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil { // no Expect here: the spec swaps the fail handler
				conn.Close()
			}
		}))
		DeferCleanup(srv.Close)
		err := InterceptGomegaFailure(func() { httpspec.Get(srv.URL + "/cut") })
		Expect(err).To(MatchError(ContainSubstring("reading the body of GET " + srv.URL + "/cut")))
	})
})

var _ = Describe("Log", func() {
	It("keeps every line of concurrent writers and hands out copies", func() {
		var log httpspec.Log
		Expect(log.Lines()).To(BeEmpty())
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := range 50 {
					log.Logf("writer %d line %d", w, i)
					_ = log.Lines()
				}
			})
		}
		wg.Wait()
		lines := log.Lines()
		Expect(lines).To(HaveLen(400))
		Expect(lines).To(ContainElements("writer 0 line 0", "writer 7 line 49"))
		lines[0] = "changed"
		Expect(log.Lines()).NotTo(ContainElement("changed"))
	})
})
