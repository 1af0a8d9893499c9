package proxy_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/internal/httpspec"
)

// events records what a Proxy observed.
type events struct {
	mu       sync.Mutex
	requests []string // route/outcome
	limited  []string
	statuses []int
	answers  []string // expansions
}

func (e *events) Request(route, outcome string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.requests = append(e.requests, route+"/"+outcome)
}

func (e *events) Upstream(_ string, status int, _ time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.statuses = append(e.statuses, status)
}

func (e *events) Expansion(answer string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.answers = append(e.answers, answer)
}

func (e *events) expansions() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.answers...)
}

func (e *events) Limited(limit string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.limited = append(e.limited, limit)
}

func (e *events) snapshot() (requests, limited []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.requests...), append([]string(nil), e.limited...)
}

// proxyFront starts a proxy with limits l (zero: the defaults) in front of
// the handler up, both closed when the spec ends, and returns the proxy's
// URL and its observed events.
func proxyFront(l proxy.Limits, up http.HandlerFunc) (string, *events) {
	upstream := httptest.NewServer(up)
	DeferCleanup(upstream.Close)
	u, _ := url.Parse(upstream.URL)
	p := proxy.New(newGateway(true), u, upstream.Client())
	p.Limits = l.WithDefaults()
	ev := &events{}
	p.Observer = ev
	srv := httptest.NewServer(p)
	DeferCleanup(srv.Close)
	return srv.URL, ev
}

var _ = Describe("the proxy's bounds", func() {
	front := proxyFront
	answer := func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`)
	}
	post := func(base string, body []byte) (int, http.Header, string) {
		resp, out := httpspec.Post(base+openai.Path, body)
		return resp.StatusCode, resp.Header, out
	}

	It("refuses a body over max_body_bytes with 413 and counts it", func() {
		base, ev := front(proxy.Limits{MaxBodyBytes: 1 << 20}, answer)
		body := []byte(`{"messages":[` + strings.Repeat("0,", 2<<20) + `0]}`)
		code, _, msg := post(base, body)
		Expect(code).To(Equal(http.StatusRequestEntityTooLarge))
		Expect(msg).To(ContainSubstring("larger than 1048576 bytes"))
		req, lim := ev.snapshot()
		Expect(req).To(Equal([]string{"openai/too_large"}))
		Expect(lim).To(Equal([]string{proxy.LimitBodyBytes}))
	})

	It("refuses a body of too many tiny values with 413 before parsing it", func() {
		base, ev := front(proxy.Limits{MaxJSONValues: 1000}, answer)
		code, _, msg := post(base, []byte(`{"messages":[`+strings.Repeat("0,", 5000)+`0]}`))
		Expect(code).To(Equal(http.StatusRequestEntityTooLarge))
		Expect(msg).To(ContainSubstring("more than 1000 JSON values at byte"))
		_, lim := ev.snapshot()
		Expect(lim).To(Equal([]string{gateway.LimitJSONValues}))
	})

	It("refuses nesting past the limit with 400", func() {
		base, _ := front(proxy.Limits{MaxJSONNesting: 10}, answer)
		code, _, msg := post(base, []byte(`{"a":`+strings.Repeat("[", 20)+strings.Repeat("]", 20)+`}`))
		Expect(code).To(Equal(http.StatusBadRequest))
		Expect(msg).To(ContainSubstring("nested deeper than 10 levels at byte 14"))
	})

	DescribeTable("answers 400 to a body that is not a JSON object",
		func(body, want string) {
			base, ev := front(proxy.Limits{}, answer)
			code, _, msg := post(base, []byte(body))
			Expect(code).To(Equal(http.StatusBadRequest))
			Expect(msg).To(ContainSubstring(want))
			req, _ := ev.snapshot()
			Expect(req).To(Equal([]string{"openai/bad_request"}))
		},
		Entry("an array", `[]`, "must be a JSON object"),
		Entry("a number", `42`, "must be a JSON object"),
		Entry("invalid JSON", `{"messages":[}`, "invalid JSON at byte"),
		Entry("empty", ``, "invalid JSON at byte 0"),
	)

	It("answers in the OpenAI error shape, so SDKs raise their usual error", func() {
		base, _ := front(proxy.Limits{}, answer)
		code, h, msg := post(base, []byte(`[]`))
		Expect(code).To(Equal(http.StatusBadRequest))
		Expect(h.Get("Content-Type")).To(Equal("application/json"))
		Expect(msg).To(MatchJSON(`{"error":{"message":"toolout gateway: openai request: the body must be a JSON object","type":"invalid_request_error","code":null}}`))
	})

	It("answers 503 with Retry-After past max concurrent requests", func() {
		arrived, release := make(chan struct{}), make(chan struct{})
		base, ev := front(proxy.Limits{MaxConcurrent: 1}, func(w http.ResponseWriter, r *http.Request) {
			close(arrived)
			<-release
			answer(w, r)
		})
		first := make(chan int)
		go func() {
			code, _, _ := post(base, chatBody("1", "t", "small", false))
			first <- code
		}()
		<-arrived
		code, h, _ := post(base, chatBody("2", "t", "small", false))
		Expect(code).To(Equal(http.StatusServiceUnavailable))
		Expect(h.Get("Retry-After")).To(Equal("1"))
		close(release)
		Expect(<-first).To(Equal(http.StatusOK))
		_, lim := ev.snapshot()
		Expect(lim).To(Equal([]string{proxy.LimitConcurrency}))
	})

	It("gives up on an upstream that does not answer within the timeout with 504", func() {
		stop := make(chan struct{})
		base, ev := front(proxy.Limits{UpstreamTimeout: 100 * time.Millisecond}, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-stop:
			case <-r.Context().Done():
			}
		})
		DeferCleanup(func() { close(stop) }) // before the servers close (cleanups run last first)
		code, _, msg := post(base, chatBody("1", "t", "small", false))
		Expect(code).To(Equal(http.StatusGatewayTimeout))
		Expect(msg).To(ContainSubstring("upstream timed out"))
		req, _ := ev.snapshot()
		Expect(req).To(Equal([]string{"openai/upstream_error"}))
	})

	It("refuses an upstream response over max_response_bytes with 502", func() {
		base, _ := front(proxy.Limits{MaxResponseBytes: 1000}, func(w http.ResponseWriter, _ *http.Request) {
			_, _ = io.WriteString(w, `{"choices":[{"message":{"content":"`+strings.Repeat("x", 5000)+`"}}]}`)
		})
		code, _, msg := post(base, chatBody("1", "t", "small", false))
		Expect(code).To(Equal(http.StatusBadGateway))
		Expect(msg).To(ContainSubstring("response larger than 1000 bytes"))
	})

	It("answers GET /healthz", func() {
		base, _ := front(proxy.Limits{}, answer)
		resp, out := httpspec.Get(base + proxy.HealthPath)
		Expect(resp.StatusCode).To(Equal(200))
		Expect(out).To(Equal("ok\n"))
	})
})

var _ = Describe("CheckJSONShape", func() {
	It("counts structure outside strings only", func() {
		Expect(gateway.CheckJSONShape([]byte(`{"a":"[[[[,,,,::::"}`), 2, 1)).To(Succeed())
		Expect(gateway.CheckJSONShape([]byte(`{"a\"[[":1}`), 2, 1)).To(Succeed())
		err := gateway.CheckJSONShape([]byte(`[0,0,0]`), 2, 5)
		Expect(err).To(MatchError("more than 2 JSON values at byte 4"))
	})
})
