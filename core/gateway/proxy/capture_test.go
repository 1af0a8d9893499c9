package proxy_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// captured is a Capturer that keeps what it is given.
type captured struct {
	mu sync.Mutex
	xs []proxy.Exchange
}

func (c *captured) Capture(x proxy.Exchange) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.xs = append(c.xs, x)
}

func (c *captured) all() []proxy.Exchange {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]proxy.Exchange(nil), c.xs...)
}

var _ = Describe("Proxy.Capture", func() {
	const answer = `{"id":"c1","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"db-4 failed"},"finish_reason":"stop"}]}`
	stream := "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"db-4 failed\"},\"finish_reason\":null}]}\n\n" +
		"data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"

	// capturing serves g in front of up with a capture, until the spec ends.
	capturing := func(g *gateway.Gateway, up *httptest.Server) (string, *captured) {
		DeferCleanup(up.Close)
		u, _ := url.Parse(up.URL)
		p := proxy.New(g, u, up.Client())
		c := &captured{}
		p.Capture = c
		f := httptest.NewServer(p)
		DeferCleanup(f.Close)
		return f.URL, c
	}
	front := func(status int) (string, *captured) {
		return capturing(newGateway(false), httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			if bytes.Contains(body, []byte(`"stream":true`)) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, stream)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = io.WriteString(w, answer)
		})))
	}
	post := func(url string, body []byte) (int, string) {
		resp, err := http.Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(body))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	It("hands over each request answered whole: the client's body, the compressed forward, the answer the client got", func() {
		url, c := front(200)
		body := chatBody("1", "t", bigLog("db-4"), false)
		code, got := post(url, body)
		Expect(code).To(Equal(200))
		sbody := chatBody("2", "t", bigLog("db-4"), true)
		code, sgot := post(url, sbody)
		Expect(code).To(Equal(200))
		xs := c.all()
		Expect(xs).To(HaveLen(2))
		Expect(xs[0].Wire).To(Equal("openai"))
		Expect(xs[0].Request).To(Equal(body))
		Expect(string(xs[0].Forwarded)).To(ContainSubstring("<<<SHADOW:"))
		Expect(len(xs[0].Forwarded)).To(BeNumerically("<", len(body)))
		Expect(string(xs[0].Answer)).To(Equal(got))
		Expect(xs[0].Stream).To(BeFalse())
		Expect(xs[0].Rounds).To(Equal(1))
		Expect(xs[0].Results).To(HaveLen(1))
		Expect(xs[0].Results[0]).To(MatchFields(IgnoreExtras, Fields{"Tool": Equal("t"), "Action": Equal(gateway.ActionCompressed), "Reason": Equal("compressed"),
			"ShadowID": Equal(gateway.ShadowID(bigLog("db-4"))), "Bytes": Equal(len(bigLog("db-4")))}))
		Expect(xs[1].Stream).To(BeTrue())
		Expect(xs[1].Rounds).To(Equal(1))
		Expect(xs[1].Results).To(HaveLen(1))
		Expect(xs[1].Results[0].ShadowID).To(Equal(xs[0].Results[0].ShadowID))
		Expect(xs[1].Results[0].Reason).To(Equal("cache hit"))
		Expect(string(xs[1].Answer)).To(Equal(sgot))
		Expect(xs[0].Caller).To(Equal(xs[1].Caller))
	})

	It("keeps the expand_context rounds of a request, streamed or not", func() {
		content := bigLog("db-8")
		shadow := gateway.ShadowID(content)
		for _, stream := range []bool{false, true} {
			base, c := capturing(newGateway(true), modelServer(expandOnce(shadow, "x1", "db-8")))
			code, got := post(base, chatBody("1", "t", content, stream))
			Expect(code).To(Equal(200), got)
			xs := c.all()
			Expect(xs).To(HaveLen(1))
			Expect(xs[0].Stream).To(Equal(stream))
			Expect(xs[0].Rounds).To(Equal(2))
			Expect(xs[0].Expansions).To(Equal([]gateway.Expansion{{Round: 1, CallID: "x1", ShadowID: shadow, Answer: gateway.AnswerOriginal}}))
			Expect(xs[0].Capped).To(BeFalse())
			Expect(string(xs[0].Answer)).To(Equal(got))
		}
	})

	It("hands over nothing for a request that failed or was refused", func() {
		url, c := front(500)
		code, _ := post(url, chatBody("1", "t", "short", false))
		Expect(code).To(Equal(500))
		code, _ = post(url, []byte(`{"messages": [`))
		Expect(code).To(Equal(400))
		Expect(c.all()).To(BeEmpty())
	})
})
