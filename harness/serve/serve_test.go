package serve_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	"github.com/toolout/toolout/harness/serve"
)

const overCap = "../../scenarios/session/over-cap-handle.yaml"

// running is a Server on a real loopback listener, behind the bounded
// http.Server it makes; it stops when the spec ends.
type running struct {
	srv  *serve.Server
	base string // http://127.0.0.1:PORT
}

func start(opts serve.Options, files ...string) *running {
	ln, err := serve.Listen("127.0.0.1:0", false)
	Expect(err).NotTo(HaveOccurred())
	return startOn(ln, opts, files...)
}

// startOn is start on a listener of the spec's own.
func startOn(ln net.Listener, opts serve.Options, files ...string) *running {
	srv, err := serve.Load(files, opts)
	Expect(err).NotTo(HaveOccurred())
	hs := srv.HTTPServer()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	DeferCleanup(func() {
		Expect(srv.Close()).To(Succeed())
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		Expect(hs.Shutdown(ctx)).To(Succeed())
		Expect(<-served).To(MatchError(http.ErrServerClosed))
	})
	return &running{srv: srv, base: "http://" + ln.Addr().String()}
}

// answer is an HTTP answer as a client saw it.
type answer struct {
	status int
	header http.Header
	body   string
}

// json decodes the answer's body.
func (a answer) json() map[string]any {
	var v map[string]any
	ExpectWithOffset(1, json.Unmarshal([]byte(a.body), &v)).To(Succeed(), a.body)
	return v
}

// send makes one request with a client of its own; header is name, value
// pairs. Content-Type defaults to application/json.
func send(ctx context.Context, method, url, body string, header ...string) answer {
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return answer{resp.StatusCode, resp.Header, string(b)}
}

func post(url, body string, header ...string) answer {
	return send(context.Background(), http.MethodPost, url, body, header...)
}

// The over-cap-handle conversation as an OpenAI client sends it: the user's
// message with the tool, then the tool call and its result.
const (
	openaiTurn1 = `{"model":"gpt-test","messages":[{"role":"user","content":"Count ERROR lines per host."}],` +
		`"tools":[{"type":"function","function":{"name":"logs__query","parameters":{"type":"object"}}}]}`
	openaiTurn2 = `{"model":"gpt-test","messages":[{"role":"user","content":"Count ERROR lines per host."},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call-1","type":"function","function":{"name":"logs__query","arguments":"{\"since\":\"1h\"}"}}]},` +
		`{"role":"tool","tool_call_id":"call-1","content":"Tool output is too large (2480 bytes)"}],` +
		`"tools":[{"type":"function","function":{"name":"logs__query","parameters":{"type":"object"}}}]}`
	anthropicTurn1 = `{"model":"claude-test","max_tokens":512,"messages":[{"role":"user","content":"Count ERROR lines per host."}],` +
		`"tools":[{"name":"logs__query","input_schema":{"type":"object"}}]}`
	anthropicTurn2 = `{"model":"claude-test","max_tokens":512,"messages":[{"role":"user","content":"Count ERROR lines per host."},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"call-1","name":"logs__query","input":{"since":"1h"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"call-1","content":"Tool output is too large (2480 bytes)"}]}],` +
		`"tools":[{"name":"logs__query","input_schema":{"type":"object"}}]}`
)

var _ = Describe("toolout serve's server", func() {
	It("answers an OpenAI client through a whole scenario, and is done", func() {
		r := start(serve.Options{}, overCap)
		a := post(r.base+"/v1/chat/completions", openaiTurn1)
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get("Content-Type")).To(Equal("application/json"))
		Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=1"))
		Expect(a.header.Get(serve.ScenarioHeader)).To(Equal("session/over-cap-handle"))
		Expect(a.json()).To(MatchKeys(IgnoreExtras, Keys{
			"id": Equal("cmpl-1"), "object": Equal("chat.completion"), "model": Equal("scripted"),
			"choices": ConsistOf(MatchKeys(IgnoreExtras, Keys{
				"index": BeNumerically("==", 0), "finish_reason": Equal("tool_calls"),
				"message": MatchAllKeys(Keys{"role": Equal("assistant"), "content": BeNil(), "tool_calls": ConsistOf(MatchAllKeys(Keys{
					"id": Equal("call-1"), "type": Equal("function"),
					"function": MatchAllKeys(Keys{"name": Equal("logs__query"), "arguments": Equal(`{"since":"1h"}`)}),
				}))}),
			})),
			"usage": MatchAllKeys(Keys{"prompt_tokens": BeNumerically(">", 0), "completion_tokens": BeNumerically(">", 0), "total_tokens": BeNumerically(">", 0)}),
		}))
		Consistently(r.srv.Done()).ShouldNot(BeClosed(), "one step is left")

		a = post(r.base+"/v1/chat/completions", openaiTurn2)
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.header.Get(serve.TagHeader)).To(Equal("session.turn turn=2"))
		Expect(a.json()["choices"]).To(ConsistOf(MatchKeys(IgnoreExtras, Keys{
			"finish_reason": Equal("stop"),
			"message":       MatchKeys(IgnoreExtras, Keys{"content": Equal("Stored; will extract next.")}),
		})), "final: without a final-report wrapper in the request is the bare text")
		Eventually(r.srv.Done()).Should(BeClosed())
		Expect(r.srv.Check()).To(Succeed())
	})

	It("answers an Anthropic client through a whole scenario", func() {
		r := start(serve.Options{}, overCap)
		a := post(r.base+"/v1/messages", anthropicTurn1, "anthropic-version", "2023-06-01")
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.json()).To(MatchKeys(IgnoreExtras, Keys{
			"id": Equal("msg_1"), "type": Equal("message"), "role": Equal("assistant"), "model": Equal("scripted"),
			"stop_reason": Equal("tool_use"),
			"content": ConsistOf(MatchKeys(IgnoreExtras, Keys{
				"type": Equal("tool_use"), "id": Equal("call-1"), "name": Equal("logs__query"), "input": Equal(map[string]any{"since": "1h"}),
			})),
			"usage": MatchKeys(IgnoreExtras, Keys{"input_tokens": BeNumerically(">", 0), "output_tokens": BeNumerically(">", 0)}),
		}))
		a = post(r.base+"/v1/messages", anthropicTurn2)
		Expect(a.status).To(Equal(http.StatusOK), a.body)
		Expect(a.json()).To(MatchKeys(IgnoreExtras, Keys{
			"id": Equal("msg_2"), "stop_reason": Equal("end_turn"),
			"content": ConsistOf(MatchKeys(IgnoreExtras, Keys{"type": Equal("text"), "text": Equal("Stored; will extract next.")})),
		}))
		Expect(r.srv.Check()).To(Succeed())
	})

	It("answers a request no step matches with 422 in the API's error shape, holding the nearest-step diff", func() {
		r := start(serve.Options{}, overCap)
		third := strings.Replace(openaiTurn2, `{"role":"tool"`, `{"role":"assistant","content":"again"},{"role":"tool"`, 1)
		a := post(r.base+"/v1/chat/completions", third)
		Expect(a.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(a.json()).To(MatchAllKeys(Keys{"error": MatchAllKeys(Keys{
			"type": Equal("invalid_request_error"), "code": BeNil(),
			"message": Equal("toolout serve: fakes: request session.turn turn=3: no step matches\n" +
				`nearest step "query" (scenarios/session/over-cap-handle.yaml:19:3) (-step +request):` + "\n  - turn: 1\n  + turn: 3"),
		})}))

		a = post(r.base+"/v1/messages", `{"max_tokens":5,"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},`+
			`{"role":"user","content":"c"},{"role":"assistant","content":"d"},{"role":"user","content":"e"}]}`)
		Expect(a.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(a.json()).To(MatchAllKeys(Keys{"type": Equal("error"), "error": MatchAllKeys(Keys{
			"type": Equal("invalid_request_error"), "message": ContainSubstring("request session.turn turn=3: no step matches"),
		})}))

		Expect(r.srv.Problems()).To(Equal([]serve.Problem{
			{Scenario: "session/over-cap-handle", Pos: "scenarios/session/over-cap-handle.yaml",
				Msg: `request session.turn turn=3: no step matches; nearest step "query" (scenarios/session/over-cap-handle.yaml:19:3) (-step +request): - turn: 1; + turn: 3`},
			{Scenario: "session/over-cap-handle", Pos: "scenarios/session/over-cap-handle.yaml",
				Msg: `request session.turn turn=3: no step matches; nearest step "query" (scenarios/session/over-cap-handle.yaml:19:3) (-step +request): - turn: 1; + turn: 3`},
			{Scenario: "session/over-cap-handle", Pos: "scenarios/session/over-cap-handle.yaml:19:3", Msg: `step "query" was never used`},
			{Scenario: "session/over-cap-handle", Pos: "scenarios/session/over-cap-handle.yaml:28:3", Msg: `step "answer" was never used`},
		}))
	})

	It("answers a used-up step with 422 too", func() {
		r := start(serve.Options{}, overCap)
		Expect(post(r.base+"/v1/chat/completions", openaiTurn1).status).To(Equal(http.StatusOK))
		a := post(r.base+"/v1/chat/completions", openaiTurn1)
		Expect(a.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(a.body).To(ContainSubstring(`step \"query\" matches but is used up (1 of 1 times)`))
	})

	It("reports the steps left unused, each at its file:line:col", func() {
		r := start(serve.Options{}, overCap)
		Expect(post(r.base+"/v1/chat/completions", openaiTurn1).status).To(Equal(http.StatusOK))
		Expect(r.srv.Check()).To(MatchError(`scenarios/session/over-cap-handle.yaml:28:3: step "answer" was never used`))
		Expect(r.srv.Done()).NotTo(BeClosed())
	})

	It("gives two clients at once each the answers to their own requests", func() {
		r := start(serve.Options{}, "testdata/two-clients.yaml")
		var wg sync.WaitGroup
		got := map[string][]string{}
		var mu sync.Mutex
		for _, who := range []string{"alpha", "beta"} {
			for range 20 {
				wg.Go(func() {
					defer GinkgoRecover()
					a := post(r.base+"/v1/chat/completions", `{"messages":[{"role":"user","content":"I am `+who+`"}]}`)
					Expect(a.status).To(Equal(http.StatusOK), a.body)
					var c struct {
						Choices []struct{ Message struct{ Content string } }
					}
					Expect(json.Unmarshal([]byte(a.body), &c)).To(Succeed())
					mu.Lock()
					defer mu.Unlock()
					got[who] = append(got[who], c.Choices[0].Message.Content)
				})
			}
		}
		wg.Wait()
		Expect(got["alpha"]).To(HaveLen(20))
		Expect(got["alpha"]).To(HaveEach("for alpha"))
		Expect(got["beta"]).To(HaveLen(20))
		Expect(got["beta"]).To(HaveEach("for beta"))
		Eventually(r.srv.Done()).Should(BeClosed())
		Expect(r.srv.Check()).To(Succeed())
	})
})

func ctx() context.Context { return context.Background() }
