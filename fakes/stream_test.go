package fakes_test

import (
	"context"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
)

var _ = Describe("CompleteStream", func() {
	It("cuts the text and each call's arguments into near-equal chunks", func() {
		l := newLLM(fakes.Step{Respond: fakes.Respond{
			Text:      ptr("héllo wörld"),
			ToolCalls: []fakes.CallSpec{{ID: "c1", Name: "f", Raw: ptr(`{"a":1}`)}},
			Stream:    &fakes.StreamSpec{Chunks: 3, ErrorAfter: ptr(4)},
		}})
		s, err := l.CompleteStream(ctx, req("x", 0, 0, 0))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Text).To(Equal([]string{"héll", "o wö", "rld"}))
		Expect(s.Args).To(Equal([][]string{{`{"a`, `":`, `1}`}}))
		Expect(s.Chunks()).To(Equal(6))
		Expect(s.ErrorAfter).To(Equal(4))
		Expect(s.DisconnectAfter).To(Equal(-1))
		Expect(s.Response.Text).To(Equal("héllo wörld"))
	})

	It("takes explicit pieces with {{nonce}} replaced, and whole parts without a stream", func() {
		l := newLLM(
			fakes.Step{ID: "split", Match: fakes.Match{Tag: "a"}, Respond: fakes.Respond{Text: ptr("one {{nonce}} two"),
				Stream: &fakes.StreamSpec{Split: []string{"one {{nonce}}", " two"}, DisconnectAfter: ptr(1)}}},
			fakes.Step{ID: "plain", Match: fakes.Match{Tag: "b"}, Respond: fakes.Respond{Text: ptr("ab"),
				ToolCalls: []fakes.CallSpec{{Name: "f"}}}},
		)
		s, err := l.CompleteStream(ctx, req("a", 0, 0, 0, sys("<ai-agent-n1-FINAL>")))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Text).To(Equal([]string{"one n1", " two"}))
		Expect(s.DisconnectAfter).To(Equal(1))
		s, err = l.CompleteStream(ctx, req("b", 0, 0, 0))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Text).To(Equal([]string{"ab"}))
		Expect(s.Args).To(Equal([][]string{{"{}"}}))
		Expect(l.Check()).To(Succeed())
	})

	It("records a fault beyond the stream's chunks as a violation", func() {
		l := newLLM(fakes.Step{ID: "s", Respond: fakes.Respond{Text: ptr("abc"), Stream: &fakes.StreamSpec{Chunks: 2, DisconnectAfter: ptr(3)}}})
		_, err := l.CompleteStream(ctx, req("x", 0, 0, 0))
		Expect(err).To(MatchError(ContainSubstring(`step "s": stream: disconnect_after 3: the stream has 2 chunks`)))
		Expect(l.Check()).To(MatchError(ContainSubstring("disconnect_after 3")))
	})

	It("places delays after chunks: every one before each chunk, after K before what follows the K-th", func() {
		l := newLLM(fakes.Step{Respond: fakes.Respond{Text: ptr("abcd"), ToolCalls: []fakes.CallSpec{{Name: "f", Raw: ptr(`{}`)}},
			Stream: &fakes.StreamSpec{Chunks: 2, Delay: &fakes.DelaySpec{Every: time.Second, After: ptr(3), For: time.Minute}}}})
		s, err := l.CompleteStream(ctx, req("x", 0, 0, 0))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Chunks()).To(Equal(4))
		Expect(s.Delays).To(Equal([]time.Duration{time.Second, time.Second, time.Second, time.Minute + time.Second, 0}))
		Expect(s.Delay(4)).To(BeZero())
		Expect(s.Delay(9)).To(BeZero())
		Expect(s.MidEvent).To(BeFalse())
	})

	It("drops the connection mid-event only after a disconnect", func() {
		l := newLLM(fakes.Step{Respond: fakes.Respond{Text: ptr("abc"),
			Stream: &fakes.StreamSpec{Chunks: 3, DisconnectAfter: ptr(3), MidEvent: true, Delay: &fakes.DelaySpec{After: ptr(3), For: time.Second}}}})
		s, err := l.CompleteStream(ctx, req("x", 0, 0, 0))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.MidEvent).To(BeTrue())
		Expect(s.DisconnectAfter).To(Equal(3))
		Expect(s.Delay(3)).To(Equal(time.Second))
	})

	DescribeTable("records a delay the stream cannot wait for as a violation",
		func(spec fakes.StreamSpec, want string) {
			l := newLLM(fakes.Step{ID: "s", Respond: fakes.Respond{Text: ptr("abc"), Stream: &spec}})
			_, err := l.CompleteStream(ctx, req("x", 0, 0, 0))
			Expect(err).To(MatchError(ContainSubstring(`step "s": stream: ` + want)))
			Expect(l.Check()).To(MatchError(ContainSubstring(want)))
		},
		Entry("after its last chunk", fakes.StreamSpec{Chunks: 3, Delay: &fakes.DelaySpec{After: ptr(4), For: time.Second}},
			"delay after 4: the stream has 3 chunks"),
		Entry("past an error", fakes.StreamSpec{Chunks: 3, ErrorAfter: ptr(1), Delay: &fakes.DelaySpec{After: ptr(2), For: time.Second}},
			"delay after 2: the stream ends at its fault after 1 chunks"),
		Entry("at a disconnect that sends nothing more", fakes.StreamSpec{Chunks: 3, DisconnectAfter: ptr(1), Delay: &fakes.DelaySpec{After: ptr(1), For: time.Second}},
			"delay after 1: nothing follows the disconnect there (mid_event sends half an event)"),
	)

	It("validates streams and reports every problem at once", func() {
		_, err := fakes.NewLLM([]fakes.Step{
			{ID: "both", Respond: fakes.Respond{Text: ptr("ab"), Stream: &fakes.StreamSpec{Chunks: 2, Split: []string{"a", "b"}, ErrorAfter: ptr(-1), DisconnectAfter: ptr(1)}}},
			{ID: "join", Respond: fakes.Respond{Text: ptr("abc"), Stream: &fakes.StreamSpec{Split: []string{"a", ""}}}},
			{ID: "notext", Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "f"}}, Stream: &fakes.StreamSpec{Split: []string{"a"}}}},
			{ID: "err", Respond: fakes.Respond{Error: &fakes.ErrorSpec{Kind: "timeout"}, Stream: &fakes.StreamSpec{Chunks: -1}}},
			{ID: "mid", Respond: fakes.Respond{Text: ptr("ab"), Stream: &fakes.StreamSpec{ErrorAfter: ptr(1), MidEvent: true}}},
			{ID: "delay", Respond: fakes.Respond{Text: ptr("ab"), Stream: &fakes.StreamSpec{Delay: &fakes.DelaySpec{For: time.Hour, Every: -time.Second}}}},
			{ID: "nodelay", Respond: fakes.Respond{Text: ptr("ab"), Stream: &fakes.StreamSpec{Delay: &fakes.DelaySpec{}}}},
			{ID: "after", Respond: fakes.Respond{Text: ptr("ab"), Stream: &fakes.StreamSpec{Delay: &fakes.DelaySpec{After: ptr(-1), For: time.Second}}}},
		}, fakes.Options{})
		Expect(strings.Split(err.Error(), "\n")).To(Equal([]string{
			`fakes: step "both": respond.stream: chunks and split are exclusive; error_after and disconnect_after are exclusive; error_after -1: must be zero or more`,
			`fakes: step "join": respond: stream: split: the pieces join to "a", not to the text "abc"`,
			`respond.stream: split[1]: empty piece`,
			`fakes: step "notext": respond: stream: split cuts text: the step has no text`,
			`fakes: step "err": respond: stream: an injected error has nothing to stream`,
			`respond.stream: chunks -1: must not be negative`,
			`fakes: step "mid": respond.stream: mid_event: goes with disconnect_after (the event the connection drops in)`,
			`fakes: step "delay": respond.stream: delay: after and for go together; every -1s: want a duration from 0 to 10m0s; for 1h0m0s: want a duration from 0 to 10m0s`,
			`fakes: step "nodelay": respond.stream: delay: want every, or after with for`,
			`fakes: step "after": respond.stream: delay: after -1: must be zero or more`,
		}))
	})
})

var _ = Describe("CompleteStream, past the calls it keeps and under concurrency", func() {
	// The stream of a request is cut by the respond.stream of the step that
	// answered that request, not of the call recorded last.
	It("cuts by its own step after MaxKept calls of a bounded LLM", func() {
		l, err := fakes.NewLLM([]fakes.Step{
			{ID: "plain", Match: fakes.Match{Tag: "a"}, Repeat: true, Respond: fakes.Respond{Text: ptr("ab")}},
			{ID: "split", Match: fakes.Match{Tag: "b"}, Respond: fakes.Respond{Text: ptr("abcd"), Stream: &fakes.StreamSpec{Chunks: 4}}},
		}, fakes.Options{Bounded: true})
		Expect(err).NotTo(HaveOccurred())
		for range fakes.MaxKept {
			_, err := l.CompleteStream(ctx, req("a", 0, 0, 0))
			Expect(err).NotTo(HaveOccurred())
		}
		s, err := l.CompleteStream(ctx, req("b", 0, 0, 0))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Text).To(Equal([]string{"a", "b", "c", "d"}))
	})

	It("cuts each of many concurrent requests by its own step", func() {
		l, err := fakes.NewLLM([]fakes.Step{
			{ID: "plain", Match: fakes.Match{Tag: "a"}, Repeat: true, Respond: fakes.Respond{Text: ptr("ab")}},
			{ID: "split", Match: fakes.Match{Tag: "b"}, Repeat: true, Respond: fakes.Respond{Text: ptr("abcd"), Stream: &fakes.StreamSpec{Chunks: 4}}},
		}, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		const n = 200
		got := make([][]string, n)
		done := make(chan struct{})
		for i := range n {
			go func() {
				defer GinkgoRecover()
				defer func() { done <- struct{}{} }()
				site := map[bool]string{true: "a", false: "b"}[i%2 == 0]
				s, err := l.CompleteStream(ctx, req(site, 0, 0, 0))
				Expect(err).NotTo(HaveOccurred())
				got[i] = s.Text
			}()
		}
		for range n {
			<-done
		}
		for i, text := range got {
			if i%2 == 0 {
				Expect(text).To(Equal([]string{"ab"}), "request %d (step plain)", i)
			} else {
				Expect(text).To(Equal([]string{"a", "b", "c", "d"}), "request %d (step split)", i)
			}
		}
	})
})

var _ = Describe("TryStream", func() {
	It("answers as CompleteStream for a request a step answers, and records nothing for one no step answers", func() {
		final := "done"
		l, err := fakes.NewLLM([]fakes.Step{{ID: "a", Match: fakes.Match{Tag: "session.turn", Turn: 1}, Respond: fakes.Respond{Final: &final}}}, fakes.Options{PlainFinal: true})
		Expect(err).NotTo(HaveOccurred())
		turn := func(n int) core.Request { return core.Request{Tag: core.Tag{Site: "session.turn", Turn: n}} }
		_, ok, err := l.TryStream(context.Background(), turn(2))
		Expect(ok).To(BeFalse())
		Expect(err).NotTo(HaveOccurred())
		s, ok, err := l.TryStream(context.Background(), turn(1))
		Expect(ok).To(BeTrue())
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Response.Text).To(Equal("done"))
		_, ok, _ = l.TryStream(context.Background(), turn(1)) // used up
		Expect(ok).To(BeFalse())
		Expect(l.Violations()).To(BeEmpty())
		Expect(l.Calls()).To(HaveLen(1))
		Expect(l.Check()).To(Succeed())
	})
})

var _ = Describe("A stream's recorded timing", func() {
	It("is played by Replayed alone, each wait times the speed, on top of the scripted delays", func() {
		text := "héllo wörld, how are you"
		every := fakes.DelaySpec{Every: 10 * time.Millisecond}
		l, err := fakes.NewLLM([]fakes.Step{{ID: "a", Respond: fakes.Respond{Text: &text, Stream: &fakes.StreamSpec{Chunks: 5, Delay: &every,
			Recorded: &fakes.RecordedSpec{FirstByte: 800 * time.Millisecond, Every: 50 * time.Millisecond}}}}}, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		s, err := l.CompleteStream(context.Background(), core.Request{})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Delays).To(Equal([]time.Duration{10e6, 10e6, 10e6, 10e6, 10e6, 0}))
		total := func(ds []time.Duration) (t time.Duration) {
			for _, d := range ds {
				t += d
			}
			return t
		}
		// As recorded: 800 ms to the first byte, then 4 gaps of 50 ms.
		recorded := 800*time.Millisecond + 4*50*time.Millisecond
		played := s.Replayed(1)
		Expect(total(played.Delays) - total(s.Delays)).To(BeNumerically("~", recorded, recorded/5))
		Expect(played.Delays[0]).To(Equal(810 * time.Millisecond))
		Expect(total(s.Replayed(0.5).Delays) - total(s.Delays)).To(Equal(recorded / 2))
		Expect(s.Replayed(0).Delays).To(Equal(s.Delays))
	})

	It("is checked: durations from 0 to MaxDelay", func() {
		Expect(fakes.StreamSpec{Recorded: &fakes.RecordedSpec{FirstByte: -1}}.Validate()).To(MatchError(ContainSubstring("recorded: first_byte -1ns: want a duration from 0")))
	})
})
