package proxy_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gomodule/redigo/redis"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/redisstore"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/internal/gatewaytest"
	"github.com/toolout/toolout/internal/redistest"
)

// startRedis starts a redis-server of the spec's own with more options,
// and returns its URL and a connection for the spec's own writes; it skips
// without redis-server.
func startRedis(args ...string) (string, redis.Conn) {
	GinkgoHelper()
	srv, err := redistest.Start(GinkgoT().TempDir(), args...)
	if err == redistest.ErrMissing {
		Skip(redistest.Missing)
	}
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(srv.Stop)
	rc, err := redis.DialURL(srv.URL)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(rc.Close)
	return srv.URL, rc
}

// fill writes 4 MiB through rc and then lowers maxmemory to 1 MiB under
// it, so Redis is full for good: a spec's own writes that came close to
// the limit would not do, since Redis counts a client's buffers, which it
// shrinks later.
func fill(rc redis.Conn) {
	GinkgoHelper()
	filler := strings.Repeat("f", 64<<10)
	for i := range 64 {
		Expect(rc.Do("SET", fmt.Sprint("filler:", i), filler)).To(Equal("OK"))
	}
	Expect(rc.Do("CONFIG", "SET", "maxmemory", "1mb")).To(Equal("OK"))
	_, err := rc.Do("SET", "one-more", "x")
	Expect(err).To(MatchError(HavePrefix("OOM ")))
}

// pressure writes 64 KiB values through rc until Redis has evicted key,
// as other clients of a shared Redis would; at most 1,000 writes (64 MiB).
func pressure(rc redis.Conn, key string) {
	GinkgoHelper()
	filler := strings.Repeat("f", 64<<10)
	for i := range 1000 {
		Expect(rc.Do("SET", fmt.Sprint("filler:", i), filler)).To(Equal("OK"))
		if n, err := redis.Int(rc.Do("EXISTS", key)); err == nil && n == 0 {
			return
		}
	}
	Fail("redis never evicted " + key)
}

var _ = Describe("the expand_context loop on an evicting Redis", func() {
	It("expands a result compressed in this request from what the request holds, though Redis evicted it meanwhile", func() {
		url, rc := startRedis("--maxmemory", "2mb", "--maxmemory-policy", "allkeys-lru")
		src, _ := gatewaytest.Manual()
		prefix := "toolout:"
		store, err := redisstore.New(ctx, redisstore.Options{URL: url, Prefix: prefix, AllowEviction: true, Store: gateway.StoreOptions{Sources: src}})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(store.Close)
		p, err := gateway.NewPipe(gateway.Options{Compressor: gateway.Simple{Words: 12}, Store: store, Sources: src})
		Expect(err).NotTo(HaveOccurred())
		g := &gateway.Gateway{Pipe: p, Wire: openai.Wire{}, Expand: true}

		content := gatewaytest.Words(300) // 2,099 bytes: compressed to 12 words
		shadow := gateway.ShadowID(content)
		llm, err := fakes.NewLLM([]fakes.Step{
			{Match: fakes.Match{Turn: 1}, Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{
				{ID: "x0", Name: "expand_context", Args: map[string]any{"shadow_id": shadow}}}}},
			{Match: fakes.Match{Turn: 2}, Respond: fakes.Respond{Text: new("read it")}},
		}, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		out, err := g.Handle(ctx, chatBody("1", "logs__query", content, false), func(ctx context.Context, round int, body []byte) ([]byte, error) {
			if round == 1 {
				pressure(rc, prefix+"o:"+shadow) // while the model thinks, Redis evicts the original
			}
			req, _, err := openai.DecodeRequest(body, core.Tag{Site: core.SiteGatewayUpstream, Turn: round})
			if err != nil {
				return nil, err
			}
			resp, err := llm.Complete(ctx, req)
			return openai.EncodeResponse(resp, "c", "m"), err
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Results[0].Action).To(Equal(gateway.ActionCompressed))
		Expect(out.Expansions).To(Equal([]gateway.Expansion{{Round: 1, CallID: "x0", ShadowID: shadow, Answer: gateway.AnswerOriginal}}))
		msgs := llm.Calls()[1].Request.Messages
		Expect(msgs[len(msgs)-1].Content).To(Equal(content), "all 300 words, not the 12 the model saw")
		Expect(llm.Check()).To(Succeed())
	})
})

var _ = Describe("the pipe on a full Redis that evicts nothing", func() {
	It("passes the result through uncompressed, and says so in its log and metrics", func() {
		url, rc := startRedis("--maxmemory-policy", "noeviction")
		src, _ := gatewaytest.Manual()
		store, err := redisstore.New(ctx, redisstore.Options{URL: url, Store: gateway.StoreOptions{Sources: src}})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(store.Close)
		p, err := gateway.NewPipe(gateway.Options{Compressor: gateway.Simple{Words: 12}, Store: store, Sources: src})
		Expect(err).NotTo(HaveOccurred())
		var log []string
		g := &gateway.Gateway{Pipe: p, Wire: openai.Wire{}, Expand: true,
			Logf: func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) }}
		fill(rc)

		content := gatewaytest.Words(300)
		var forwarded []byte
		out, err := g.Handle(ctx, chatBody("1", "logs__query", content, false), func(_ context.Context, _ int, body []byte) ([]byte, error) {
			forwarded = body
			return openai.EncodeResponse(core.Response{Text: "read it"}, "c", "m"), nil
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Results[0].Action).To(Equal(gateway.ActionPassthrough))
		Expect(string(forwarded)).To(ContainSubstring(content))
		Expect(string(forwarded)).NotTo(ContainSubstring("expand_context"))
		Expect(log).To(ConsistOf(MatchRegexp(`^gateway: output 0 \(logs__query\): passthrough: store failed: redisstore: put original: OOM command not allowed when used memory > 'maxmemory'`)))
		Expect(p.Metrics().StoreFailed).To(BeEquivalentTo(1))
	})
})
