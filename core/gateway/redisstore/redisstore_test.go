package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomodule/redigo/redis"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/redisstore"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/internal/redistest"
	"github.com/toolout/toolout/toolouttest"
)

// The store keeps the gateway.Store contract on a redis-server of this
// test's own (each case under a prefix of its own), checked the way a user
// checks a backend of their own. It skips without redis-server.
func TestContract(t *testing.T) {
	srv, err := redistest.Start(t.TempDir())
	if errors.Is(err, redistest.ErrMissing) {
		t.Skip(redistest.Missing)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	var n atomic.Int64
	toolouttest.CheckStore(t, func(t *testing.T, opts gateway.StoreOptions) gateway.Store {
		s, err := redisstore.New(t.Context(), redisstore.Options{URL: srv.URL, Prefix: fmt.Sprintf("toolout-contract:%d:", n.Add(1)), Store: opts})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// open returns a store on url, closed at the end of the spec.
func open(url, prefix string, opts gateway.StoreOptions) *redisstore.Store {
	GinkgoHelper()
	s, err := redisstore.New(context.Background(), redisstore.Options{URL: url, Prefix: prefix, Store: opts})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(s.Close)
	return s
}

var _ = Describe("redisstore", func() {
	ctx := context.Background()

	It("serves through one replica what another put, within bounds they share", func() {
		clock := &fakes.Clock{Step: -1}
		opts := gateway.StoreOptions{MaxBytes: 100, Sources: core.Sources{Now: clock.Now}}
		prefix := newPrefix()
		a, b := open(server().URL, prefix, opts), open(server().URL, prefix, opts)
		Expect(a.PutOriginal(ctx, "", "shadow_1", strings.Repeat("o", 52))).To(Succeed())
		Expect(get(anon(b), "shadow_1")).To(Equal(strings.Repeat("o", 52)))
		Expect(b.PutCompressed(ctx, "shadow_2", strings.Repeat("c", 52))).To(Succeed())
		Expect(get(anon(a), "shadow_1")).To(Equal("<missing>"), "the byte cap is shared: the oldest went")
		for _, s := range []*redisstore.Store{a, b} {
			Expect(s.Stats(ctx)).To(Equal(gateway.StoreStats{Compressed: 1, Bytes: 60}))
		}
		other := open(server().URL, newPrefix(), opts)
		Expect(get(other.Compressed, "shadow_2")).To(Equal("<missing>"), "another prefix is another store")
	})

	It("sets a Redis expiration of the TTL on each entry key, and none on the bookkeeping", func() {
		prefix := newPrefix()
		s := open(server().URL, prefix, gateway.StoreOptions{OriginalTTL: 3 * time.Minute, CompressedTTL: time.Hour})
		Expect(s.PutOriginal(ctx, "c0ffee", "id", "o")).To(Succeed())
		Expect(s.PutCompressed(ctx, "id", "c")).To(Succeed())
		rc := dial()
		Expect(redis.Int64(rc.Do("PTTL", prefix+"o:6:c0ffee:id"))).To(BeNumerically("~", (3 * time.Minute).Milliseconds(), 5000))
		Expect(redis.Int64(rc.Do("PTTL", prefix+"c:id"))).To(BeNumerically("~", time.Hour.Milliseconds(), 5000))
		Expect(redis.StringMap(rc.Do("HGETALL", prefix+"o:6:c0ffee:id"))).To(HaveKeyWithValue("v", "o"))
		keys, err := redis.Strings(rc.Do("KEYS", prefix+"*"))
		Expect(err).NotTo(HaveOccurred())
		Expect(keys).To(ConsistOf(prefix+"o:6:c0ffee:id", prefix+"c:id", prefix+"idx:o", prefix+"idx:c",
			prefix+"size:o", prefix+"size:c", prefix+"bytes", prefix+"seq"))
		Expect(redis.Int64(rc.Do("PTTL", prefix+"bytes"))).To(BeEquivalentTo(-1), "no expiration")
	})

	It("forgets an entry Redis dropped on its own, in lookups and then in Stats", func() {
		prefix := newPrefix()
		s := open(server().URL, prefix, gateway.StoreOptions{})
		Expect(s.PutOriginal(ctx, "", "a", "1")).To(Succeed())
		Expect(s.PutOriginal(ctx, "", "b", "2")).To(Succeed())
		rc := dial()
		Expect(rc.Do("DEL", prefix+"o:0::a")).To(BeEquivalentTo(1)) // as a real-clock TTL or maxmemory would
		Expect(get(anon(s), "a")).To(Equal("<missing>"))
		Expect(s.Stats(ctx)).To(Equal(gateway.StoreStats{Originals: 1, Bytes: 2}))
	})

	Context("when the server goes away", func() {
		// srv is a server of the spec's own and s a store on it with short
		// timeouts, holding one entry.
		var srv *redistest.Server
		var s *redisstore.Store
		BeforeEach(func() {
			server() // skips without redis-server
			var err error
			srv, err = redistest.Start(GinkgoT().TempDir())
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(srv.Stop)
			s, err = redisstore.New(ctx, redisstore.Options{URL: srv.URL, Prefix: newPrefix(),
				DialTimeout: 300 * time.Millisecond, ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond})
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(s.Close)
			Expect(s.PutOriginal(ctx, "", "a", "1")).To(Succeed())
		})

		It("fails each call within the timeouts once it is stopped", func() {
			Expect(srv.Stop()).To(Succeed())
			expectFastError(s)
		})

		It("fails each call within the timeouts while it hangs", func() {
			Expect(srv.Pause()).To(Succeed())
			DeferCleanup(srv.Resume)
			expectFastError(s)
		})

		It("fails calls past the pool within the timeouts while it hangs, never queued for ever", func() {
			// 30 calls on 2 connections, each call holding one for two
			// read timeouts (600ms): queued, the last would end after
			// about 9 s; each waits at most a dial timeout for one.
			pooled, err := redisstore.New(ctx, redisstore.Options{URL: srv.URL + "?pool_size=2", Prefix: newPrefix(),
				DialTimeout: 300 * time.Millisecond, ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond})
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(pooled.Close)
			Expect(srv.Pause()).To(Succeed())
			DeferCleanup(srv.Resume)
			errs := make(chan error, 30)
			start := time.Now()
			for range cap(errs) {
				go func() { _, _, err := pooled.Original(ctx, "", "a"); errs <- err }()
			}
			for range cap(errs) {
				Expect(<-errs).To(MatchError(HavePrefix("redisstore: get original: ")))
			}
			Expect(time.Since(start)).To(BeNumerically("<", 3*time.Second))
		})

		It("serves again once a hung server answers", func() {
			Expect(srv.Pause()).To(Succeed())
			_, _, err := s.Original(ctx, "", "a")
			Expect(err).To(HaveOccurred())
			Expect(srv.Resume()).To(Succeed())
			Expect(get(anon(s), "a")).To(Equal("1"))
		})
	})

	DescribeTable("refuses a bad URL or an unreachable server with one line, password hidden",
		func(url, want string) {
			start := time.Now()
			_, err := redisstore.New(context.Background(), redisstore.Options{URL: url, DialTimeout: 300 * time.Millisecond})
			Expect(time.Since(start)).To(BeNumerically("<", 5*time.Second))
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(HavePrefix(want))
			Expect(err.Error()).NotTo(ContainSubstring("secret"))
			Expect(err.Error()).NotTo(ContainSubstring("\n"))
		},
		Entry("no URL", "", "redisstore: no URL (want redis://HOST:PORT/DB)"),
		Entry("another scheme", "http://127.0.0.1:6379", `redisstore: bad URL "http://127.0.0.1:6379": invalid URL scheme: http (want redis or rediss)`),
		Entry("a bad port", "redis://u:secret@127.0.0.1:x/0", `redisstore: bad URL "redis://xxxxx@127.0.0.1:x/0": invalid port ":x" after host`),
		Entry("a bad database", "redis://:secret@127.0.0.1:6379/db", `redisstore: bad URL "redis://:xxxxx@127.0.0.1:6379/db": invalid database number: "db"`),
		Entry("an unknown option", "redis://127.0.0.1:6379/0?colour=red", `redisstore: bad URL "redis://127.0.0.1:6379/0?colour=red": unexpected option: colour (want one of dial_timeout, read_timeout, write_timeout, pool_size)`),
		Entry("a bad timeout", "redis://127.0.0.1:6379/0?read_timeout=soon", `redisstore: bad URL "redis://127.0.0.1:6379/0?read_timeout=soon": invalid read_timeout "soon" (want a duration such as 500ms or 3s)`),
		Entry("a pool of none", "redis://127.0.0.1:6379/0?pool_size=0", `redisstore: bad URL "redis://127.0.0.1:6379/0?pool_size=0": invalid pool_size "0" (want a number over 0)`),
		Entry("nothing listening", "redis://u:secret@127.0.0.1:1/0", "redisstore: redis://u:xxxxx@127.0.0.1:1/0 unreachable: "),
	)
})

// get returns the value of a lookup, or "<missing>".
// anon is the Original lookup of s for the anonymous caller.
func anon(s *redisstore.Store) func(context.Context, string) (string, bool, error) {
	return func(ctx context.Context, id string) (string, bool, error) {
		return s.Original(ctx, gateway.AnonymousCaller, id)
	}
}

func get(lookup func(context.Context, string) (string, bool, error), id string) string {
	GinkgoHelper()
	v, ok, err := lookup(context.Background(), id)
	Expect(err).NotTo(HaveOccurred())
	if !ok {
		return "<missing>"
	}
	return v
}

// expectFastError requires every call of s to fail, naming the operation,
// within a few timeouts.
func expectFastError(s *redisstore.Store) {
	GinkgoHelper()
	ctx := context.Background()
	calls := map[string]func() error{
		"put original":   func() error { return s.PutOriginal(ctx, "", "b", "2") },
		"put compressed": func() error { return s.PutCompressed(ctx, "b", "2") },
		"get original":   func() error { _, _, err := s.Original(ctx, "", "a"); return err },
		"get compressed": func() error { _, _, err := s.Compressed(ctx, "a"); return err },
		"stats":          func() error { _, err := s.Stats(ctx); return err },
	}
	for op, call := range calls {
		start := time.Now()
		err := call()
		Expect(err).To(MatchError(HavePrefix("redisstore: "+op+": ")), op)
		Expect(time.Since(start)).To(BeNumerically("<", 5*time.Second), op)
	}
}

// dial connects to the suite's server for a spec's own look at the keys,
// closed at the end of the spec.
func dial() redis.Conn {
	GinkgoHelper()
	rc, err := redis.DialURL(server().URL)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(rc.Close)
	return rc
}
