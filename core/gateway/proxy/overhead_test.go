package proxy_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/internal/gatewaytest"
	"github.com/toolout/toolout/internal/httpspec"
)

// overheads records the Overhead events next to the others.
type overheads struct {
	events
	mu   sync.Mutex
	seen []string // route
	took []time.Duration
}

func (o *overheads) Overhead(route string, d time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seen, o.took = append(o.seen, route), append(o.took, d)
}

func (o *overheads) snapshot() ([]string, []time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.seen...), append([]time.Duration(nil), o.took...)
}

var _ proxy.OverheadObserver = (*overheads)(nil)

var _ = Describe("the overhead header", func() {
	const chatAnswer = `{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`
	const streamAnswer = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":null}]}\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	ms := func(h http.Header) float64 {
		GinkgoHelper()
		v := h.Get(proxy.OverheadHeader)
		Expect(v).To(MatchRegexp(`^\d+\.\d{3}$`))
		f, err := strconv.ParseFloat(v, 64)
		Expect(err).NotTo(HaveOccurred())
		return f
	}

	// front serves a proxy whose overhead clock (and compressor) is clock,
	// in front of up; compress is the work the compressor does, on clock.
	front := func(clock *fakes.Clock, compress time.Duration, up http.HandlerFunc) (string, *overheads) {
		upstream := httptest.NewServer(up)
		DeferCleanup(upstream.Close)
		u, _ := url.Parse(upstream.URL)
		src, _ := gatewaytest.Manual()
		pipe, err := gateway.NewPipe(gateway.Options{Compressor: gatewaytest.CompressorFunc(func(gateway.Input) (string, error) {
			clock.Advance(compress)
			return "short", nil
		}), Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src})
		Expect(err).NotTo(HaveOccurred())
		p := proxy.New(&gateway.Gateway{Pipe: pipe, Wire: openai.Wire{}}, u, upstream.Client())
		p.Limits = proxy.Limits{MaxBodyBytes: 64 << 10}.WithDefaults()
		obs := &overheads{}
		p.Observer, p.OverheadClock = obs, clock.Now
		srv := httptest.NewServer(p)
		DeferCleanup(srv.Close)
		return srv.URL, obs
	}
	answer := func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"stream":true`) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, streamAnswer)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, chatAnswer)
	}
	big := gatewaytest.Sized(3000)

	It("is on every kind of answer, in milliseconds with three decimals, and each request is observed once", func() {
		base, obs := front(&fakes.Clock{Step: time.Millisecond}, 0, answer)
		resp, _ := httpspec.Post(base+openai.Path, chatBody("a", "bash", big, false)) // held, compressed
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		ms(resp.Header)
		resp, out := httpspec.Post(base+openai.Path, chatBody("b", "bash", big, true)) // streamed
		Expect(out).To(ContainSubstring("[DONE]"))
		ms(resp.Header)
		resp, _ = httpspec.Get(base + "/v1/models") // passthrough
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		ms(resp.Header)
		resp, _ = httpspec.Post(base+openai.Path, `{"messages":[`+strings.Repeat(`"x",`, 20<<10)+`"x"]}`) // refused: 413
		Expect(resp.StatusCode).To(Equal(http.StatusRequestEntityTooLarge))
		ms(resp.Header)
		resp, _ = httpspec.Post(base+openai.Path, `not json`) // 400
		Expect(resp.StatusCode).To(Equal(http.StatusBadRequest))
		ms(resp.Header)
		resp, _ = httpspec.Get(base + proxy.HealthPath)
		ms(resp.Header)
		routes, took := obs.snapshot()
		Expect(routes).To(Equal([]string{"openai", "openai", "passthrough", "openai", "openai"}), "/healthz is no request of a route")
		Expect(took).To(HaveEach(BeNumerically(">", 0)))
	})

	It("is on an upstream error the gateway answers itself (502)", func() {
		up := httptest.NewServer(http.HandlerFunc(answer))
		u, _ := url.Parse(up.URL)
		up.Close() // nothing listens there
		p := proxy.New(newGateway(false), u, nil)
		srv := httptest.NewServer(p)
		DeferCleanup(srv.Close)
		for _, send := range []func() *http.Response{
			func() *http.Response {
				r, _ := httpspec.Post(srv.URL+openai.Path, chatBody("a", "bash", "ok", false))
				return r
			},
			func() *http.Response { r, _ := httpspec.Get(srv.URL + "/v1/models"); return r },
		} {
			resp := send()
			Expect(resp.StatusCode).To(Equal(http.StatusBadGateway))
			ms(resp.Header)
		}
	})

	DescribeTable("leaves out the upstream's time and counts the gateway's own",
		func(path string, body []byte, compress time.Duration, want string) {
			clock := &fakes.Clock{Step: -1} // moves only when told
			arrived, release := make(chan struct{}), make(chan struct{})
			base, obs := front(clock, compress, func(w http.ResponseWriter, r *http.Request) {
				arrived <- struct{}{}
				<-release
				clock.Advance(10 * time.Second) // the upstream thought a long time
				answer(w, r)
			})
			done := make(chan *http.Response, 1)
			go func() {
				defer GinkgoRecover()
				if body == nil {
					resp, _ := httpspec.Get(base + path)
					done <- resp
					return
				}
				resp, _ := httpspec.Post(base+path, body)
				done <- resp
			}()
			<-arrived
			close(release)
			resp := <-done
			Expect(resp.StatusCode).To(Equal(http.StatusOK))
			Expect(resp.Header.Get(proxy.OverheadHeader)).To(Equal(want))
			_, took := obs.snapshot()
			Expect(fmt.Sprintf("%.3f", float64(took[0])/float64(time.Millisecond))).To(Equal(want))
		},
		Entry("held: the compressor's 2 s are the gateway's", openai.Path, chatBody("a", "bash", big, false), 2*time.Second, "2000.000"),
		Entry("held, nothing to compress", openai.Path, chatBody("a", "bash", "ok", false), time.Duration(0), "0.000"),
		Entry("streamed", openai.Path, chatBody("a", "bash", big, true), 1500*time.Millisecond, "1500.000"),
		Entry("passthrough", "/v1/models", nil, time.Duration(0), "0.000"),
	)
})
