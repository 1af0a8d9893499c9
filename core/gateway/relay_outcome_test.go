package gateway_test

import (
	"io"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/openai"
)

// A stream relayed without being parsed (its request offers no
// expand_context) is still counted by what it held.
var _ = Describe("the outcome of a stream relayed as it came", func() {
	stream := func(events string) (string, []string) {
		base, ev := proxyFront(gateway.Limits{}, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, events)
		})
		resp, err := http.Post(base+openai.Path, "application/json", strings.NewReader(string(chatBody("1", "t", "a small tool result", true))))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		req, _ := ev.snapshot()
		return string(got), req
	}
	text := `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"the \"error\": key"}}]}` + "\n\n"

	It("is ok for a stream of text, even one that talks about errors", func() {
		got, req := stream(text + "data: [DONE]\n\n")
		Expect(got).To(Equal(text + "data: [DONE]\n\n"))
		Expect(req).To(Equal([]string{"openai/" + gateway.OutcomeOK}))
	})

	It("is upstream_error for a stream that holds the upstream's mid-stream error chunk, relayed as it came", func() {
		failed := text + `data: {"error":{"message":"the model is overloaded","type":"server_error"}}` + "\n\n"
		got, req := stream(failed)
		Expect(got).To(Equal(failed))
		Expect(req).To(Equal([]string{"openai/" + gateway.OutcomeUpstreamError}))
	})

	It("is upstream_error for a stream that holds an error event", func() {
		failed := text + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}\n\n"
		got, req := stream(failed)
		Expect(got).To(Equal(failed))
		Expect(req).To(Equal([]string{"openai/" + gateway.OutcomeUpstreamError}))
	})
})
