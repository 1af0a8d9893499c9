package anthropic_test

import (
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
)

const (
	thinkStart   = `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`
	thinkStop    = `{"type":"content_block_stop","index":0}`
	redactedData = `EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mMnZ5DmZUbyqT1r2s0vRV4UgTcIwPvahl+kQ==`
)

// thinkDelta is a content_block_delta of block 0 with the given delta.
func thinkDelta(delta string) string {
	return `{"type":"content_block_delta","index":0,"delta":` + delta + `}`
}

// content returns the "content":[...] member of an assembled message.
func content(msg []byte) string {
	GinkgoHelper()
	s := string(msg)
	i, j := strings.Index(s, `"content":[`), strings.Index(s, `],"stop_reason":`)
	Expect(i).To(BeNumerically(">=", 0), s)
	Expect(j).To(BeNumerically(">", i), s)
	return s[i+len(`"content":[`) : j]
}

var _ = Describe("Thinking blocks", func() {
	Describe("AssembleStream", func() {
		It("keeps the thinking text and signature byte for byte: escapes as sent, pieces joined, a surrogate pair split over two deltas", func() {
			out, err := anthropic.AssembleStream(sse("message_start", msgStart, "content_block_start", thinkStart,
				"content_block_delta", thinkDelta(`{"type":"thinking_delta","thinking":"caf\u00e9 \ud83d"}`),
				"content_block_delta", thinkDelta(`{"type":"thinking_delta","thinking":"\ude00 \"q\" \/ <b> ✗\n"}`),
				"content_block_delta", thinkDelta(`{"type":"signature_delta","signature":"EqQB/x+y=="}`),
				"content_block_stop", thinkStop, "message_delta", msgDelta, "message_stop", msgStop))
			Expect(err).NotTo(HaveOccurred())
			Expect(content(out)).To(Equal(`{"type":"thinking","thinking":"caf\u00e9 \ud83d\ude00 \"q\" \/ <b> ✗\n","signature":"EqQB/x+y=="}`))
		})

		It("takes the last signature_delta, else the signature of content_block_start, else an empty one", func() {
			out, err := anthropic.AssembleStream(sse("message_start", msgStart,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"a","signature":""}}`,
				"content_block_delta", thinkDelta(`{"type":"signature_delta","signature":"first"}`),
				"content_block_delta", thinkDelta(`{"type":"signature_delta","signature":"second"}`),
				"content_block_stop", thinkStop,
				"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"signature":"s1","thinking":"b","type":"thinking"}}`,
				"content_block_stop", `{"type":"content_block_stop","index":1}`,
				"content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"thinking"}}`,
				"content_block_stop", `{"type":"content_block_stop","index":2}`,
				"message_delta", msgDelta, "message_stop", msgStop))
			Expect(err).NotTo(HaveOccurred())
			Expect(content(out)).To(Equal(`{"type":"thinking","thinking":"a","signature":"second"},` +
				`{"type":"thinking","thinking":"b","signature":"s1"},{"type":"thinking","thinking":"","signature":""}`))
		})

		It("keeps a redacted_thinking block whole, as content_block_start sent it", func() {
			out, err := anthropic.AssembleStream(sse("message_start", msgStart,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"data":"`+redactedData+`","type":"redacted_thinking"}}`,
				"content_block_stop", thinkStop, "message_delta", msgDelta, "message_stop", msgStop))
			Expect(err).NotTo(HaveOccurred())
			Expect(content(out)).To(Equal(`{"type":"redacted_thinking","data":"` + redactedData + `"}`))
		})

		DescribeTable("refuses a thinking stream out of shape, naming the line and column",
			func(raw []byte, want string) {
				_, err := anthropic.AssembleStream(raw)
				Expect(err).To(MatchError(want))
				Expect(errors.Is(err, anthropic.ErrUnsupported)).To(BeFalse())
			},
			Entry("thinking_delta for a text block", sse("message_start", msgStart, "content_block_start", textStart,
				"content_block_delta", thinkDelta(`{"type":"thinking_delta","thinking":"x"}`)),
				`anthropic: stream: 8:55 (byte 422): event content_block_delta: delta: thinking_delta for a text block`),
			Entry("signature_delta for a tool_use block", sse("message_start", msgStart, "content_block_start", toolStart,
				"content_block_delta", thinkDelta(`{"type":"signature_delta","signature":"s"}`)),
				`anthropic: stream: 8:55 (byte 447): event content_block_delta: delta: signature_delta for a tool_use block`),
			Entry("text_delta for a thinking block", sse("message_start", msgStart, "content_block_start", thinkStart,
				"content_block_delta", textDelta),
				`anthropic: stream: 8:55 (byte 430): event content_block_delta: delta: text_delta for a thinking block`),
			Entry("thinking_delta for a redacted_thinking block", sse("message_start", msgStart,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"d"}}`,
				"content_block_delta", thinkDelta(`{"type":"thinking_delta","thinking":"x"}`)),
				`anthropic: stream: 8:55 (byte 436): event content_block_delta: delta: thinking_delta for a redacted_thinking block`),
			Entry("a thinking text that is not a string", sse("message_start", msgStart,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":null}}`),
				`anthropic: stream: 5:93 (byte 343): event content_block_start: content_block.thinking: want a string, got null`),
			Entry("a signature that is not a string", sse("message_start", msgStart, "content_block_start", thinkStart,
				"content_block_delta", thinkDelta(`{"type":"signature_delta","signature":7}`)),
				`anthropic: stream: 8:93 (byte 468): event content_block_delta: delta.signature: want a string, got a number`),
			Entry("redacted data that is not a string", sse("message_start", msgStart,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":[]}}`),
				`anthropic: stream: 5:98 (byte 348): event content_block_start: content_block.data: want a string, got an array`),
		)

		It("assembles the phantom-call shape, whose expand_context call the gateway finds and strips, keeping the thinking and the text", func() {
			msg, err := anthropic.AssembleStream(fixture("thinking_tool_use.sse"))
			Expect(err).NotTo(HaveOccurred())
			Expect(msg).To(MatchJSON(fixture("thinking_tool_use.json")))
			calls, err := anthropic.Wire{}.PhantomCalls(msg)
			Expect(err).NotTo(HaveOccurred())
			Expect(calls).To(HaveLen(1))
			Expect(calls[0].ShadowID).To(Equal("shadow_49d3fadd600cb694de7e9a317986b16c"))
			stripped, err := anthropic.Wire{}.StripPhantom(msg)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(stripped)).To(ContainSubstring(`"content":[{"type":"thinking","thinking":"The user asks why`))
			Expect(string(stripped)).To(ContainSubstring(`"signature":"EqQBCkgIBxABGAIiQL7/yDqkbFqSGcE3iJ5nVOhX3MtpfWQ+Jkx`))
			Expect(string(stripped)).To(ContainSubstring(`{"type":"text","text":"The log is compressed; let me read the whole of it."}],"stop_reason":"end_turn"`))
			restream, err := anthropic.Wire{}.Restream(stripped)
			Expect(err).NotTo(HaveOccurred())
			back, err := anthropic.Wire{}.Assemble(restream)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(back)).To(Equal(string(stripped)))
			Expect(errors.Is(err, gateway.ErrUnassembled)).To(BeFalse())
		})

		It("gives the expansion round the thinking block with the bytes the API streamed, escapes and all", func() {
			sig := `EqQB/x+y\u003d\u003d`
			msg, err := anthropic.AssembleStream(sse("message_start", msgStart, "content_block_start", thinkStart,
				"content_block_delta", thinkDelta(`{"type":"thinking_delta","thinking":"caf\u00e9 \"log\"\n"}`),
				"content_block_delta", thinkDelta(`{"type":"signature_delta","signature":"`+sig+`"}`),
				"content_block_stop", thinkStop,
				"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_x","name":"expand_context","input":{}}}`,
				"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"shadow_id\":\"shadow_1\"}"}}`,
				"content_block_stop", `{"type":"content_block_stop","index":1}`,
				"message_delta", msgDelta, "message_stop", msgStop))
			Expect(err).NotTo(HaveOccurred())
			calls, err := anthropic.Wire{}.PhantomCalls(msg)
			Expect(err).NotTo(HaveOccurred())
			next, err := anthropic.Wire{}.AppendExpansions([]byte(`{"messages":[{"role":"user","content":"why?"}]}`), msg, calls, []string{"the log"})
			Expect(err).NotTo(HaveOccurred())
			Expect(string(next)).To(ContainSubstring(`{"role":"assistant","content":[{"type":"thinking","thinking":"caf\u00e9 \"log\"\n","signature":"` + sig + `"},` +
				`{"type":"tool_use","id":"toolu_x","name":"expand_context","input":{"shadow_id":"shadow_1"}}]}`))
		})
	})

	Describe("StreamOf", func() {
		It("streams a thinking block as a start with empty thinking and signature, one thinking_delta, one signature_delta and a stop", func() {
			stream, err := anthropic.StreamOf(fixture("thinking_tool_use.json"))
			Expect(err).NotTo(HaveOccurred())
			events := sdkEvents(stream)
			Expect(names(events)[:5]).To(Equal([]string{"message_start",
				"content_block_start", "content_block_delta", "content_block_delta", "content_block_stop"}))
			Expect(events[1].Data["content_block"]).To(Equal(map[string]any{"type": "thinking", "thinking": "", "signature": ""}))
			Expect(events[2].Data["delta"]).To(HaveKeyWithValue("type", "thinking_delta"))
			Expect(events[2].Data["delta"]).To(HaveKeyWithValue("thinking", HavePrefix("The user asks why the CI job failed.")))
			Expect(events[3].Data["delta"]).To(HaveKeyWithValue("type", "signature_delta"))
			Expect(events[3].Data["delta"]).To(HaveKeyWithValue("signature", HavePrefix("EqQBCkgIBxABGAIiQL7/")))
		})

		It("streams a redacted_thinking block whole in its start, then its stop", func() {
			stream, err := anthropic.StreamOf(fixture("redacted_thinking.json"))
			Expect(err).NotTo(HaveOccurred())
			events := sdkEvents(stream)
			Expect(names(events)[1:3]).To(Equal([]string{"content_block_start", "content_block_stop"}))
			Expect(events[1].Data["content_block"]).To(Equal(map[string]any{"type": "redacted_thinking", "data": string(
				"EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mMnZ5DmZUbyqT1r2s0vRV4UgTcIwPvahl+kQ9Vz0sYb3fWc1oR7mXtN2dLq8gH5aJ4uE6iP0tF3yC2wS9vB1nM7kQ==")}))
		})

		It("sends no delta for an empty thinking text or signature, and renders a missing signature as empty", func() {
			stream, err := anthropic.StreamOf([]byte(`{"content":[{"type":"thinking","thinking":""},{"type":"thinking","thinking":"t","signature":""}]}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(names(sdkEvents(stream))).To(Equal([]string{"message_start",
				"content_block_start", "content_block_stop",
				"content_block_start", "content_block_delta", "content_block_stop",
				"message_delta", "message_stop"}))
			back, err := anthropic.AssembleStream(stream)
			Expect(err).NotTo(HaveOccurred())
			Expect(content(back)).To(Equal(`{"type":"thinking","thinking":"","signature":""},{"type":"thinking","thinking":"t","signature":""}`))
		})
	})

	Describe("DecodeResponse", func() {
		It("skips thinking and redacted_thinking blocks, which core.Response has no field for", func() {
			resp, err := anthropic.DecodeResponse(fixture("thinking_tool_use.json"))
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal("The log is compressed; let me read the whole of it."))
			Expect(resp.ToolCalls).To(HaveLen(1))
			Expect(resp.ToolCalls[0].Name).To(Equal("expand_context"))
			Expect(resp.FinishReason).To(Equal(core.FinishToolCalls))
			Expect(resp.Usage).To(Equal(core.Usage{InputTokens: 2210, OutputTokens: 187}))

			resp, err = anthropic.DecodeResponse(fixture("redacted_thinking.json"))
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal("Reading the pool settings."))
			Expect(resp.ToolCalls).To(HaveLen(1))
			Expect(resp.ToolCalls[0].Name).To(Equal("Read"))
		})

		It("gives an empty response for a message of thinking blocks only", func() {
			resp, err := anthropic.DecodeResponse([]byte(`{"type":"message","content":[{"type":"thinking","thinking":"hm","signature":"s"},` +
				`{"type":"redacted_thinking","data":"d"}],"stop_reason":"end_turn"}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(resp).To(Equal(core.Response{FinishReason: core.FinishStop}))
		})
	})

	Describe("DecodeRequest", func() {
		It("accepts the thinking and redacted_thinking blocks a client replays in an assistant message, and leaves them out", func() {
			body := `{"thinking":{"type":"enabled","budget_tokens":2048},"messages":[{"role":"user","content":"Why?"},
				{"role":"assistant","content":[{"type":"thinking","thinking":"hm \u00e9","signature":"EqQB=="},{"type":"redacted_thinking","data":"Emw="},
				{"type":"text","text":"Let me look."},{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a"}}]},
				{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},
				{"role":"assistant","content":[{"type":"thinking","thinking":"","signature":"s"}]}]}`
			req, _, err := anthropic.DecodeRequest([]byte(body), core.Tag{})
			Expect(err).NotTo(HaveOccurred())
			Expect(req.Messages).To(HaveLen(4))
			Expect(req.Messages[1].Role).To(Equal(core.RoleAssistant))
			Expect(req.Messages[1].Content).To(Equal("Let me look."))
			Expect(req.Messages[1].ToolCalls).To(HaveLen(1))
			Expect(req.Messages[2]).To(Equal(core.Message{Role: core.RoleTool, ToolCallID: "t1", Name: "Read", Content: "ok"}))
			Expect(req.Messages[3]).To(Equal(core.Message{Role: core.RoleAssistant}))
		})

		DescribeTable("refuses a replayed thinking block whose values are not strings",
			func(block, want string) {
				_, _, err := anthropic.DecodeRequest([]byte(`{"messages":[{"role":"assistant","content":[`+block+`]}]}`), core.Tag{})
				Expect(err).To(MatchError(want))
			},
			Entry(nil, `{"type":"thinking","thinking":"t","signature":1}`,
				`anthropic: request: 1:91 (byte 90): messages[0].content[0].signature: want a string, got a number`),
			Entry(nil, `{"type":"thinking","thinking":{}}`,
				`anthropic: request: 1:75 (byte 74): messages[0].content[0].thinking: want a string, got an object`),
			Entry(nil, `{"type":"redacted_thinking","data":null}`,
				`anthropic: request: 1:80 (byte 79): messages[0].content[0].data: want a string, got null`),
		)
	})
})
