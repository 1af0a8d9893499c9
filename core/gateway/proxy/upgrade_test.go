package proxy_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// A protocol upgrade on a passthrough path (a WebSocket: OpenAI's Realtime
// API, GET /v1/realtime) is relayed both ways by httputil.ReverseProxy, in
// a request slot and within UpstreamTimeout like any passthrough request.
var _ = Describe("a passthrough protocol upgrade", func() {
	// echo answers an upgrade with 101 and then echoes what it reads.
	echo := func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "websocket" {
			http.Error(w, "want an upgrade", http.StatusBadRequest)
			return
		}
		c, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = io.WriteString(c, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
		_, _ = io.Copy(c, brw)
	}
	// upgrade dials base, asks for an upgrade of /v1/realtime and returns
	// the connection after the 101.
	upgrade := func(base string) (net.Conn, *bufio.Reader) {
		u, err := url.Parse(base)
		Expect(err).NotTo(HaveOccurred())
		c, err := net.Dial("tcp", u.Host)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(c.Close)
		_, err = io.WriteString(c, "GET /v1/realtime HTTP/1.1\r\nHost: "+u.Host+"\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n")
		Expect(err).NotTo(HaveOccurred())
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(http.StatusSwitchingProtocols))
		return c, br
	}

	It("relays the bytes both ways", func() {
		base, _ := proxyFront(proxy.Limits{}, echo)
		c, br := upgrade(base)
		for _, msg := range []string{"hello\n", "again\n"} {
			_, err := io.WriteString(c, msg)
			Expect(err).NotTo(HaveOccurred())
			Expect(br.ReadString('\n')).To(Equal(msg))
		}
	})

	It("ends at upstream_timeout, and holds a request slot until then", func() {
		base, ev := proxyFront(proxy.Limits{MaxConcurrent: 1, UpstreamTimeout: time.Second}, echo)
		_, br := upgrade(base)
		resp, err := http.Get(base + "/v1/models")
		Expect(err).NotTo(HaveOccurred())
		resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusServiceUnavailable))
		_, err = br.ReadByte() // the proxy closes the connection at the timeout
		Expect(err).To(MatchError(io.EOF))
		Eventually(func() []string { r, _ := ev.snapshot(); return r }).Should(ContainElement("passthrough/ok"))
	})
})
