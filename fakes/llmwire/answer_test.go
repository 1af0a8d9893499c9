package llmwire_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/fakes/llmwire"
)

// stream is a scripted answer cut as fakes cuts it: "Hello, world" in
// three pieces, then a call whose arguments come in two.
func stream(errorAfter, disconnectAfter int) fakes.Stream {
	return fakes.Stream{
		Response:   core.Response{Text: "Hello, world", ToolCalls: []core.ToolCall{{ID: "c1", Name: "f", Arguments: []byte(`{"a":1}`)}}},
		Text:       []string{"Hello", ", wor", "ld"},
		Args:       [][]string{{`{"a"`, `:1}`}},
		ErrorAfter: errorAfter, DisconnectAfter: disconnectAfter,
	}
}

// assemble is what the gateway's own reader makes of a wire's stream.
func assemble(w llmwire.Wire, raw []byte) ([]byte, error) {
	switch w {
	case llmwire.Anthropic:
		return anthropic.Wire{}.Assemble(raw)
	case llmwire.Responses:
		return responses.Assemble(raw)
	}
	return openai.Wire{}.Assemble(raw)
}

var _ = Describe("Wire", func() {
	It("names the wires and refuses any other", func() {
		w, err := llmwire.ParseWire("anthropic")
		Expect(err).NotTo(HaveOccurred())
		Expect(w.Path()).To(Equal("/v1/messages"))
		Expect(w.ID(3)).To(Equal("msg_3"))
		Expect(llmwire.OpenAI.Path()).To(Equal("/v1/chat/completions"))
		Expect(llmwire.OpenAI.ID(3)).To(Equal("cmpl-3"))
		w, err = llmwire.ParseWire("responses")
		Expect(err).NotTo(HaveOccurred())
		Expect(w.Path()).To(Equal("/v1/responses"))
		Expect(w.ID(3)).To(Equal("resp_3"))
		_, err = llmwire.ParseWire("bedrock")
		Expect(err).To(MatchError(`llmwire: wire "bedrock": want openai, anthropic or responses`))
	})

	DescribeTable("answers the LLM's errors as the provider does",
		func(w llmwire.Wire, err error, code int, body string) {
			a := w.Error(err)
			Expect(a.Status).To(Equal(code))
			Expect(a.Header.Get("Content-Type")).To(Equal("application/json"))
			Expect(string(a.Body)).To(Equal(body))
			Expect(a.Stream()).To(BeFalse())
		},
		func(w llmwire.Wire, err error, code int, _ string) string {
			return fmt.Sprintf("%s: %v -> %d", w, err, code)
		},
		Entry(nil, llmwire.OpenAI, fmt.Errorf("x: %w", core.ErrRateLimited), 429, `{"error":{"message":"x: rate limited","type":"rate_limit_exceeded","code":null}}`),
		Entry(nil, llmwire.Anthropic, context.DeadlineExceeded, 504, `{"type":"error","error":{"type":"timeout_error","message":"context deadline exceeded"}}`),
		Entry(nil, llmwire.Anthropic, errors.New("boom"), 500, `{"type":"error","error":{"type":"api_error","message":"boom"}}`),
	)

	It("answers a body that does not decode with 400", func() {
		_, _, err := llmwire.Anthropic.Decode([]byte(`{"messages":7}`), core.Tag{})
		Expect(err).To(HaveOccurred())
		a := llmwire.Anthropic.BadRequest(err)
		Expect(a.Status).To(Equal(400))
		Expect(string(a.Body)).To(HavePrefix(`{"type":"error","error":{"type":"invalid_request_error","message":"anthropic`))
	})

	DescribeTable("a whole answer decodes back to the response",
		func(w llmwire.Wire) {
			s := stream(-1, -1)
			a, err := w.Reply(s, w.ID(1), false)
			Expect(err).NotTo(HaveOccurred())
			Expect(a.Status).To(Equal(200))
			decode := map[llmwire.Wire]func([]byte) (core.Response, error){llmwire.OpenAI: openai.DecodeResponse,
				llmwire.Anthropic: anthropic.DecodeResponse, llmwire.Responses: responses.DecodeResponse}[w]
			got, err := decode(a.Body)
			Expect(err).NotTo(HaveOccurred())
			Expect(got.Text).To(Equal(s.Response.Text))
			Expect(got.ToolCalls).To(HaveLen(1))
			Expect(string(got.ToolCalls[0].Arguments)).To(Equal(`{"a":1}`))
		},
		Entry("openai", llmwire.OpenAI), Entry("anthropic", llmwire.Anthropic), Entry("responses", llmwire.Responses),
	)

	DescribeTable("a whole stream assembles with the gateway's reader; a fault ends it as scripted",
		func(w llmwire.Wire, errorAfter, disconnectAfter int, deltas int, wantErr string) {
			a, err := w.Reply(stream(errorAfter, disconnectAfter), w.ID(1), true)
			Expect(err).NotTo(HaveOccurred())
			Expect(a.Header.Get("Content-Type")).To(Equal("text/event-stream"))
			Expect(a.Cut).To(Equal(disconnectAfter >= 0))
			Expect(countDeltas(a.Events)).To(Equal(deltas))
			msg, err := assemble(w, a.Bytes())
			if wantErr == "" {
				Expect(err).NotTo(HaveOccurred())
				Expect(string(msg)).To(ContainSubstring("Hello, world"))
				return
			}
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
		},
		Entry("openai whole", llmwire.OpenAI, -1, -1, 5, ""),
		Entry("anthropic whole", llmwire.Anthropic, -1, -1, 5, ""),
		Entry("openai error after 2", llmwire.OpenAI, 2, -1, 2, "openai: stream: error event: server_error: scripted stream error after 2 chunk(s)"),
		Entry("anthropic error after 0", llmwire.Anthropic, 0, -1, 0, "scripted stream error after 0 chunk(s)"),
		Entry("openai disconnect after 4", llmwire.OpenAI, -1, 4, 4, "(cut)"),
		Entry("anthropic disconnect after 5", llmwire.Anthropic, -1, 5, 5, "message_stop"),
		Entry("responses whole", llmwire.Responses, -1, -1, 5, ""),
		Entry("responses error after 3", llmwire.Responses, 3, -1, 3, `error event "server_error": scripted stream error after 3 chunk(s)`),
		Entry("responses disconnect after 0", llmwire.Responses, -1, 0, 0, "response.completed"),
	)
})

var _ = Describe("Reply's faults and delays", func() {
	It("drops the connection halfway through the event after the K-th chunk (mid_event)", func() {
		s := stream(-1, 2)
		s.MidEvent = true
		a, _ := llmwire.OpenAI.Reply(s, "cmpl-1", true)
		Expect(a.Cut).To(BeTrue())
		Expect(a.Events).To(HaveLen(4)) // head, two deltas, the cut one
		last := a.Events[3].Bytes()
		Expect(a.Partial).To(Equal(len(last) / 2))
		Expect(a.Bytes()).To(Equal(append(eventsBytes(a.Events[:3]), last[:len(last)/2]...)))
		Expect(string(a.Bytes())).To(HaveSuffix(string(last[:len(last)/2])))
		Expect(a.Events[3].Data).To(ContainSubstring(`"content":"ld"`))
	})

	It("puts each delay on the event that follows its chunk: a delta, the end events, the error or the cut one", func() {
		s := stream(-1, -1)
		s.Delays = []time.Duration{1, 2, 3, 4, 5, 6} // after 0..5 chunks
		a, _ := llmwire.Anthropic.Reply(s, "msg_1", true)
		var got []string
		for _, ev := range a.Events {
			if ev.Delay > 0 {
				got = append(got, fmt.Sprintf("%d %s %.30s", ev.Delay, ev.Name, ev.Data))
			}
		}
		Expect(got).To(Equal([]string{
			`1 content_block_delta {"delta":{"text":"Hello","type`,
			`2 content_block_delta {"delta":{"text":", wor","type`,
			`3 content_block_delta {"delta":{"text":"ld","type":"`,
			`4 content_block_stop {"index":0,"type":"content_blo`,
			`5 content_block_delta {"delta":{"partial_json":":1}"`,
			`6 content_block_stop {"index":1,"type":"content_blo`,
		}))
		s = stream(2, -1)
		s.Delays = []time.Duration{0, 0, time.Minute, 0, 0, 0}
		a, _ = llmwire.OpenAI.Reply(s, "cmpl-1", true)
		Expect(a.Events[len(a.Events)-1].Data).To(HavePrefix(`{"error"`))
		Expect(a.Events[len(a.Events)-1].Delay).To(Equal(time.Minute))
		s = stream(-1, 2)
		s.MidEvent, s.Delays = true, []time.Duration{0, 0, time.Minute, 0, 0, 0}
		a, _ = llmwire.OpenAI.Reply(s, "cmpl-1", true)
		Expect(a.Events[len(a.Events)-1].Delay).To(Equal(time.Minute))
	})

	It("serves a mid-event cut over HTTP: the half event, then the drop", func() {
		s := stream(-1, 1)
		s.MidEvent = true
		a, _ := llmwire.Anthropic.Reply(s, "msg_1", true)
		_, b, err := serve(a)
		Expect(err).To(MatchError(io.ErrUnexpectedEOF))
		Expect(b).To(Equal(a.Bytes()))
		Expect(string(b)).NotTo(HaveSuffix("\n\n"))
	})
})

var _ = Describe("Answer", func() {
	It("reads in process as it is sent: its bytes, then the cut as a dropped connection", func() {
		a, _ := llmwire.OpenAI.Reply(stream(-1, 1), "cmpl-1", true)
		b, err := io.ReadAll(a.Response(context.Background(), nil).Body)
		Expect(err).To(MatchError(io.ErrUnexpectedEOF))
		Expect(b).To(Equal(a.Bytes()))
		a, _ = llmwire.OpenAI.Reply(stream(-1, -1), "cmpl-1", false)
		b, err = io.ReadAll(a.Response(context.Background(), nil).Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(Equal(a.Body))
	})

	It("waits an event's delay when the reader reaches it, and ends with the wait's error", func() {
		a, _ := llmwire.Anthropic.Reply(stream(-1, -1), "msg_1", true)
		a.Events[2].Delay, a.Events[4].Delay = time.Second, time.Minute
		type waited struct {
			d    time.Duration
			read int
		}
		var got []waited
		var read int
		body := a.Response(context.Background(), func(_ context.Context, d time.Duration) error {
			got = append(got, waited{d, read})
			if d == time.Minute {
				return context.DeadlineExceeded
			}
			return nil
		}).Body
		buf := make([]byte, 7)
		var err error
		for err == nil {
			var n int
			n, err = body.Read(buf)
			read += n
		}
		Expect(err).To(MatchError(context.DeadlineExceeded))
		before := func(i int) int { return len(eventsBytes(a.Events[:i])) }
		Expect(got).To(Equal([]waited{{time.Second, before(2)}, {time.Minute, before(4)}}))
		Expect(read).To(Equal(before(4)))
	})

	It("serves a stream over HTTP, flushed event by event, and drops the connection at the cut", func() {
		a, _ := llmwire.Anthropic.Reply(stream(-1, 2), "msg_1", true)
		_, b, err := serve(a)
		Expect(err).To(MatchError(io.ErrUnexpectedEOF))
		Expect(b).To(Equal(a.Bytes()))
		Expect(string(b)).NotTo(ContainSubstring("message_stop"))
	})

	It("serves an error event with a clean end, and a JSON answer whole", func() {
		for _, a := range []llmwire.Answer{
			must(llmwire.OpenAI.Reply(stream(1, -1), "cmpl-1", true)),
			llmwire.OpenAI.Error(core.ErrRateLimited),
		} {
			resp, b, err := serve(a)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.StatusCode).To(Equal(a.Status))
			Expect(b).To(Equal(a.Bytes()))
		}
	})

	It("writes with the caller's wait and stops when it fails", func() {
		a, _ := llmwire.OpenAI.Reply(stream(-1, -1), "cmpl-1", true)
		a.Events[3].Delay = time.Hour
		rec := httptest.NewRecorder()
		err := a.Write(context.Background(), rec, func(context.Context, time.Duration) error { return errors.New("client gone") })
		Expect(err).To(MatchError("client gone"))
		Expect(rec.Body.Bytes()).To(Equal(eventsBytes(a.Events[:3])))
		Expect(rec.Flushed).To(BeTrue())
	})

	It("sleeps for real only until the context ends", func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		Expect(llmwire.Sleep(ctx, time.Hour)).To(MatchError(context.Canceled))
		Expect(llmwire.Sleep(context.Background(), 0)).To(Succeed())
	})
})

// countDeltas counts the content deltas among evs: OpenAI chunks with
// content (not the head's) or tool calls, Anthropic content_block_delta.
func countDeltas(evs []llmwire.Event) int {
	n := 0
	for _, ev := range evs {
		head := strings.Contains(ev.Data, `"role":"assistant"`)
		if ev.Name == "content_block_delta" || strings.HasPrefix(ev.Name, "response.") && strings.HasSuffix(ev.Name, ".delta") || !head && (strings.Contains(ev.Data, `"delta":{"content"`) || strings.Contains(ev.Data, `"delta":{"tool_calls"`)) {
			n++
		}
	}
	return n
}

// serve serves a on an HTTP server of its own and posts to it: the
// response, its body as read, and the error that ended the read.
func serve(a llmwire.Answer) (*http.Response, []byte, error) {
	GinkgoHelper()
	srv := httptest.NewServer(a)
	defer srv.Close()
	resp, err := http.Post(srv.URL, "application/json", nil)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

func eventsBytes(evs []llmwire.Event) []byte {
	var b []byte
	for _, ev := range evs {
		b = append(b, ev.Bytes()...)
	}
	return b
}

func must(a llmwire.Answer, err error) llmwire.Answer {
	Expect(err).NotTo(HaveOccurred())
	return a
}
