package proxy_test

import (
	"encoding/json"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/internal/httpspec"
)

// A stream that offers expand_context: what the model writes before a tool
// call is relayed as it comes; the phantom call never reaches the client.
var _ = Describe("a stream that offers expand_context", func() {
	content := bigLog("db-8")
	shadow := gateway.ShadowID(content)
	steps := func(before string, rounds int) []fakes.Step {
		expand := fakes.Respond{ToolCalls: []fakes.CallSpec{{ID: "x1", Name: "expand_context", Args: map[string]any{"shadow_id": shadow}}}}
		if before != "" {
			expand.Text = ptr(before)
		}
		return []fakes.Step{
			{ID: "expands", Match: fakes.Match{Tag: core.SiteGatewayUpstream}, Times: rounds - 1, Respond: expand},
			{ID: "answers", Match: fakes.Match{Tag: core.SiteGatewayUpstream}, Respond: fakes.Respond{Text: ptr("db-8 failed at line 333.")}},
		}
	}
	// openaiStream serves a model scripted with steps behind the proxy's
	// OpenAI route and posts a streaming request to it: the answer is 200.
	openaiStream := func(steps []fakes.Step) (*http.Response, string) {
		GinkgoHelper()
		llm, err := fakes.NewLLM(steps, fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		base, _ := expandFront(llm, modelServer, openai.Wire{})
		resp, stream := httpspec.Post(base+openai.Path, chatBody("1", "t", content, true))
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		return resp, stream
	}
	// events returns the data of an SSE stream's events, decoded.
	events := func(stream string) []map[string]any {
		var out []map[string]any
		for _, ev := range strings.Split(stream, "\n\n") {
			for _, line := range strings.Split(ev, "\n") {
				if data, ok := strings.CutPrefix(line, "data: "); ok && data != "[DONE]" {
					var v map[string]any
					Expect(json.Unmarshal([]byte(data), &v)).To(Succeed(), data)
					out = append(out, v)
				}
			}
		}
		return out
	}

	It("Anthropic: relays the text before the call, then continues the same message with the answer (blocks renumbered, one message_start, usage of both rounds)", func() {
		llm, err := fakes.NewLLM(steps("Let me read the whole log.", 2), fakes.Options{})
		Expect(err).NotTo(HaveOccurred())
		base, _ := expandFront(llm, messagesServer, anthropic.Wire{})
		resp, stream := httpspec.Post(base+anthropic.Path, messagesBody(content, true))
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(resp.Trailer.Get(proxy.RoundsHeader)).To(Equal("2"))
		Expect(stream).NotTo(ContainSubstring("expand_context"))
		var types []string
		var starts []float64
		var text strings.Builder
		for _, e := range events(stream) {
			types = append(types, e["type"].(string))
			switch e["type"] {
			case "content_block_start":
				starts = append(starts, e["index"].(float64))
			case "content_block_delta":
				text.WriteString(e["delta"].(map[string]any)["text"].(string))
			}
		}
		Expect(types[0]).To(Equal("message_start"))
		Expect(types[len(types)-1]).To(Equal("message_stop"))
		Expect(strings.Count(strings.Join(types, " "), "message_start")).To(Equal(1))
		Expect(starts).To(Equal([]float64{0, 1}))
		Expect(text.String()).To(Equal("Let me read the whole log.db-8 failed at line 333."))
		Expect(llm.Check()).To(Succeed())
	})

	It("OpenAI: a text answer with nothing to expand is relayed as it came, the rounds in a trailer", func() {
		resp, stream := openaiStream([]fakes.Step{{ID: "answers", Match: fakes.Match{Tag: core.SiteGatewayUpstream}, Respond: fakes.Respond{Text: ptr("no need to look further")}}})
		Expect(resp.Trailer.Get(proxy.RoundsHeader)).To(Equal("1"))
		Expect(stream).To(HaveSuffix("data: [DONE]\n\n"))
		var text strings.Builder
		for _, e := range events(stream) {
			for _, c := range e["choices"].([]any) {
				if s, ok := c.(map[string]any)["delta"].(map[string]any)["content"].(string); ok {
					text.WriteString(s)
				}
			}
		}
		Expect(text.String()).To(Equal("no need to look further"))
	})

	It("OpenAI: a model that calls at once is answered as before: nothing relayed until the final answer", func() {
		resp, stream := openaiStream(steps("", 2))
		Expect(resp.Header.Get(proxy.RoundsHeader)).To(Equal("2"))
		Expect(stream).To(ContainSubstring("db-8 failed at line 333."))
		Expect(stream).NotTo(ContainSubstring("expand_context"))
	})

	It("OpenAI: at the cap, after text was relayed, the stream ends well formed with that text", func() {
		resp, stream := openaiStream(steps("Still looking.", 7)[:1])
		Expect(resp.Trailer.Get(proxy.RoundsHeader)).To(Equal("6"))
		Expect(stream).To(HavePrefix(`data: `))
		Expect(stream).To(ContainSubstring("Still looking."))
		Expect(stream).NotTo(ContainSubstring("expand_context"))
		Expect(stream).To(HaveSuffix("data: [DONE]\n\n"))
	})
})
