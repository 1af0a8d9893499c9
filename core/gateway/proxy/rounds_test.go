package proxy_test

import (
	"context"
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
)

// The usage a client is told is what its whole exchange cost.
var _ = Describe("usage over the rounds of the expand loop", func() {
	content := bigLog("db-4")
	shadow := gateway.ShadowID(content)
	// chatResponse is an OpenAI response of round r: a phantom call, or the
	// answer, with usage that grows with r.
	chatResponse := func(r int, final bool) []byte {
		msg := fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"x%d","type":"function","function":{"name":"expand_context","arguments":"{\"shadow_id\":\"%s\"}"}}]}`, r, shadow)
		if final {
			msg = `{"role":"assistant","content":"db-4 failed at line 333"}`
		}
		return fmt.Appendf(nil, `{"id":"c%d","object":"chat.completion","model":"m","choices":[{"index":0,"message":%s,"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":%d}}}`,
			r, msg, 1000*r, 10*r, 1010*r, 500*r)
	}

	It("reports in the final response the sum over a six-round exchange, each integer of the usage object", func() {
		g := newGateway(true)
		rounds := 0
		out, err := g.Handle(context.Background(), chatBody("1", "t", content, false), func(_ context.Context, round int, _ []byte) ([]byte, error) {
			rounds = round
			return chatResponse(round, round == 6), nil
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(rounds).To(Equal(6))
		Expect(out.Rounds).To(Equal(6))
		Expect(json.Valid(out.Response)).To(BeTrue())
		// 1+2+...+6 = 21
		Expect(string(out.Response)).To(ContainSubstring(`"usage":{"prompt_tokens":21000,"completion_tokens":210,"total_tokens":21210,"prompt_tokens_details":{"cached_tokens":10500}}`))
		Expect(string(out.Response)).To(HavePrefix(`{"id":"c6","object":"chat.completion"`), "every other byte is the last round's")
		Expect(out.Expansions[0].Answer).To(Equal(gateway.AnswerOriginal))
		Expect(out.Results[0].Saved).To(BeNumerically(">", 0))
		Expect(g.Pipe.Metrics().BytesSaved).To(BeZero(), "the one saving was undone by the expansion")
	})

	It("leaves a one-round answer's usage as the model sent it", func() {
		g := newGateway(true)
		out, err := g.Handle(context.Background(), chatBody("1", "t", content, false), func(context.Context, int, []byte) ([]byte, error) {
			return chatResponse(1, true), nil
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Response).To(Equal(chatResponse(1, true)))
	})
})
