package harness

import (
	"context"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/fakes/llmwire"
	"github.com/toolout/toolout/internal/yamlstrict"
)

// A scenario's wire (the top-level `wire:` key: openai, anthropic or
// responses) is the API its model speaks to the agent: `toolout serve`
// answers every wire on its own route, and the scenario names the one its
// agent uses. In process, the component's model ([Env.Model]) then sends
// every answer through that wire's bytes: the answer is encoded as
// fakes/llmwire encodes it for toolout serve, and decoded back as a
// client of the API reads it, so a run shows that nothing is lost on the
// way; the transcript shows, under each answer, the body as sent (and,
// when its step scripts a stream, the events a streaming client gets).
// They are the bytes serve sends for that answer, with two differences
// that come from the request: serve counts usage from the request's text
// (in process there is no tokenizer: zero) and numbers its answers in
// the order they come (the transcript numbers them in its own order).
// A gateway scenario's wire is its config.provider, so it names none;
// only the Responses wire carries a step's custom tool call.

// checkWire validates the scenario's wire against its component and steps.
func (d *decoder) checkWire(sc *Scenario) {
	_, v := lookup(sc.root, "wire")
	if v == nil {
		return
	}
	w, err := llmwire.ParseWire(sc.Wire)
	switch {
	case err != nil:
		d.errorf(v, "wire %q: want openai, anthropic or responses", Clip(sc.Wire))
		return
	case sc.Component == "gateway":
		d.errorf(v, "wire: a gateway scenario's wire is its config.provider")
		return
	}
	if w == llmwire.Responses {
		return
	}
	_, ln := lookup(sc.root, "llm")
	for i, st := range sc.LLM {
		for j, c := range st.Respond.ToolCalls {
			if !c.Custom || ln == nil || i >= len(ln.Content) {
				continue
			}
			at := callNode(yamlstrict.Resolve(ln.Content[i]), j)
			d.errorf(at, "llm[%d].respond.tool_calls[%d]: custom: true: the %s wire has no custom tool calls (wire: responses has)", i, j, w)
		}
	}
}

// callNode is the node of a step's j-th scripted call, or the step's.
func callNode(step *yaml.Node, j int) *yaml.Node {
	_, r := lookup(step, "respond")
	if r == nil {
		return step
	}
	_, calls := lookup(yamlstrict.Resolve(r), "tool_calls")
	if calls == nil || calls.Kind != yaml.SequenceNode || j >= len(calls.Content) {
		return step
	}
	return calls.Content[j]
}

// Model is the component's model: the scripted LLM, whose every answer
// goes through the scenario's wire when it names one (see checkWire).
func (e *Env) Model() core.LLM {
	if e.Wire == "" {
		return e.LLM
	}
	return core.LLMFunc(func(ctx context.Context, req core.Request) (core.Response, error) {
		resp, err := e.LLM.Complete(ctx, req)
		if err != nil {
			return resp, err
		}
		got, err := e.Wire.DecodeResponse(e.Wire.JSON(resp, e.Wire.ID(1)))
		if err != nil {
			return core.Response{}, fmt.Errorf("harness: wire %s: the answer does not decode as a client reads it: %w", e.Wire, err)
		}
		return got, nil
	})
}

// wireBlock is what the transcript shows under the n-th call's answer on
// the wire w: the body as sent, and the events when its step scripts a
// stream.
func wireBlock(w llmwire.Wire, llm *fakes.LLM, n int, c fakes.Call) string {
	id := w.ID(n)
	var b strings.Builder
	fmt.Fprintf(&b, "<<< %s %s\n%s\n", w, w.Path(), w.JSON(c.Response, id))
	s, scripted, err := llm.Streamed(c)
	if !scripted {
		return b.String()
	}
	if err != nil {
		fmt.Fprintf(&b, "<<< %s stream\n%v\n", w, err)
		return b.String()
	}
	a, err := w.Reply(s, id, true)
	if err != nil {
		fmt.Fprintf(&b, "<<< %s stream\n%v\n", w, err)
		return b.String()
	}
	fmt.Fprintf(&b, "<<< %s stream\n%s", w, a.Bytes())
	if a.Cut {
		b.WriteString("\n[connection dropped]\n")
	}
	return b.String()
}
