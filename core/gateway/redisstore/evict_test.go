package redisstore_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gomodule/redigo/redis"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/redisstore"
	"github.com/toolout/toolout/fakes"
)

// bookkeeping names the keys of a prefix that carry no TTL.
func bookkeeping(prefix string) []string {
	return []string{prefix + "bytes", prefix + "seq", prefix + "idx:o", prefix + "idx:c", prefix + "size:o", prefix + "size:c"}
}

// held is what a spec put in a store, by id, to check Stats against.
type held struct{ originals, compressed map[string]string }

func newHeld() *held { return &held{originals: map[string]string{}, compressed: map[string]string{}} }

// put puts an original and a compressed text of id in s and remembers them.
func (h *held) put(s *redisstore.Store, id string, size int) {
	GinkgoHelper()
	ctx := context.Background()
	h.originals[id], h.compressed[id] = strings.Repeat("o", size), strings.Repeat("c", size/4)
	Expect(s.PutOriginal(ctx, gateway.AnonymousCaller, id, h.originals[id])).To(Succeed())
	Expect(s.PutCompressed(ctx, id, h.compressed[id])).To(Succeed())
}

// truth is what s really serves of what h put: the entries a lookup finds,
// and the bytes they count (the contract's len(id)+len(value)).
func (h *held) truth(s *redisstore.Store) gateway.StoreStats {
	GinkgoHelper()
	var st gateway.StoreStats
	for id, v := range h.originals {
		if get(func(ctx context.Context, id string) (string, bool, error) {
			return s.Original(ctx, gateway.AnonymousCaller, id)
		}, id) == v {
			st.Originals, st.Bytes = st.Originals+1, st.Bytes+int64(len(id)+len(v))
		}
	}
	for id, v := range h.compressed {
		if get(s.Compressed, id) == v {
			st.Compressed, st.Bytes = st.Compressed+1, st.Bytes+int64(len(id)+len(v))
		}
	}
	return st
}

// expectTrue requires Stats to report exactly what s serves, within bounds.
func (h *held) expectTrue(s *redisstore.Store, maxBytes int64) {
	GinkgoHelper()
	st, err := s.Stats(context.Background())
	Expect(err).NotTo(HaveOccurred())
	Expect(st.Bytes).To(BeNumerically(">=", 0))
	Expect(st).To(Equal(h.truth(s)))
	Expect(st.Bytes).To(BeNumerically("<=", maxBytes))
}

var _ = Describe("redisstore's accounting when Redis evicts its keys", func() {
	ctx := context.Background()
	clock := &fakes.Clock{Step: -1}
	opts := gateway.StoreOptions{MaxBytes: 20_000, Sources: core.Sources{Now: clock.Now}}

	DescribeTable("recovers when a bookkeeping key is gone: Stats is what is served, the byte bound holds",
		func(keys ...string) {
			prefix := newPrefix()
			s := open(server().URL, prefix, opts)
			h := newHeld()
			for i := range 5 {
				h.put(s, fmt.Sprint("id", i), 2000)
			}
			for _, key := range keys {
				Expect(dial().Do("DEL", prefix+key)).To(BeEquivalentTo(1)) // as allkeys-lru would
			}
			h.expectTrue(s, opts.MaxBytes)
			h.put(s, "id2", 1000) // replaces: its old bytes are dropped
			for i := 5; i < 12; i++ {
				h.put(s, fmt.Sprint("id", i), 2000) // past MaxBytes: the oldest go
			}
			h.expectTrue(s, opts.MaxBytes)
			Expect(h.truth(s).Originals).To(BeNumerically(">", 0))
		},
		Entry(nil, "bytes"),
		Entry(nil, "seq"),
		Entry(nil, "idx:o"),
		Entry(nil, "idx:c"),
		Entry(nil, "size:o"),
		Entry(nil, "size:c"),
		Entry(nil, "idx:o", "size:o"),
		Entry(nil, "idx:c", "size:c"),
		Entry(nil, "idx:o", "size:o", "idx:c", "size:c", "bytes", "seq"),
	)

	It("keeps put order when the sequence is gone: the newest entry stays", func() {
		prefix := newPrefix()
		s := open(server().URL, prefix, gateway.StoreOptions{MaxEntries: 2, Sources: core.Sources{Now: clock.Now}})
		Expect(s.PutCompressed(ctx, "b", "1")).To(Succeed())
		Expect(s.PutCompressed(ctx, "c", "2")).To(Succeed())
		Expect(dial().Do("DEL", prefix+"seq")).To(BeEquivalentTo(1))
		Expect(s.PutCompressed(ctx, "a", "3")).To(Succeed())
		Expect([]string{get(s.Compressed, "a"), get(s.Compressed, "b"), get(s.Compressed, "c")}).To(Equal([]string{"3", "<missing>", "2"}))
	})

	It("forgets an entry deleted from the middle of put order at its first lookup", func() {
		prefix := newPrefix()
		s := open(server().URL, prefix, opts)
		h := newHeld()
		for i := range 4 {
			h.put(s, fmt.Sprint("id", i), 1000)
		}
		Expect(dial().Do("DEL", prefix+"o:"+gateway.OriginalKey(gateway.AnonymousCaller, "id2"))).To(BeEquivalentTo(1))
		Expect(get(func(ctx context.Context, id string) (string, bool, error) {
			return s.Original(ctx, gateway.AnonymousCaller, id)
		}, "id2")).To(Equal("<missing>"))
		Expect(s.Stats(ctx)).To(Equal(gateway.StoreStats{Originals: 3, Compressed: 4, Bytes: 3*(3+1000) + 4*(3+250)}))
		h.expectTrue(s, opts.MaxBytes)
	})

	It("under volatile-lru, Redis evicts entries only, never the bookkeeping", func() {
		srv := startWith("--maxmemory", "2mb", "--maxmemory-policy", "volatile-lru")
		prefix := newPrefix()
		s := open(srv.URL, prefix, gateway.StoreOptions{MaxBytes: 64 << 20, Sources: core.Sources{Now: clock.Now}})
		h := newHeld()
		for i := range 200 { // 5 MB into 2 MB
			h.put(s, fmt.Sprint("id", i), 20_000)
		}
		rc, err := redis.DialURL(srv.URL)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(rc.Close)
		// no eviction from here on: Stats and the lookups that check it
		// must see the same keys
		Expect(rc.Do("CONFIG", "SET", "maxmemory", "0")).To(Equal("OK"))
		info, err := redis.String(rc.Do("INFO", "stats"))
		Expect(err).NotTo(HaveOccurred())
		Expect(info).To(MatchRegexp(`evicted_keys:[1-9]`))
		for _, k := range bookkeeping(prefix) {
			Expect(redis.Int(rc.Do("EXISTS", k))).To(Equal(1), k)
			Expect(redis.Int(rc.Do("PTTL", k))).To(Equal(-1), k)
		}
		h.expectTrue(s, 64<<20)
		Expect(h.truth(s).Originals).To(BeNumerically("<", 200))
	})

	It("under allkeys-lru pressure, allowed, Stats and the byte bound recover", func() {
		srv := startWith("--maxmemory", "2mb", "--maxmemory-policy", "allkeys-lru")
		prefix := newPrefix()
		s, err := redisstore.New(ctx, redisstore.Options{URL: srv.URL, Prefix: prefix, AllowEviction: true, Store: opts})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		h := newHeld()
		for i := range 8 {
			h.put(s, fmt.Sprint("id", i), 2000)
		}
		rc, err := redis.DialURL(srv.URL)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(rc.Close)
		filler := strings.Repeat("f", 64<<10)
		gone := func() bool { // a bookkeeping key evicted
			for _, k := range bookkeeping(prefix) {
				if n, _ := redis.Int(rc.Do("EXISTS", k)); n == 0 {
					return true
				}
			}
			return false
		}
		for i := 0; !gone(); i++ {
			Expect(i).To(BeNumerically("<", 1000), "redis never evicted a bookkeeping key")
			Expect(rc.Do("SET", fmt.Sprint("filler:", i), filler)).To(Equal("OK"))
		}
		Expect(rc.Do("CONFIG", "SET", "maxmemory", "0")).To(Equal("OK")) // as above
		h.expectTrue(s, opts.MaxBytes)
		for i := 8; i < 20; i++ {
			h.put(s, fmt.Sprint("id", i), 2000)
		}
		h.expectTrue(s, opts.MaxBytes)
	})
})
