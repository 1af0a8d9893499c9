package fakes_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
)

func ptr[T any](v T) *T { return &v }

func req(site string, chunk, chunks, turn int, msgs ...core.Message) core.Request {
	return core.Request{Tag: core.Tag{Site: site, Chunk: chunk, Chunks: chunks, Turn: turn}, Messages: msgs}
}

func sys(s string) core.Message  { return core.Message{Role: core.RoleSystem, Content: s} }
func user(s string) core.Message { return core.Message{Role: core.RoleUser, Content: s} }

func newLLM(steps ...fakes.Step) *fakes.LLM {
	l, err := fakes.NewLLM(steps, fakes.Options{})
	Expect(err).NotTo(HaveOccurred())
	return l
}

var ctx = context.Background()

// afterDeadline bounds each wait of a spec on a step with After: generous, so
// that a loaded machine does not fail it, and finite, so that a broken fake
// fails the spec rather than hanging it.
const afterDeadline = 10 * time.Second

var _ = Describe("LLM", func() {
	It("matches on tag, chunk, turn and substrings, never on order", func() {
		l := newLLM(
			fakes.Step{ID: "reduce", Match: fakes.Match{Tag: "extract.reduce"}, Respond: fakes.Respond{Text: ptr("R")}},
			fakes.Step{ID: "turn2", Match: fakes.Match{Tag: "session.turn", Turn: 2}, Respond: fakes.Respond{Text: ptr("T2")}},
			fakes.Step{ID: "sys", Match: fakes.Match{System: []string{"grep"}, User: []string{"needle"}}, Respond: fakes.Respond{Text: ptr("S")}},
			fakes.Step{ID: "any", Match: fakes.Match{Contains: []string{"hay"}}, Respond: fakes.Respond{Text: ptr("A")}},
		)
		for _, c := range []struct {
			r    core.Request
			want string
		}{
			{req("x", 0, 0, 0, user("hay")), "A"},
			{req("x", 0, 0, 0, sys("use grep"), user("needle")), "S"},
			{req("session.turn", 0, 0, 2), "T2"},
			{req("extract.reduce", 0, 0, 0), "R"},
		} {
			resp, err := l.Complete(ctx, c.r)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal(c.want))
		}
		Expect(l.Check()).To(Succeed())
		calls := l.Calls()
		Expect(calls).To(HaveLen(4))
		Expect(calls[0].Seq).To(Equal(1))
		Expect(calls[0].Step).To(Equal("any"))
		Expect(l.Unused()).To(BeEmpty())
	})

	It("answers any number of requests with a repeat step, and reports one that never answered", func() {
		l := newLLM(
			fakes.Step{ID: "map", Match: fakes.Match{Tag: "extract.map"}, Respond: fakes.Respond{Text: ptr("M")}, Repeat: true},
			fakes.Step{ID: "reduce", Match: fakes.Match{Tag: "extract.reduce"}, Respond: fakes.Respond{Text: ptr("R")}, Repeat: true, Times: 2},
			fakes.Step{ID: "never", Match: fakes.Match{Tag: "x"}, Respond: fakes.Respond{Text: ptr("X")}, Repeat: true},
		)
		for i := 1; i <= 5; i++ {
			resp, err := l.Complete(ctx, req("extract.map", i, 5, 0))
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal("M"))
		}
		_, err := l.Complete(ctx, req("extract.reduce", 0, 0, 0))
		Expect(err).NotTo(HaveOccurred())
		Expect(l.Violations()).To(Equal([]fakes.Violation{
			{Msg: `step "reduce" was used 1 of 2 times`},
			{Msg: `step "never" was never used`},
		}))
		_, err = l.Complete(ctx, req("extract.reduce", 0, 0, 0))
		Expect(err).NotTo(HaveOccurred())
		Expect(l.Unused()).To(HaveLen(1))
		Expect(l.Unused()[0].ID).To(Equal("never"))
	})

	It("answers concurrent map calls by chunk, whatever their order", func() {
		var steps []fakes.Step
		for i := 1; i <= 8; i++ {
			steps = append(steps, fakes.Step{ID: fmt.Sprint(i), Match: fakes.Match{Tag: "extract.map", Chunk: fmt.Sprintf("%d/8", i)},
				Respond: fakes.Respond{Text: ptr(fmt.Sprintf("chunk %d", i))}})
		}
		l := newLLM(steps...)
		var wg sync.WaitGroup
		for _, i := range rand.Perm(8) {
			wg.Go(func() {
				defer GinkgoRecover()
				resp, err := l.Complete(ctx, req("extract.map", i+1, 8, 0))
				Expect(err).NotTo(HaveOccurred())
				Expect(resp.Text).To(Equal(fmt.Sprintf("chunk %d", i+1)))
			})
		}
		wg.Wait()
		Expect(l.Check()).To(Succeed())
	})

	It("makes a step with after answer only once the named steps have answered", func() {
		// 1 comes after 2, which comes after 3. The requests are sent 1, 2,
		// 3, each once the previous one is seen waiting, so both waits are
		// exercised. Only facts the fake's lock orders are compared: which
		// requests are waiting, and the order of answers in Calls. (The
		// order in which callers' goroutines resume after their answers is
		// up to the scheduler, and comparing it was flaky.)
		var steps []fakes.Step
		for i := 1; i <= 3; i++ {
			st := fakes.Step{ID: fmt.Sprint(i), Match: fakes.Match{Tag: "extract.map", Chunk: fmt.Sprintf("%d/3", i)},
				Respond: fakes.Respond{Text: ptr(fmt.Sprint(i))}}
			if i < 3 {
				st.After = []string{fmt.Sprint(i + 1)}
			}
			steps = append(steps, st)
		}
		l := newLLM(steps...)
		answers := map[int]chan string{}
		send := func(i int) {
			answers[i] = make(chan string, 1)
			go func() {
				defer GinkgoRecover()
				resp, err := l.Complete(ctx, req("extract.map", i, 3, 0))
				Expect(err).NotTo(HaveOccurred())
				answers[i] <- resp.Text
			}()
		}
		send(1)
		Eventually(l.Waiting).WithTimeout(afterDeadline).WithPolling(time.Millisecond).Should(Equal([]string{"1"}))
		send(2)
		Eventually(l.Waiting).WithTimeout(afterDeadline).WithPolling(time.Millisecond).Should(Equal([]string{"1", "2"}))
		Expect(answers[1]).NotTo(Receive(), "1 answered before 2")
		Expect(answers[2]).NotTo(Receive(), "2 answered before 3")
		resp, err := l.Complete(ctx, req("extract.map", 3, 3, 0))
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("3"))
		Eventually(answers[2]).WithTimeout(afterDeadline).Should(Receive(Equal("2")))
		Eventually(answers[1]).WithTimeout(afterDeadline).Should(Receive(Equal("1")))
		var answered []string
		var arrived []int
		for _, c := range l.Calls() {
			answered, arrived = append(answered, c.Step), append(arrived, c.Seq)
		}
		Expect(answered).To(Equal([]string{"3", "2", "1"}))
		Expect(arrived).To(Equal([]int{3, 2, 1}))
		Expect(l.Waiting()).To(BeEmpty())
		Expect(l.Check()).To(Succeed())
	})

	It("reports a step whose awaited step never answers when the context ends", func() {
		l := newLLM(
			fakes.Step{ID: "first", Match: fakes.Match{Chunk: "1/2"}, Respond: fakes.Respond{Text: ptr("1")}, After: []string{"second"}},
			fakes.Step{ID: "second", Match: fakes.Match{Chunk: "2/2"}, Respond: fakes.Respond{Text: ptr("2")}},
		)
		cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		defer cancel()
		_, err := l.Complete(cctx, req("extract.map", 1, 2, 0))
		Expect(err).To(MatchError(ContainSubstring(`step "first": context deadline exceeded for step "second", which never answered`)))
		Expect(l.Check()).To(MatchError(ContainSubstring(`step "second" was never used`)))
	})

	Describe("strictness", func() {
		It("fails an unmatched request with a diff against the nearest step", func() {
			l := newLLM(fakes.Step{ID: "map-1", Pos: "s.yaml:3:5", Match: fakes.Match{Tag: "extract.map", Chunk: "1/2"}, Respond: fakes.Respond{Text: ptr("x")}})
			_, err := l.Complete(ctx, req("extract.reduce", 0, 0, 0))
			Expect(err).To(MatchError("fakes: request extract.reduce: no step matches\n" +
				"nearest step \"map-1\" (s.yaml:3:5) (-step +request):\n" +
				"  - tag: extract.map\n  + tag: extract.reduce\n  - chunk: 1/2\n  + chunk: (none)"))
			Expect(l.Check()).To(MatchError(ContainSubstring("no step matches")))
		})

		It("matches a gateway's round, a request no gateway forwarded being round 1", func() {
			l := newLLM(
				fakes.Step{ID: "first", Match: fakes.Match{Turn: 2, Round: 1}, Respond: fakes.Respond{Text: ptr("1")}},
				fakes.Step{ID: "expansion", Pos: "s.yaml:9:3", Match: fakes.Match{Turn: 2, Round: 2}, Respond: fakes.Respond{Text: ptr("2")}},
			)
			r := req("session.turn", 0, 0, 2)
			resp, err := l.Complete(ctx, r)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal("1"), "no round is round 1")
			r.Tag.Round = 2
			resp, err = l.Complete(ctx, r)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal("2"))
			r.Tag.Round = 3
			_, err = l.Complete(ctx, r)
			Expect(err).To(MatchError(ContainSubstring("request session.turn turn=2 round=3: no step matches\nnearest step \"first\" (-step +request):\n  - round: 1\n  + round: 3")))
			Expect(fakes.Match{Round: -1}.Validate()).To(MatchError("round -1: must not be negative"))
		})

		It("quotes what the request held for a text that did not match, cut to its two ends", func() {
			long := "BEGIN " + strings.Repeat("system reminder ", 1000) + "END"
			l := newLLM(fakes.Step{ID: "s", Pos: "s.yaml:2:3", Match: fakes.Match{System: []string{"grep"}, User: []string{"needle"}, Contains: []string{"zzz"}},
				Respond: fakes.Respond{Text: ptr("x")}})
			_, err := l.Complete(ctx, req("x", 0, 0, 0, sys("you read logs"), user(long)))
			Expect(err).To(MatchError(ContainSubstring("  - system: \"grep\"\n  + system: \"you read logs\"\n")))
			msg := err.Error()
			Expect(msg).To(MatchRegexp(`\n  - user: "needle"\n  \+ user: "BEGIN (system reminder ){12}sy" … "nder (system reminder ){12}END" \(16009 bytes\)\n`))
			Expect(msg).To(MatchRegexp(`\n  - contains: "zzz"\n  \+ contains: "you read logs\\nBEGIN system reminder [^\n]*reminder END" \(16023 bytes\)$`))
			_, err = l.Complete(ctx, req("x", 0, 0, 0))
			Expect(err).To(MatchError(ContainSubstring("  + system: (none)\n  - user: \"needle\"\n  + user: (none)")))
			two := newLLM(fakes.Step{ID: "s", Match: fakes.Match{User: []string{"a", "b"}}, Respond: fakes.Respond{Text: ptr("x")}})
			_, err = two.Complete(ctx, req("x", 0, 0, 0, user("neither")))
			Expect(err).To(MatchError(HaveSuffix("  - user: \"a\"\n  + user: \"neither\"\n  - user: \"b\"\n  + user: (as above)")), "one quote per text")
			_, err = l.Complete(ctx, req("x", 0, 0, 0, sys("grep"), user("a"+strings.Repeat("é", 300))))
			Expect(err).To(MatchError(ContainSubstring(`+ user: "a`+strings.Repeat("é", 99)+`" … "`+strings.Repeat("é", 100)+`" (601 bytes)`)),
				"cut on rune boundaries, never inside a character")
		})

		It("fails a request to a used-up step and reports unused and partly used steps", func() {
			l := newLLM(
				fakes.Step{ID: "once", Pos: "s.yaml:1:3", Match: fakes.Match{Tag: "a"}, Respond: fakes.Respond{Text: ptr("x")}},
				fakes.Step{ID: "thrice", Match: fakes.Match{Tag: "b"}, Times: 3, Respond: fakes.Respond{Text: ptr("y")}},
				fakes.Step{ID: "never", Match: fakes.Match{Tag: "c"}, Respond: fakes.Respond{Text: ptr("z")}},
			)
			_, err := l.Complete(ctx, req("a", 0, 0, 0))
			Expect(err).NotTo(HaveOccurred())
			_, err = l.Complete(ctx, req("a", 0, 0, 0))
			Expect(err).To(MatchError(`fakes: request a: step "once" matches but is used up (1 of 1 times) (s.yaml:1:3)`))
			_, err = l.Complete(ctx, req("b", 0, 0, 0))
			Expect(err).NotTo(HaveOccurred())
			Expect(l.Violations()).To(Equal([]fakes.Violation{
				{Pos: "s.yaml:1:3", Msg: `request a: step "once" matches but is used up (1 of 1 times)`},
				{Msg: `step "thrice" was used 1 of 3 times`},
				{Msg: `step "never" was never used`},
			}))
			Expect(l.Unused()).To(HaveLen(2))
		})
	})

	Describe("responses", func() {
		wrapper := sys(`Answer in <ai-agent-abc-FINAL format="text"> ... </ai-agent-abc-FINAL>`)

		It("wraps final in the request's nonce and substitutes {{nonce}} in text", func() {
			l := newLLM(
				fakes.Step{Match: fakes.Match{Tag: "f"}, Respond: fakes.Respond{Final: ptr("done")}},
				fakes.Step{Match: fakes.Match{Tag: "t"}, Respond: fakes.Respond{Text: ptr("<ai-agent-{{nonce}}-FINAL>open")}},
			)
			resp, err := l.Complete(ctx, req("f", 0, 0, 0, wrapper))
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal(`<ai-agent-abc-FINAL format="text">done</ai-agent-abc-FINAL>`))
			Expect(resp.FinishReason).To(Equal(core.FinishStop))
			resp, _ = l.Complete(ctx, req("t", 0, 0, 0, wrapper))
			Expect(resp.Text).To(Equal("<ai-agent-abc-FINAL>open"))
		})

		It("records a final response to a request without a nonce as a violation", func() {
			l := newLLM(fakes.Step{ID: "f", Respond: fakes.Respond{Final: ptr("done")}})
			_, err := l.Complete(ctx, req("f", 0, 0, 0, user("no wrapper here")))
			Expect(err).To(MatchError(`fakes: step "f": respond final: the request names no final-report nonce`))
			Expect(l.Check()).To(HaveOccurred())
		})

		It("answers final with the bare text to a request without a nonce when PlainFinal is set", func() {
			l, err := fakes.NewLLM([]fakes.Step{{ID: "f", Respond: fakes.Respond{Final: ptr("done")}, Times: 2}}, fakes.Options{PlainFinal: true})
			Expect(err).NotTo(HaveOccurred())
			resp, err := l.Complete(ctx, req("f", 0, 0, 0, user("no wrapper here")))
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal("done"))
			resp, err = l.Complete(ctx, req("f", 0, 0, 0, wrapper))
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal(`<ai-agent-abc-FINAL format="text">done</ai-agent-abc-FINAL>`), "a request that names a nonce still gets the wrapper")
			Expect(l.Check()).To(Succeed())
		})

		It("sends tool calls with generated or given ids and JSON arguments", func() {
			l := newLLM(fakes.Step{Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{
				{Name: "a", Args: map[string]any{"x": 1}},
				{ID: "given", Name: "b"},
				{Name: "c", Raw: ptr(`{"broken":`)},
			}}})
			resp, err := l.Complete(ctx, req("s", 0, 0, 1))
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.FinishReason).To(Equal(core.FinishToolCalls))
			Expect(resp.ToolCalls).To(HaveLen(3))
			Expect(resp.ToolCalls[0].ID).To(Equal("call-1"))
			Expect(string(resp.ToolCalls[0].Arguments)).To(Equal(`{"x":1}`))
			Expect(resp.ToolCalls[1].ID).To(Equal("given"))
			Expect(string(resp.ToolCalls[1].Arguments)).To(Equal(`{}`))
			Expect(resp.ToolCalls[2].ID).To(Equal("call-2"))
			Expect(string(resp.ToolCalls[2].Arguments)).To(Equal(`{"broken":`))
		})

		It("sends a custom tool call (custom: true) with its free-text input, marked custom", func() {
			patch := "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch"
			l := newLLM(fakes.Step{Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{
				{Name: "apply_patch", Custom: true, Input: ptr(patch)},
				{Name: "shell", Args: map[string]any{"command": []any{"ls"}}},
			}}})
			resp, err := l.Complete(ctx, req("s", 0, 0, 1))
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.FinishReason).To(Equal(core.FinishToolCalls))
			Expect(resp.ToolCalls).To(HaveLen(2))
			Expect(resp.ToolCalls[0].Custom).To(BeTrue())
			Expect(resp.ToolCalls[0].ID).To(Equal("call-1"))
			Expect(resp.ToolCalls[0].Input()).To(Equal(patch))
			Expect(resp.ToolCalls[1].Custom).To(BeFalse())
			Expect(resp.ToolCalls[1].Input()).To(Equal(`{"command":["ls"]}`))
		})

		It("streams a custom call's input in pieces of the text, not of its JSON", func() {
			l := newLLM(fakes.Step{Respond: fakes.Respond{
				ToolCalls: []fakes.CallSpec{{Name: "apply_patch", Custom: true, Input: ptr(`a"b\c`)}},
				Stream:    &fakes.StreamSpec{Chunks: 2}}})
			s, err := l.CompleteStream(ctx, req("s", 0, 0, 1))
			Expect(err).NotTo(HaveOccurred())
			Expect(s.Args).To(Equal([][]string{{`a"b`, `\c`}}))
		})

		DescribeTable("injects errors that wrap the matching cause and are not violations",
			func(kind string, cause error) {
				l := newLLM(fakes.Step{ID: "e", Respond: fakes.Respond{Error: &fakes.ErrorSpec{Kind: kind}}})
				_, err := l.Complete(ctx, req("x", 0, 0, 0))
				Expect(errors.Is(err, cause)).To(BeTrue(), err.Error())
				Expect(l.Check()).To(Succeed())
			},
			Entry("timeout", fakes.ErrorTimeout, context.DeadlineExceeded),
			Entry("rate limit", fakes.ErrorRateLimit, core.ErrRateLimited),
			Entry("server error", fakes.ErrorServerError, core.ErrServer),
		)

		It("returns the context's error when it is done", func() {
			l := newLLM()
			c, cancel := context.WithCancel(ctx)
			cancel()
			_, err := l.Complete(c, req("x", 0, 0, 0))
			Expect(err).To(MatchError(context.Canceled))
			Expect(l.Calls()).To(BeEmpty())
		})

		It("keeps tags only, and the first MaxKept calls and violations, when Bounded", func() {
			l, err := fakes.NewLLM([]fakes.Step{{ID: "one", Respond: fakes.Respond{Text: ptr("hi")}}}, fakes.Options{Bounded: true})
			Expect(err).NotTo(HaveOccurred())
			for range fakes.MaxKept + 2 {
				_, _ = l.Complete(ctx, req("x", 0, 0, 0, user("a long request")))
			}
			Expect(l.Calls()).To(HaveLen(fakes.MaxKept))
			Expect(l.Calls()[0].Request).To(Equal(core.Request{Tag: core.Tag{Site: "x"}}))
			v := l.Violations()
			Expect(v).To(HaveLen(fakes.MaxKept+1), "one answered, then 1001 used up: 1000 kept, one counted")
			Expect(v[fakes.MaxKept]).To(Equal(fakes.Violation{Msg: fmt.Sprintf("1 more violation(s) not kept (at most %d are)", fakes.MaxKept)}))
		})

		It("fills usage when given a tokenizer", func() {
			l, err := fakes.NewLLM([]fakes.Step{{Respond: fakes.Respond{Text: ptr("two words")}}}, fakes.Options{Tokenizer: words{}})
			Expect(err).NotTo(HaveOccurred())
			resp, _ := l.Complete(ctx, req("x", 0, 0, 0, user("one two three")))
			Expect(resp.Usage).To(Equal(core.Usage{InputTokens: 3, OutputTokens: 2}))
		})
	})

	Describe("oracles", func() {
		text := "ts=1 level=INFO\nts=2 level=ERROR\nts=3 level=ERROR"

		DescribeTable("compute answers from the request",
			func(o fakes.OracleSpec, msgs []core.Message, want string) {
				l := newLLM(fakes.Step{Respond: fakes.Respond{Oracle: &o}})
				resp, err := l.Complete(ctx, req("x", 0, 0, 0, msgs...))
				Expect(err).NotTo(HaveOccurred())
				Expect(resp.Text).To(Equal(want))
			},
			Entry("grep-lines", fakes.OracleSpec{Name: "grep-lines", Params: map[string]any{"pattern": "ERROR"}},
				[]core.Message{user(text)}, "ts=2 level=ERROR\nts=3 level=ERROR"),
			Entry("grep-lines, nothing", fakes.OracleSpec{Name: "grep-lines", Params: map[string]any{"pattern": "WARN"}},
				[]core.Message{user(text)}, "NO RELEVANT DATA FOUND\nno line matches \"WARN\""),
			Entry("grep-lines wrapped when a nonce is named", fakes.OracleSpec{Name: "grep-lines", Params: map[string]any{"pattern": "ts=1"}},
				[]core.Message{sys("<ai-agent-q-FINAL format=\"text\">"), user(text)}, `<ai-agent-q-FINAL format="text">ts=1 level=INFO</ai-agent-q-FINAL>`),
			Entry("grep-lines in system, unwrapped", fakes.OracleSpec{Name: "grep-lines", Wrap: "none", Params: map[string]any{"pattern": "FINAL", "in": "system"}},
				[]core.Message{sys("<ai-agent-q-FINAL>"), user(text)}, "<ai-agent-q-FINAL>"),
			Entry("grep-matches", fakes.OracleSpec{Name: "grep-matches", Params: map[string]any{"pattern": `ts=\d`}},
				[]core.Message{user(text + " ts=3")}, "ts=1\nts=2\nts=3\nts=3"),
			Entry("grep-matches, unique", fakes.OracleSpec{Name: "grep-matches", Params: map[string]any{"pattern": `ts=\d`, "unique": true}},
				[]core.Message{user(text + " ts=3")}, "ts=1\nts=2\nts=3"),
			Entry("grep-matches, nothing", fakes.OracleSpec{Name: "grep-matches", Params: map[string]any{"pattern": "WARN"}},
				[]core.Message{user(text)}, "NO RELEVANT DATA FOUND\nnothing matches \"WARN\""),
			Entry("grep-matches, nothing, with params.none", fakes.OracleSpec{Name: "grep-matches", Params: map[string]any{"pattern": "WARN", "none": "none here"}},
				[]core.Message{user(text)}, "none here"),
			Entry("grep-lines, nothing, with params.none", fakes.OracleSpec{Name: "grep-lines", Params: map[string]any{"pattern": "WARN", "none": ""}},
				[]core.Message{user(text)}, ""),
			Entry("grep-lines, a match, params.none unused", fakes.OracleSpec{Name: "grep-lines", Params: map[string]any{"pattern": "ts=1", "none": "x"}},
				[]core.Message{user(text)}, "ts=1 level=INFO"),
			Entry("echo", fakes.OracleSpec{Name: "echo"}, []core.Message{user("hello")}, "hello"),
			Entry("echo all", fakes.OracleSpec{Name: "echo", Params: map[string]any{"in": "all"}}, []core.Message{sys("a"), user("b")}, "a\nb"),
		)

		It("lists the oracles", func() {
			Expect(fakes.OracleNames()).To(Equal([]string{"echo", "grep-lines", "grep-matches"}))
			o, ok := fakes.LookupOracle("echo")
			Expect(ok).To(BeTrue())
			Expect(o.Doc).NotTo(BeEmpty())
		})
	})

	DescribeTable("validates steps and reports every problem at once",
		func(steps []fakes.Step, want ...string) {
			_, err := fakes.NewLLM(steps, fakes.Options{})
			Expect(err).To(HaveOccurred())
			Expect(strings.Split(err.Error(), "\n")).To(Equal(want))
		},
		Entry("duplicate id and bad chunks",
			[]fakes.Step{
				{ID: "a", Respond: fakes.Respond{Text: ptr("")}},
				{ID: "a", Respond: fakes.Respond{Text: ptr("")}},
				{ID: "b", Match: fakes.Match{Chunk: "0/2"}, Respond: fakes.Respond{Text: ptr("")}},
				{ID: "c", Match: fakes.Match{Chunk: "3/2"}, Respond: fakes.Respond{Text: ptr("")}},
			},
			`fakes: step "a": duplicate id`,
			`fakes: step "b": match: chunk "0/2": want i/n with 1 <= i <= n`,
			`fakes: step "c": match: chunk "3/2": want i/n with 1 <= i <= n`),
		Entry("bad responses",
			[]fakes.Step{
				{ID: "empty"},
				{ID: "both", Respond: fakes.Respond{Text: ptr("a"), Final: ptr("b")}},
				{ID: "err+calls", Respond: fakes.Respond{Error: &fakes.ErrorSpec{Kind: "timeout"}, ToolCalls: []fakes.CallSpec{{Name: "x"}}}},
				{ID: "kind", Respond: fakes.Respond{Error: &fakes.ErrorSpec{Kind: "boom"}}},
				{ID: "noname", Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{{Args: map[string]any{}, Raw: ptr("{}")}}}},
			},
			`fakes: step "empty": respond: want one of text, final, tool_calls, error, oracle`,
			`fakes: step "both": respond: text and final are exclusive`,
			`fakes: step "err+calls": respond: error stands alone (got tool_calls, error)`,
			`fakes: step "kind": respond.error: error kind "boom": want timeout, rate_limit or server_error`,
			`fakes: step "noname": respond.tool_calls[0]: name is required`,
			`args and raw are exclusive`),
		Entry("bad custom calls",
			[]fakes.Step{
				{ID: "noinput", Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "p", Custom: true}}}},
				{ID: "args", Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "p", Custom: true, Input: ptr(""), Args: map[string]any{}, Raw: ptr("{}")}}}},
				{ID: "notcustom", Respond: fakes.Respond{ToolCalls: []fakes.CallSpec{{Name: "p", Input: ptr("x")}}}},
			},
			`fakes: step "noinput": respond.tool_calls[0]: custom: true wants input (the call's free text)`,
			`fakes: step "args": respond.tool_calls[0]: custom: true takes input, not args or raw`,
			`fakes: step "notcustom": respond.tool_calls[0]: input is a custom tool call's text: add custom: true (a function call takes args or raw)`),
		Entry("after naming itself or an unknown step",
			[]fakes.Step{
				{ID: "a", Respond: fakes.Respond{Text: ptr("")}, After: []string{"a", "zz"}},
			},
			`fakes: step "a": after: names itself`,
			`fakes: step "a": after: no step "zz"`),
		Entry("bad oracles",
			[]fakes.Step{
				{ID: "o1", Respond: fakes.Respond{Oracle: &fakes.OracleSpec{Name: "grep"}}},
				{ID: "o2", Respond: fakes.Respond{Oracle: &fakes.OracleSpec{Name: "grep-lines", Params: map[string]any{"pattern": "("}}}},
				{ID: "o3", Respond: fakes.Respond{Oracle: &fakes.OracleSpec{Name: "echo", Params: map[string]any{"x": 1, "in": "nowhere"}}}},
				{ID: "o4", Respond: fakes.Respond{Oracle: &fakes.OracleSpec{Name: "grep-matches", Params: map[string]any{"pattern": "x", "none": 3}}}},
			},
			`fakes: step "o1": respond.oracle: oracle "grep": unknown (known: echo, grep-lines, grep-matches)`,
			"fakes: step \"o2\": respond.oracle: oracle \"grep-lines\": params.pattern: error parsing regexp: missing closing ): `(`",
			`fakes: step "o3": respond.oracle: oracle "echo": unknown params x (known: in)`,
			`params.in nowhere: want user, system or all`,
			`fakes: step "o4": respond.oracle: oracle "grep-matches": params.none 3: want a string`),
	)
})

// words counts white-space separated words, a tokenizer for tests.
type words struct{}

func (words) Name() string       { return "words" }
func (words) Count(s string) int { return len(strings.Fields(s)) }
func (words) Pieces(dst []core.Piece, s string) []core.Piece {
	if s != "" {
		dst = append(dst, core.Piece{Start: 0, End: len(s), Tokens: len(strings.Fields(s))})
	}
	return dst
}
