package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// seqSources numbers handles h-1, h-2, ... from a shared counter.
func seqSources(n *atomic.Int64) core.Sources {
	return core.Sources{NewID: func() string { return fmt.Sprintf("h-%d", n.Add(1)) }}
}

var _ = Describe("Store", func() {
	var base string
	var n atomic.Int64
	BeforeEach(func() { base = GinkgoT().TempDir() })

	open := func(session string) *store.Store {
		s, err := store.New(store.Options{Base: base, SessionID: session, Sources: seqSources(&n)})
		Expect(err).NotTo(HaveOccurred())
		return s
	}

	It("writes one file per output named by its handle, with stats in memory", func() {
		s := open("trx1")
		DeferCleanup(s.Close)
		Expect(s.Dir()).To(Equal(filepath.Join(base, "ai-agent-trx1")))
		m, err := s.Put("logs__query", `{"since": "1h"}`, "a\nbb\nccc", store.Measure("a\nbb\nccc", tokens.Estimator{}))
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Tool).To(Equal("logs__query"))
		Expect(m.Args).To(Equal(`{"since": "1h"}`))
		Expect(m.Stats).To(Equal(store.Stats{Bytes: 8, Lines: 3, Tokens: 2, AvgLineBytes: 3}))
		p, err := s.Path(m.Handle)
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(Equal(filepath.Join(s.Dir(), m.Handle)))
		Expect(os.ReadFile(p)).To(Equal([]byte("a\nbb\nccc")))
		got, text, err := s.Read(m.Handle)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(m))
		Expect(text).To(Equal("a\nbb\nccc"))
		Expect(s.Get(m.Handle)).To(Equal(m))
		Expect(s.List()).To(Equal([]store.Meta{m}))
		Expect(s.Len()).To(Equal(1))
	})

	It("does not know handles it did not hand out", func() {
		s := open("trx2")
		other := open("trx3")
		DeferCleanup(s.Close)
		DeferCleanup(other.Close)
		m, _ := other.Put("t", "{}", "x", store.Measure("x", tokens.Estimator{}))
		for _, h := range []string{m.Handle, "../ai-agent-trx3/" + m.Handle, "", "."} {
			_, err := s.Get(h)
			Expect(err).To(MatchError(store.ErrNotFound))
			_, err = s.Path(h)
			Expect(err).To(MatchError(store.ErrNotFound))
		}
	})

	It("removes its directory on Close, twice safely, and refuses Put after", func() {
		s := open("trx4")
		_, _ = s.Put("t", "{}", "x", store.Measure("x", tokens.Estimator{}))
		Expect(s.Close()).To(Succeed())
		Expect(s.Dir()).NotTo(BeADirectory())
		Expect(s.Close()).To(Succeed())
		_, err := s.Put("t", "{}", "x", store.Measure("x", tokens.Estimator{}))
		Expect(err).To(MatchError(store.ErrClosed))
	})

	It("refuses an unusable session id", func() {
		_, err := store.New(store.Options{Base: base, SessionID: "../x"})
		Expect(err).To(MatchError(`store: new: session id "../x": want a plain name`))
	})

	It("keeps the stats it is given: the caller measured the output once", func() {
		s := open("trx5")
		DeferCleanup(s.Close)
		given := store.Stats{Bytes: 3, Lines: 1, Tokens: 99, AvgLineBytes: 3}
		m, err := s.Put("t", "{}", "abc", given)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Stats).To(Equal(given))
		_, _, err = s.Read("nope")
		Expect(err).To(MatchError(store.ErrNotFound))
	})

	It("leaves nothing behind after a thousand sessions ended every way, some concurrently", func() {
		var wg sync.WaitGroup
		for i := range 1000 {
			wg.Go(func() {
				defer GinkgoRecover()
				func() {
					defer func() { _ = recover() }()
					s := open(fmt.Sprintf("c%d", i))
					defer s.Close()
					_, err := s.Put("t", "{}", "output", store.Measure("output", tokens.Estimator{}))
					Expect(err).NotTo(HaveOccurred())
					if i%4 == 3 {
						panic("tool crashed")
					}
				}()
			})
		}
		wg.Wait()
		Expect(os.ReadDir(base)).To(BeEmpty())
	})
})

var _ = Describe("stats and the handle message", func() {
	DescribeTable("Measure",
		func(out string, want store.Stats) { Expect(store.Measure(out, tokens.Estimator{})).To(Equal(want)) },
		Entry("empty", "", store.Stats{}),
		Entry("one line", "abcd", store.Stats{Bytes: 4, Lines: 1, Tokens: 1, AvgLineBytes: 4}),
		Entry("trailing newline counts a line", "ab\n", store.Stats{Bytes: 3, Lines: 2, Tokens: 1, AvgLineBytes: 2}),
		Entry("ceil of average", "a\nbcd\nef", store.Stats{Bytes: 8, Lines: 3, Tokens: 2, AvgLineBytes: 3}),
	)

	It("is exactly the spec's three lines", func() {
		m := store.Meta{Handle: "00000000-0000-4000-8000-000000000001", Stats: store.Stats{Bytes: 123456, Lines: 789, Tokens: 45678}}
		Expect(store.HandleMessage(m)).To(Equal("Tool output is too large (123456 bytes, 789 lines, 45678 tokens).\n" +
			"Call tool_output(handle = \"00000000-0000-4000-8000-000000000001\", extract = \"what to extract\").\n" +
			"Provide precise and detailed instructions in `extract` about what you are looking for."))
	})
})
