package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/internal/httpspec"
)

// agentLog is the tool output the agent of these specs sends: 120 lines
// (3,388 bytes), over the gateway's default min_bytes, so the gateway
// compresses it.
func agentLog() string {
	var b strings.Builder
	for i := range 120 {
		level := "INFO"
		if i%7 == 0 {
			level = "ERROR"
		}
		fmt.Fprintf(&b, "ts=%d host=web-%d level=%s\n", i, i%3, level)
	}
	return b.String()
}

// agentChat is an OpenAI chat agent: it keeps its conversation and sends
// it whole each turn, as the SDKs' agents do.
type agentChat struct {
	url    string // the base URL, ending in /v1
	msgs   []any
	stream bool // ask for a stream, and assemble it as the SDKs do
}

// send posts the conversation and appends the model's message; it returns
// the answer's status and body.
func (a *agentChat) send() (int, string) {
	GinkgoHelper()
	body, err := json.Marshal(map[string]any{"model": "m", "messages": a.msgs, "stream": a.stream})
	Expect(err).NotTo(HaveOccurred())
	resp, text := httpspec.Post(a.url+"/chat/completions", body)
	if resp.StatusCode == http.StatusOK && a.stream {
		whole, err := openai.Wire{}.Assemble([]byte(text))
		Expect(err).NotTo(HaveOccurred(), text)
		text = string(whole)
	}
	if resp.StatusCode == http.StatusOK {
		var out struct {
			Choices []struct{ Message map[string]any }
		}
		Expect(json.Unmarshal([]byte(text), &out)).To(Succeed(), text)
		Expect(out.Choices).NotTo(BeEmpty(), text)
		a.msgs = append(a.msgs, out.Choices[0].Message)
	}
	return resp.StatusCode, text
}

// toolResult answers the last message's first tool call with content.
func (a *agentChat) toolResult(content string) {
	GinkgoHelper()
	last, _ := a.msgs[len(a.msgs)-1].(map[string]any)
	calls, _ := last["tool_calls"].([]any)
	Expect(calls).NotTo(BeEmpty(), "the model's last message has no tool call")
	id := calls[0].(map[string]any)["id"]
	a.msgs = append(a.msgs, map[string]any{"role": "tool", "tool_call_id": id, "content": content})
}

var _ = Describe("toolout serve behind toolout gateway serve", func() {
	// through starts serve --exit-when-done on the scenario and the gateway
	// (simple strategy, expand_context on) in front of it.
	through := func(scenario string) (p *program, gw string) {
		p = startProgram("serve", "--exit-when-done", scenario)
		base := strings.TrimSuffix(p.baseURL(), "/v1")
		return p, serveGateway(simpleConfig, base) + "/v1"
	}

	It("answers an agent's turns 2, 3, ... as those turns, not as the gateway's round 1", func() {
		p, gw := through(serveScenario)
		agent := &agentChat{url: gw, msgs: []any{map[string]any{"role": "user", "content": "Count ERROR lines per host."}}}
		status, body := agent.send()
		Expect(status).To(Equal(http.StatusOK), body)
		Expect(body).To(ContainSubstring(`"name":"logs__query"`))
		agent.toolResult(agentLog())
		status, body = agent.send()
		Expect(status).To(Equal(http.StatusOK), body)
		Expect(body).To(ContainSubstring(`"content":"Stored; will extract next."`))
		Expect(p.exited()).To(Equal(0), p.stderr())
		Expect(p.stderr()).To(Equal("toolout serve: stopped after 2 request(s): every step answered as scripted\n"))
	})

	It("matches the gateway's expansion round by its round, within the agent's turn", func() {
		const scenario = "testdata/serve-gateway/expand.yaml"
		yaml, err := os.ReadFile(scenario)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(yaml)).To(ContainSubstring(gateway.ShadowID(agentLog())), "the scenario scripts the log's shadow id")
		p, gw := through(scenario)
		agent := &agentChat{url: gw, msgs: []any{map[string]any{"role": "user", "content": "Count ERROR lines per host."}}}
		status, body := agent.send()
		Expect(status).To(Equal(http.StatusOK), body)
		agent.toolResult(agentLog())
		status, body = agent.send()
		Expect(status).To(Equal(http.StatusOK), body)
		Expect(body).To(ContainSubstring(`"content":"web-0: 6, web-1: 6, web-2: 6"`))
		Expect(body).NotTo(ContainSubstring("expand_context"))
		Expect(p.exited()).To(Equal(0), p.stderr())
		Expect(p.stderr()).To(Equal("toolout serve: stopped after 3 request(s): every step answered as scripted\n"))
	})
})
