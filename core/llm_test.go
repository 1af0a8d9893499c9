package core_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
)

var _ = Describe("seams", func() {
	It("adapts a function to LLM", func() {
		var llm core.LLM = core.LLMFunc(func(_ context.Context, req core.Request) (core.Response, error) {
			return core.Response{Text: req.Tag.String()}, nil
		})
		resp, err := llm.Complete(context.Background(), core.Request{Tag: core.Tag{Site: core.SiteExtractMap, Chunk: 2, Chunks: 5}})
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("extract.map chunk=2/5"))
	})

	DescribeTable("renders tags with their facets",
		func(t core.Tag, want string) { Expect(t.String()).To(Equal(want)) },
		Entry(nil, core.Tag{Site: "extract.reduce"}, "extract.reduce"),
		Entry(nil, core.Tag{Site: "session.turn", Turn: 3}, "session.turn turn=3"),
		Entry(nil, core.Tag{Site: "extract.readgrep", Turn: 2, Chunk: 1, Chunks: 1}, "extract.readgrep chunk=1/1 turn=2"),
	)

	Describe("Sources", func() {
		It("uses the given functions", func() {
			at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			s := core.Sources{Now: func() time.Time { return at }, NewID: func() string { return "id" }, Nonce: func() string { return "n" }}
			Expect(s.Time()).To(Equal(at))
			Expect(s.ID()).To(Equal("id"))
			Expect(s.NewNonce()).To(Equal("n"))
		})

		It("defaults to the wall clock, random UUIDv4s and random hex nonces", func() {
			var s core.Sources
			Expect(s.Time()).To(BeTemporally("~", time.Now(), time.Minute))
			a, b := s.ID(), s.ID()
			Expect(a).To(MatchRegexp(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`))
			Expect(a).NotTo(Equal(b))
			Expect(s.NewNonce()).To(MatchRegexp(`^[0-9a-f]{16}$`))
		})
	})
})
