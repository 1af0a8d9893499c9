package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/responses"
)

const (
	shadow     = "shadow_0123456789abcdef0123456789abcdef"
	compressed = "<<<SHADOW:" + shadow + ">>>\nline 0 host=db-0 status=ok [... 1596 more words]"
	original   = "line 332 host=db-2 status=ok\nline 333 host=db-3 status=FAILED\nline 334 host=db-4 status=ok\n"
	sawIt      = "saw the original: yes, line 333 host=db-3 status=FAILED"
)

// call is a request to the model: the API's path, the tool result's text, the gateway's round
// ("" for none) and extra headers.
type call struct {
	path    string
	result  string
	round   string
	stream  bool
	headers map[string]string
}

// body is a request of the call's API with one tool result.
func (c call) body() string {
	result, _ := json.Marshal(c.result)
	if c.path == "/v1/responses" {
		return fmt.Sprintf(`{"model": "demo-model", "stream": %v, "input": [{"role": "user", "content": "Which line failed?"},
			{"type": "function_call", "call_id": "call_1", "name": "logs", "arguments": "{}"},
			{"type": "function_call_output", "call_id": "call_1", "output": %s}]}`, c.stream, result)
	}
	if c.path == "/v1/messages" {
		return fmt.Sprintf(`{"model": "demo-model", "max_tokens": 1024, "stream": %v, "messages": [{"role": "user", "content": "Which line failed?"},
			{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "logs", "input": {}}]},
			{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": %s}]}]}]}`, c.stream, result)
	}
	return fmt.Sprintf(`{"model": "demo-model", "stream": %v, "messages": [{"role": "user", "content": "Which line failed?"},
		{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "logs", "arguments": "{}"}}]},
		{"role": "tool", "tool_call_id": "call_1", "content": %s}]}`, c.stream, result)
}

// send posts the call to srv and returns the status and body.
func send(srv *httptest.Server, c call) (int, string) {
	req, err := http.NewRequest(http.MethodPost, srv.URL+c.path, strings.NewReader(c.body()))
	Expect(err).NotTo(HaveOccurred())
	if c.round != "" {
		req.Header.Set(RoundHeader, c.round)
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	resp, err := srv.Client().Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return resp.StatusCode, string(raw)
}

// answer is what a response says: the expand_context call's shadow id, or the text.
type answer struct {
	Shadow string
	Text   string
	Stop   string
}

// read reads a JSON answer of any of the three APIs.
func read(path, body string) answer {
	var a answer
	if path == "/v1/responses" {
		resp, err := responses.DecodeResponse([]byte(body))
		Expect(err).NotTo(HaveOccurred(), body)
		for _, tc := range resp.ToolCalls {
			Expect(tc.Name).To(Equal("expand_context"))
			var args struct {
				ShadowID string `json:"shadow_id"`
			}
			Expect(json.Unmarshal(tc.Arguments, &args)).To(Succeed())
			a.Shadow = args.ShadowID
		}
		return answer{Shadow: a.Shadow, Text: resp.Text, Stop: resp.FinishReason}
	}
	if path == "/v1/messages" {
		var m struct {
			Content []struct {
				Type, Name, Text string
				Input            struct {
					ShadowID string `json:"shadow_id"`
				}
			}
			StopReason string `json:"stop_reason"`
		}
		Expect(json.Unmarshal([]byte(body), &m)).To(Succeed())
		Expect(m.Content).To(HaveLen(1))
		b := m.Content[0]
		if b.Type == "tool_use" {
			Expect(b.Name).To(Equal("expand_context"))
			a.Shadow = b.Input.ShadowID
		}
		return answer{Shadow: a.Shadow, Text: b.Text, Stop: m.StopReason}
	}
	var c struct {
		Choices []struct {
			Message struct {
				Content   *string
				ToolCalls []struct {
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
			FinishReason string `json:"finish_reason"`
		}
	}
	Expect(json.Unmarshal([]byte(body), &c)).To(Succeed())
	Expect(c.Choices).To(HaveLen(1))
	msg := c.Choices[0].Message
	if len(msg.ToolCalls) > 0 {
		Expect(msg.ToolCalls).To(HaveLen(1))
		Expect(msg.ToolCalls[0].Function.Name).To(Equal("expand_context"))
		var args struct {
			ShadowID string `json:"shadow_id"`
		}
		Expect(json.Unmarshal([]byte(msg.ToolCalls[0].Function.Arguments), &args)).To(Succeed())
		a.Shadow = args.ShadowID
		Expect(msg.Content).To(BeNil())
	} else {
		Expect(msg.Content).NotTo(BeNil())
		a.Text = *msg.Content
	}
	a.Stop = c.Choices[0].FinishReason
	return a
}

// sse is one server-sent event.
type sse struct {
	Event string
	Data  string
}

// events splits a stream into its events; each must be "event:" then "data:" (or "data:"
// alone) and end with a blank line.
func events(stream string) []sse {
	var out []sse
	sc := bufio.NewScanner(strings.NewReader(stream))
	var cur sse
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			Expect(cur.Data).NotTo(BeEmpty(), "an event without data in\n%s", stream)
			out = append(out, cur)
			cur = sse{}
		case strings.HasPrefix(line, "event: "):
			Expect(cur).To(BeZero())
			cur.Event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			Expect(cur.Data).To(BeEmpty())
			cur.Data = strings.TrimPrefix(line, "data: ")
		default:
			Fail(fmt.Sprintf("not an SSE line: %q", line))
		}
	}
	Expect(cur).To(BeZero(), "the stream must end with a blank line")
	return out
}

// readStream reads a stream of either API, checking that every event is well-formed JSON in the
// order the API sends, and returns what it says.
func readStream(path, stream string) answer {
	evs := events(stream)
	if path == "/v1/responses" {
		return readResponsesStream(path, stream, evs)
	}
	var a answer
	var args strings.Builder
	if path == "/v1/messages" {
		readMessagesStream(evs, &a, &args)
	} else {
		readChatStream(evs, &a, &args)
	}
	if args.Len() > 0 {
		var v struct {
			ShadowID string `json:"shadow_id"`
		}
		Expect(json.Unmarshal([]byte(args.String()), &v)).To(Succeed(), args.String())
		a.Shadow = v.ShadowID
	}
	return a
}

// readResponsesStream checks a Responses API stream's events (type,
// sequence numbers, short deltas) and reads the response it assembles to.
func readResponsesStream(path, stream string, evs []sse) answer {
	for i, e := range evs {
		var d struct {
			Type  string
			Seq   int `json:"sequence_number"`
			Delta *string
		}
		Expect(json.Unmarshal([]byte(e.Data), &d)).To(Succeed(), e.Data)
		Expect(d.Type).To(Equal(e.Event))
		Expect(d.Seq).To(Equal(i))
		if d.Delta != nil {
			Expect(len([]rune(*d.Delta))).To(BeNumerically("<=", 12))
		}
	}
	whole, err := responses.Assemble([]byte(stream))
	Expect(err).NotTo(HaveOccurred())
	return read(path, string(whole))
}

// readMessagesStream checks an Anthropic Messages stream's events and
// their order, and reads its text, stop reason and tool input into a and
// args.
func readMessagesStream(evs []sse, a *answer, args *strings.Builder) {
	order := []string{}
	for _, e := range evs {
		var d struct {
			Type  string
			Delta struct {
				Type, Text  string
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			}
			ContentBlock struct{ Type, Name string } `json:"content_block"`
		}
		Expect(json.Unmarshal([]byte(e.Data), &d)).To(Succeed(), e.Data)
		Expect(d.Type).To(Equal(e.Event))
		if len(order) == 0 || order[len(order)-1] != d.Type {
			order = append(order, d.Type)
		}
		switch {
		case d.Type == "content_block_start" && d.ContentBlock.Type == "tool_use":
			Expect(d.ContentBlock.Name).To(Equal("expand_context"))
		case d.Type == "content_block_delta" && d.Delta.Type == "text_delta":
			Expect(len([]rune(d.Delta.Text))).To(BeNumerically("<=", 12))
			a.Text += d.Delta.Text
		case d.Type == "content_block_delta":
			Expect(d.Delta.Type).To(Equal("input_json_delta"))
			args.WriteString(d.Delta.PartialJSON)
		case d.Type == "message_delta":
			a.Stop = d.Delta.StopReason
		}
	}
	Expect(order).To(Equal([]string{"message_start", "content_block_start", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop"}))
}

// readChatStream checks a Chat Completions stream's chunks and its
// [DONE], and reads its text, finish reason and tool arguments into a and
// args.
func readChatStream(evs []sse, a *answer, args *strings.Builder) {
	Expect(evs[len(evs)-1]).To(Equal(sse{Data: "[DONE]"}))
	for _, e := range evs[:len(evs)-1] {
		Expect(e.Event).To(BeEmpty())
		var c struct {
			Object  string
			Choices []struct {
				Delta struct {
					Content   string
					ToolCalls []struct {
						Function struct{ Name, Arguments string }
					} `json:"tool_calls"`
				}
				FinishReason *string `json:"finish_reason"`
			}
		}
		Expect(json.Unmarshal([]byte(e.Data), &c)).To(Succeed(), e.Data)
		Expect(c.Object).To(Equal("chat.completion.chunk"))
		Expect(c.Choices).To(HaveLen(1))
		d := c.Choices[0].Delta
		a.Text += d.Content
		for _, tc := range d.ToolCalls {
			if tc.Function.Name != "" {
				Expect(tc.Function.Name).To(Equal("expand_context"))
			}
			args.WriteString(tc.Function.Arguments)
		}
		if f := c.Choices[0].FinishReason; f != nil {
			a.Stop = *f
		}
	}
}

var _ = Describe("serve", func() {
	It("prints where it listens and stops when its context ends", func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		r, w := io.Pipe()
		done := make(chan error, 1)
		go func() { done <- serve(ctx, "127.0.0.1:0", (&model{MaxBodyBytes: 1 << 10}).Handler(), w) }()
		line, err := bufio.NewReader(r).ReadString('\n')
		Expect(err).NotTo(HaveOccurred())
		Expect(line).To(MatchRegexp(`^demo-model: listening on http://127\.0\.0\.1:\d+\n$`))
		resp, err := http.Post(strings.TrimSpace(strings.TrimPrefix(line, "demo-model: listening on "))+"/v1/messages",
			"application/json", strings.NewReader(`{"messages": []}`))
		Expect(err).NotTo(HaveOccurred())
		resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		cancel()
		Eventually(done).Should(Receive(BeNil()))
	})
})

var _ = Describe("the scripted model", func() {
	var srv *httptest.Server
	BeforeEach(func() {
		srv = httptest.NewServer((&model{MaxBodyBytes: 1 << 20}).Handler())
		DeferCleanup(srv.Close)
	})

	// ask sends the call and reads the answer, streamed or not.
	ask := func(c call) answer {
		status, body := send(srv, c)
		Expect(status).To(Equal(http.StatusOK), body)
		if c.stream {
			return readStream(c.path, body)
		}
		return read(c.path, body)
	}

	// apis is one entry per API, streaming or not.
	apis := func() []TableEntry {
		var out []TableEntry
		for _, path := range []string{"/v1/chat/completions", "/v1/messages", "/v1/responses"} {
			for _, stream := range []bool{false, true} {
				out = append(out, Entry(fmt.Sprintf("%s, stream %v", path, stream), path, stream))
			}
		}
		return out
	}
	callStop := map[string]string{"/v1/chat/completions": "tool_calls", "/v1/messages": "tool_use", "/v1/responses": "tool_calls"}
	textStop := map[string]string{"/v1/chat/completions": "stop", "/v1/messages": "end_turn", "/v1/responses": "stop"}

	DescribeTable("round 1 calls expand_context with the first shadow id",
		func(path string, stream bool) {
			a := ask(call{path: path, stream: stream, round: "1", result: compressed + "\nthen <<<SHADOW:shadow_ffff>>>"})
			Expect(a).To(Equal(answer{Shadow: shadow, Stop: callStop[path]}))
		},
		apis())

	DescribeTable("a later round answers with the failing line",
		func(path string, stream bool) {
			Expect(ask(call{path: path, stream: stream, round: "2", result: compressed + "\n" + original})).
				To(Equal(answer{Text: sawIt, Stop: textStop[path]}))
			Expect(ask(call{path: path, stream: stream, round: "2", result: compressed})).
				To(Equal(answer{Text: "saw the original: no", Stop: textStop[path]}))
		},
		apis())

	DescribeTable("X-Demo-Expand: no answers in round 1 without a call",
		func(path string, stream bool) {
			Expect(ask(call{path: path, stream: stream, round: "1", result: compressed, headers: map[string]string{ExpandHeader: "no"}})).
				To(Equal(answer{Text: "saw the original: no", Stop: textStop[path]}))
		},
		apis())

	It("answers without a round header as a later round, and with no marker never calls", func() {
		Expect(ask(call{path: "/v1/messages", result: original})).To(Equal(answer{Text: sawIt, Stop: "end_turn"}))
		Expect(ask(call{path: "/v1/messages", round: "1", result: original})).To(Equal(answer{Text: sawIt, Stop: "end_turn"}))
	})

	It("writes the README's bytes: Python json.dumps separators, a newline after a JSON body", func() {
		_, body := send(srv, call{path: "/v1/chat/completions", round: "2", result: original})
		Expect(body).To(Equal(`{"id": "chatcmpl-demo", "object": "chat.completion", "created": 1767225600, "model": "demo-model", ` +
			`"choices": [{"index": 0, "message": {"role": "assistant", "content": "` + sawIt + `"}, "finish_reason": "stop"}], ` +
			`"usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}` + "\n"))
		_, body = send(srv, call{path: "/v1/messages", round: "1", result: compressed})
		Expect(body).To(Equal(`{"id": "msg_demo", "type": "message", "role": "assistant", "model": "demo-model", ` +
			`"content": [{"type": "tool_use", "id": "toolu_demo", "name": "expand_context", "input": {"shadow_id": "` + shadow + `"}}], ` +
			`"stop_reason": "tool_use", "stop_sequence": null, "usage": {"input_tokens": 10, "output_tokens": 5}}` + "\n"))
		_, body = send(srv, call{path: "/v1/responses", round: "1", result: compressed})
		Expect(body).To(Equal(`{"id": "resp_demo", "object": "response", "created_at": 1767225600, "status": "completed", "error": null, ` +
			`"model": "demo-model", "output": [{"type": "function_call", "id": "fc_demo", "call_id": "call_demo", "name": "expand_context", ` +
			`"arguments": "{\"shadow_id\": \"` + shadow + `\"}", "status": "completed"}], "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}}` + "\n"))
		_, body = send(srv, call{path: "/v1/messages", stream: true, result: original})
		Expect(body).To(ContainSubstring("event: content_block_delta\n" +
			`data: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "saw the orig"}}` + "\n\n"))
	})

	It("escapes characters outside printable ASCII as json.dumps does", func() {
		Expect(string(dumps(obj{{"s", "é\u2028😀\x7f\t\"\\\x01"}, {"a", arr{true, nil, 3}}}))).
			To(Equal(`{"s": "\u00e9\u2028\ud83d\ude00\u007f\t\"\\\u0001", "a": [true, null, 3]}`))
		Expect(pieces("abcdefghijklmnopéé")).To(Equal([]string{"abcdefghijkl", "mnopéé"}))
	})

	It("adds OpenAI's usage chunk when the stream asks for it", func() {
		req := `{"stream": true, "stream_options": {"include_usage": true}, "messages": []}`
		resp, err := srv.Client().Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(req))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		evs := events(string(raw))
		Expect(evs[len(evs)-2].Data).To(HaveSuffix(`"choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}`))
	})

	It("refuses what it does not serve, in each API's error shape", func() {
		// A recorder, not a server: a server keeps a connection whose body was cut open 500 ms.
		rec := httptest.NewRecorder()
		(&model{MaxBodyBytes: 100}).Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/messages",
			bytes.NewReader(bytes.Repeat([]byte(" "), 101))))
		Expect(rec.Code).To(Equal(http.StatusRequestEntityTooLarge))
		Expect(rec.Body.String()).To(Equal(`{"type": "error", "error": {"type": "request_too_large", "message": "demo-model: request body larger than 100 bytes"}}` + "\n"))

		resp, err := srv.Client().Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(`[1]`))
		Expect(err).NotTo(HaveOccurred())
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusBadRequest))
		Expect(string(raw)).To(HavePrefix(`{"error": {"message": "demo-model: the request is not a JSON object: `))

		resp, err = srv.Client().Get(srv.URL + "/v1/messages")
		Expect(err).NotTo(HaveOccurred())
		resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusMethodNotAllowed))
		resp, err = srv.Client().Post(srv.URL+"/v1/completions", "application/json", strings.NewReader(`{}`))
		Expect(err).NotTo(HaveOccurred())
		resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusNotFound))
	})
})
