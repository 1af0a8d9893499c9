package core_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
		Entry(nil, core.Tag{Site: "session.turn", Turn: 2, Round: 3}, "session.turn turn=2 round=3"),
	)

	DescribeTable("parses tags in the form String writes",
		func(text string, want core.Tag) {
			got, err := core.ParseTag(text)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
			back, err := core.ParseTag(got.String())
			Expect(err).NotTo(HaveOccurred())
			Expect(back).To(Equal(want))
		},
		func(text string, _ core.Tag) string { return text },
		Entry(nil, "extract.reduce", core.Tag{Site: "extract.reduce"}),
		Entry(nil, "session.turn turn=3", core.Tag{Site: "session.turn", Turn: 3}),
		Entry(nil, "extract.map chunk=2/5", core.Tag{Site: "extract.map", Chunk: 2, Chunks: 5}),
		Entry(nil, "extract.readgrep chunk=1/1 turn=2", core.Tag{Site: "extract.readgrep", Chunk: 1, Chunks: 1, Turn: 2}),
		Entry(nil, "  gateway.upstream   turn=2  chunk=1/3 ", core.Tag{Site: "gateway.upstream", Chunk: 1, Chunks: 3, Turn: 2}),
		Entry(nil, "my_agent-v2.call turn=999999999", core.Tag{Site: "my_agent-v2.call", Turn: 999999999}),
		Entry(nil, "session.turn turn=2 round=2", core.Tag{Site: "session.turn", Turn: 2, Round: 2}),
		Entry(nil, "gateway.upstream round=1 turn=4", core.Tag{Site: "gateway.upstream", Turn: 4, Round: 1}),
	)

	DescribeTable("refuses malformed tags at the byte of the problem",
		func(text string, offset int, msg string) {
			_, err := core.ParseTag(text)
			var te *core.TagError
			Expect(errors.As(err, &te)).To(BeTrue(), "%v", err)
			Expect(te.Offset).To(Equal(offset))
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		func(text string, _ int, msg string) string { return fmt.Sprintf("%q: %s", text, msg) },
		Entry(nil, "", 0, "want a site"),
		Entry(nil, "   ", 3, "want a site"),
		Entry(nil, "turn=3", 4, "want letters, digits"),
		Entry(nil, "session.turn turn", 13, "want chunk=i/n, turn=t or round=r"),
		Entry(nil, "session.turn step=2", 13, `unknown facet "step"`),
		Entry(nil, "session.turn round=0", 19, "round \"0\": want a number from 1"),
		Entry(nil, "session.turn round=1 round=2", 21, "round given twice"),
		Entry(nil, "session.turn turn=0", 18, "want a number from 1"),
		Entry(nil, "session.turn turn=01", 18, "want a number from 1"),
		Entry(nil, "session.turn turn=+1", 18, "want a number from 1"),
		Entry(nil, "session.turn turn=1x", 19, "want a number from 1"),
		Entry(nil, "session.turn turn=1234567890", 18, "want a number from 1"),
		Entry(nil, "session.turn turn=1 turn=2", 20, "turn given twice"),
		Entry(nil, "extract.map chunk=3/2", 18, "want i <= n"),
		Entry(nil, "extract.map chunk=3", 18, "want i/n"),
		Entry(nil, "extract.map chunk=1/", 20, "chunk total"),
		Entry(nil, "extract.map\tchunk=1/2", 11, "want letters, digits"),
		Entry(nil, strings.Repeat("a", core.MaxTagBytes+1), core.MaxTagBytes, "longer than 256 bytes"),
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
