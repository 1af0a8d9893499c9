package proxy_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/proxy"
)

// Misbehaving clients: one that announces a body over the bound, sends a
// coding the gateway cannot read, or sends its body too slowly, gets the
// status that says so, in the API's error shape.

// rawExchange sends head (and body) on a raw connection to base and returns
// the status line of the first answer.
func rawExchange(base, head string, body []byte) string {
	u, err := url.Parse(base)
	Expect(err).NotTo(HaveOccurred())
	c, err := net.Dial("tcp", u.Host)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(c.Close)
	_, err = io.WriteString(c, head)
	Expect(err).NotTo(HaveOccurred())
	_, err = c.Write(body)
	Expect(err).NotTo(HaveOccurred())
	Expect(c.SetReadDeadline(time.Now().Add(20 * time.Second))).To(Succeed())
	line, err := bufio.NewReader(c).ReadString('\n')
	Expect(err).NotTo(HaveOccurred())
	return strings.TrimSpace(line)
}

var _ = Describe("a client request the gateway cannot take", func() {
	It("is refused with 413 before its body is asked for when its Content-Length is over max_body_bytes", func() {
		base, ev := proxyFront(proxy.Limits{MaxBodyBytes: 1000}, completion(10))
		head := fmt.Sprintf("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
			"Content-Length: %d\r\nExpect: 100-continue\r\n\r\n", 100<<20)
		Expect(rawExchange(base, head, nil)).To(Equal("HTTP/1.1 413 Request Entity Too Large")) // not 100 Continue
		Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(Equal([]string{"openai/too_large"}))
	})

	It("is refused with 415 when its body has a Content-Encoding", func() {
		base, ev := proxyFront(proxy.Limits{}, completion(10))
		body := chatBody("1", "t", "small", false)
		head := fmt.Sprintf("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
			"Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", len(body))
		Expect(rawExchange(base, head, body)).To(Equal("HTTP/1.1 415 Unsupported Media Type"))
		Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(Equal([]string{"openai/bad_request"}))
	})

	It("is answered 408 when its body does not come within the server's read timeout", func() {
		up := httptest.NewServer(completion(10))
		DeferCleanup(up.Close)
		u, _ := url.Parse(up.URL)
		p := proxy.New(newGateway(true), u, up.Client())
		ev := &events{}
		p.Observer = ev
		srv := httptest.NewUnstartedServer(p)
		srv.Config.ReadTimeout = 300 * time.Millisecond
		srv.Start()
		DeferCleanup(srv.Close)
		head := "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
		Expect(rawExchange(srv.URL, head, []byte(`{"model":`))).To(Equal("HTTP/1.1 408 Request Timeout"))
		Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(Equal([]string{"openai/bad_request"}))
	})
})

// completion answers every request with a completion whose content is n bytes.
func completion(n int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = fmt.Fprintf(w, `{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"%s"},"finish_reason":"stop"}]}`, strings.Repeat("y", n))
	}
}
