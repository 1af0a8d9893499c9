package serve_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/serve"
	"github.com/toolout/toolout/internal/httpspec"
)

var _ = Describe("toolout serve's bounds", func() {
	DescribeTable("refuses a hostile request in the API's error shape, spending no step",
		func(path, body string, header []string, status int, msg string) {
			r := start(serve.Options{MaxBodyBytes: 1 << 20}, overCap)
			a := post(r.base+path, body, header...)
			Expect(a.status).To(Equal(status), a.body)
			Expect(a.header.Get("Content-Type")).To(Equal("application/json"))
			Expect(a.json()).To(HaveKeyWithValue("error", HaveKeyWithValue("message", ContainSubstring(msg))))
			if path == "/v1/messages" {
				Expect(a.json()).To(HaveKeyWithValue("type", "error"))
			}
			Expect(r.srv.Calls("session/over-cap-handle")).To(BeEmpty(), "the script was not asked")
			Expect(post(r.base+"/v1/chat/completions", openaiTurn1).status).To(Equal(http.StatusOK), "the server still answers")
		},
		func(path, _ string, _ []string, status int, msg string) string { return path + ": " + msg },
		Entry(nil, "/v1/chat/completions", strings.Repeat(" ", 1<<20+1)+"{}", nil, 413, "request body larger than 1048576 bytes"),
		Entry(nil, "/v1/messages", `{"messages":[`+strings.Repeat(`"a",`, 300_000)+`]}`, nil, 413, "request body larger than 1048576 bytes"),
		Entry(nil, "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}]`, nil, 400, "openai: chat request: unexpected end of JSON input"),
		Entry(nil, "/v1/chat/completions", `{"messages":"no"}`, nil, 400, "messages: want an array, got a string"),
		Entry(nil, "/v1/chat/completions", `{"messages":[]}`, nil, 400, "messages: want at least one message"),
		Entry(nil, "/v1/chat/completions", strings.Repeat("[", 300)+strings.Repeat("]", 300), nil, 400, "JSON nested deeper than 256 levels"),
		Entry(nil, "/v1/chat/completions", `{"x":[`+strings.Repeat(`0,`, 200_001)+`0]}`, nil, 413, "more than 200000 JSON values"),
		Entry(nil, "/v1/messages", `{"max_tokens":1,"messages":[{"role":"robot","content":"x"}]}`, nil, 400, `want role "user", "assistant" or "system", got "robot"`),
		Entry(nil, "/v1/messages", `{"max_tokens":1}`, nil, 400, "no messages array"),
		Entry(nil, "/v1/chat/completions", openaiTurn1, []string{"Content-Type", "text/plain"}, 415, `content type "application/json, text/plain"`),
		Entry(nil, "/v1/chat/completions", "\x1f\x8b\x08\x00", []string{"Content-Encoding", "gzip"}, 415, `request Content-Encoding "gzip" is not supported: send the JSON body uncompressed`),
		Entry(nil, "/v1/messages", anthropicTurn1, []string{"Content-Encoding", "identity", "Content-Encoding", "br"}, 415, `request Content-Encoding "identity, br" is not supported: send the JSON body uncompressed`),
		Entry(nil, "/v1/chat/completions", openaiTurn1, []string{serve.TagHeader, "session.turn turn=0"}, 400, `X-Toolout-Tag "session.turn turn=0": core: tag: byte 18: turn "0"`),
		Entry(nil, "/v1/chat/completions", openaiTurn1, []string{serve.TagHeader, "a", serve.TagHeader, "b"}, 400, "X-Toolout-Tag: given 2 times, want once"),
		Entry(nil, "/v1/chat/completions", openaiTurn1, []string{"X-Toolout-Gateway-Round", "-1"}, 400, "want a positive round"),
	)

	It("refuses a request that is not JSON by its content type, whatever the body", func() {
		r := start(serve.Options{}, overCap)
		resp, b := httpspec.Send(http.MethodPost, r.base+"/v1/chat/completions", "application/x-www-form-urlencoded", openaiTurn1)
		Expect(resp.StatusCode).To(Equal(http.StatusUnsupportedMediaType))
		Expect(b).To(ContainSubstring(`content type \"application/x-www-form-urlencoded\": want application/json`))
	})

	It("ends a step's wait for the steps it comes after at the request's timeout, as a violation", func() {
		r := start(serve.Options{Timeout: 300 * time.Millisecond}, "testdata/tags.yaml")
		a := post(r.base+"/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}]}`, serve.TagHeader, "extract.map chunk=1/5")
		Expect(a.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(a.body).To(ContainSubstring(`step \"map-1\": context deadline exceeded for step \"map-2\", which never answered`))
	})

	It("refuses completions beyond MaxConcurrent with 503 and Retry-After, and Close ends a wait at once", func() {
		r := start(serve.Options{MaxConcurrent: 1}, "testdata/tags.yaml")
		first := make(chan answer, 1)
		go func() {
			defer GinkgoRecover()
			first <- post(r.base+"/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}]}`, serve.TagHeader, "extract.map chunk=1/5")
		}()
		Eventually(func() []string { return waiting(r.srv) }).WithTimeout(10 * time.Second).Should(Equal([]string{"map-1"}))
		a := post(r.base+"/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}]}`, serve.TagHeader, "extract.map chunk=2/5")
		Expect(a.status).To(Equal(http.StatusServiceUnavailable))
		Expect(a.header.Get("Retry-After")).To(Equal("1"))
		Expect(a.body).To(ContainSubstring("more than 1 requests at once"))
		Expect(r.srv.Close()).To(Succeed())
		var got answer
		Eventually(first).WithTimeout(5 * time.Second).Should(Receive(&got))
		Expect(got.status).To(Equal(http.StatusUnprocessableEntity), got.body)
		a = post(r.base+"/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}]}`, serve.TagHeader, "extract.map chunk=2/5")
		Expect(a.status).To(Equal(http.StatusServiceUnavailable))
		Expect(a.body).To(ContainSubstring("the server is stopping"))
	})

	It("lets a client that goes away while its request waits end only its own request", func() {
		r := start(serve.Options{}, "testdata/tags.yaml")
		ctx, cancel := context.WithCancel(context.Background())
		gone := make(chan error, 1)
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, r.base+"/v1/chat/completions", strings.NewReader(`{"messages":[{"role":"user","content":"x"}]}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(serve.TagHeader, "extract.map chunk=1/5")
			resp, err := http.DefaultClient.Do(req)
			if err == nil {
				resp.Body.Close()
			}
			gone <- err
		}()
		Eventually(func() []string { return waiting(r.srv) }).WithTimeout(10 * time.Second).Should(Equal([]string{"map-1"}))
		cancel()
		Eventually(gone).WithTimeout(5 * time.Second).Should(Receive(MatchError(context.Canceled)))
		Eventually(func() []string { return waiting(r.srv) }).WithTimeout(5*time.Second).Should(BeEmpty(), "the server let the request go")
		a := post(r.base+"/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}]}`, serve.TagHeader, "extract.map chunk=2/5")
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(r.srv.Problems()).To(ContainElement(HaveField("Msg", `step "map-1": context canceled for step "map-2", which never answered`)))
	})

	It("answers other clients while one sends its header slowly (ReadHeaderTimeout ends that one)", func() {
		r := start(serve.Options{}, overCap)
		conn, err := net.Dial("tcp", strings.TrimPrefix(r.base, "http://"))
		Expect(err).NotTo(HaveOccurred())
		defer conn.Close()
		_, err = io.WriteString(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n")
		Expect(err).NotTo(HaveOccurred())
		Expect(post(r.base+"/v1/chat/completions", openaiTurn1).status).To(Equal(http.StatusOK))
	})

	DescribeTable("listens on loopback only, unless asked",
		func(addr string, ok bool) {
			ln, err := serve.Listen(addr, false)
			if !ok {
				Expect(err).To(MatchError(ContainSubstring("is not loopback")))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(ln.Close()).To(Succeed())
		},
		Entry(nil, "127.0.0.1:0", true),
		Entry(nil, "localhost:0", true),
		Entry(nil, "127.0.0.2:0", true),
		Entry(nil, "0.0.0.0:0", false),
		Entry(nil, ":0", false),
		Entry(nil, "[::]:0", false),
		Entry(nil, "192.0.2.1:0", false),
		Entry(nil, "example.com:0", false),
	)

	It("names a malformed address", func() {
		_, err := serve.Listen("127.0.0.1", false)
		Expect(err).To(MatchError(`address "127.0.0.1": address 127.0.0.1: missing port in address`))
	})
})

// waiting lists the steps whose requests wait now, over every scenario.
func waiting(srv *serve.Server) []string {
	var out []string
	for _, b := range srv.Bases() {
		out = append(out, srv.Waiting(b.Scenario)...)
	}
	return out
}
