package llmwire_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/fakes/llmwire"
)

var _ = Describe("WithUsage", func() {
	usage := core.Usage{InputTokens: 7, OutputTokens: 5}

	It("adds OpenAI's usage chunk after the finish_reason chunk, before [DONE]", func() {
		a, err := llmwire.OpenAI.Reply(stream(-1, -1), "cmpl-1", true)
		Expect(err).NotTo(HaveOccurred())
		with := llmwire.OpenAI.WithUsage(a, usage, "cmpl-1")
		Expect(with.Events).To(HaveLen(len(a.Events) + 1))
		Expect(with.Events[:len(a.Events)-1]).To(Equal(a.Events[:len(a.Events)-1]))
		Expect(with.Events[len(a.Events)-1].Data).To(MatchJSON(`{"id":"cmpl-1","object":"chat.completion.chunk","model":"scripted","choices":[],` +
			`"usage":{"prompt_tokens":7,"completion_tokens":5,"total_tokens":12}}`))
		Expect(with.Events[len(a.Events)].Data).To(Equal("[DONE]"))
		_, err = openai.Wire{}.Assemble(with.Bytes())
		Expect(err).NotTo(HaveOccurred(), "the stream still assembles")
		Expect(strings.Count(string(a.Bytes()), "usage")).To(BeZero(), "the answer given is unchanged")
	})

	DescribeTable("leaves every other answer as it is",
		func(w llmwire.Wire, errorAfter, disconnectAfter int, asStream bool) {
			a, err := w.Reply(stream(errorAfter, disconnectAfter), "id-1", asStream)
			Expect(err).NotTo(HaveOccurred())
			Expect(w.WithUsage(a, usage, "id-1")).To(Equal(a))
		},
		Entry("Anthropic stream", llmwire.Anthropic, -1, -1, true),
		Entry("OpenAI JSON", llmwire.OpenAI, -1, -1, false),
		Entry("OpenAI stream ended by an error event", llmwire.OpenAI, 1, -1, true),
		Entry("OpenAI stream cut", llmwire.OpenAI, -1, 2, true),
	)
})
