package llmwire_test

import (
	"encoding/json"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/fakes/llmwire"
)

// names are the events' names, each checked against its data's type and
// sequence_number (the event's place).
func names(evs []llmwire.Event) []string {
	var out []string
	for i, ev := range evs {
		var v struct {
			Type string `json:"type"`
			Seq  int    `json:"sequence_number"`
		}
		ExpectWithOffset(1, json.Unmarshal([]byte(ev.Data), &v)).To(Succeed(), ev.Data)
		ExpectWithOffset(1, [2]any{v.Type, v.Seq}).To(Equal([2]any{ev.Name, i}))
		out = append(out, ev.Name)
	}
	return out
}

var _ = Describe("The Responses wire", func() {
	withCustom := func() fakes.Stream {
		s := stream(-1, -1)
		s.Response.ToolCalls = append(s.Response.ToolCalls, core.CustomCall("c2", "apply_patch", "*** Begin Patch\n"))
		s.Args = append(s.Args, []string{"*** Begin", " Patch\n"})
		return s
	}

	It("streams each output item as the API does: added, one delta per chunk, done; created first, completed last", func() {
		a, err := llmwire.Responses.Reply(withCustom(), "resp_7", true)
		Expect(err).NotTo(HaveOccurred())
		Expect(names(a.Events)).To(Equal([]string{"response.created", "response.in_progress",
			"response.output_item.added", "response.content_part.added",
			"response.output_text.delta", "response.output_text.delta", "response.output_text.delta",
			"response.output_text.done", "response.content_part.done", "response.output_item.done",
			"response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.delta",
			"response.function_call_arguments.done", "response.output_item.done",
			"response.output_item.added", "response.custom_tool_call_input.delta", "response.custom_tool_call_input.delta",
			"response.custom_tool_call_input.done", "response.output_item.done",
			"response.completed"}))
		Expect(a.Events[0].Data).To(MatchJSON(`{"type":"response.created","sequence_number":0,"response":{"id":"resp_7","object":"response","created_at":0,` +
			`"status":"in_progress","error":null,"incomplete_details":null,"model":"scripted","output":[],"parallel_tool_calls":true,"tool_choice":"auto","tools":[],"usage":null}}`))
		Expect(a.Events[4].Data).To(Equal(`{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_7","output_index":0,"content_index":0,"delta":"Hello","logprobs":[]}`))
		Expect(a.Events[16].Data).To(Equal(`{"type":"response.custom_tool_call_input.delta","sequence_number":16,"item_id":"ctc_7_1","output_index":2,"delta":"*** Begin"}`))
		Expect(a.Events[20].Data).To(Equal(`{"type":"response.completed","sequence_number":20,"response":` + string(llmwire.Responses.JSON(withCustom().Response, "resp_7")) + `}`))

		body, err := responses.Assemble(a.Bytes())
		Expect(err).NotTo(HaveOccurred())
		Expect(body).To(Equal(llmwire.Responses.JSON(withCustom().Response, "resp_7")), "the stream assembles to the JSON answer")
	})

	It("streams a one-chunk answer byte for byte as core/gateway/responses encodes its stream", func() {
		s := withCustom()
		s.Text, s.Args = []string{"Hello, world"}, [][]string{{`{"a":1}`}, {"*** Begin Patch\n"}}
		a, err := llmwire.Responses.Reply(s, "resp_2", true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(a.Bytes())).To(Equal(string(responses.EncodeStream(s.Response, "resp_2", llmwire.Model))))
	})

	It("ends with the API's error event at error_after, numbered in turn, and cuts mid-event at disconnect_after", func() {
		a, _ := llmwire.Responses.Reply(stream(0, -1), "resp_1", true)
		Expect(names(a.Events)).To(Equal([]string{"response.created", "response.in_progress", "response.output_item.added", "response.content_part.added", "error"}))
		Expect(a.Events[4].Data).To(Equal(`{"type":"error","sequence_number":4,"code":"server_error","message":"scripted stream error after 0 chunk(s)","param":null}`))
		Expect(a.Cut).To(BeFalse())

		s := stream(-1, 3)
		s.MidEvent = true
		a, _ = llmwire.Responses.Reply(s, "resp_1", true)
		Expect(a.Cut).To(BeTrue())
		last := a.Events[len(a.Events)-1]
		Expect(last.Name).To(Equal("response.output_text.done"))
		Expect(a.Partial).To(Equal(len(last.Bytes()) / 2))
	})

	It("puts each delay on the event that follows its chunk", func() {
		s := stream(-1, -1)
		s.Delays = []time.Duration{1, 2, 3, 4, 5, 6}
		a, _ := llmwire.Responses.Reply(s, "resp_1", true)
		var got []string
		for _, ev := range a.Events {
			if ev.Delay > 0 {
				got = append(got, fmt.Sprintf("%d %s", ev.Delay, ev.Name))
			}
		}
		Expect(got).To(Equal([]string{"1 response.output_text.delta", "2 response.output_text.delta", "3 response.output_text.delta",
			"4 response.output_text.done", "5 response.function_call_arguments.delta", "6 response.function_call_arguments.done"}))
	})

	It("refuses a custom tool call on the chat and Messages wires", func() {
		for _, w := range []llmwire.Wire{llmwire.OpenAI, llmwire.Anthropic} {
			_, err := w.Reply(withCustom(), w.ID(1), false)
			Expect(err).To(MatchError(llmwire.ErrCustomCall))
			Expect(err).To(MatchError(ContainSubstring("apply_patch (post to /v1/responses)")))
		}
	})
})
