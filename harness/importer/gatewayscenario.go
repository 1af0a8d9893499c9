package importer

import (
	"cmp"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/wires"
	"github.com/toolout/toolout/fakes/llmwire"
	"github.com/toolout/toolout/harness"
)

// The YAML shapes of an imported gateway scenario, in field order.
type (
	gatewayScenarioConfig struct {
		Provider      string `yaml:"provider"`
		CaptureConfig `yaml:",inline"`
	}
	gatewayScenarioRequest struct {
		Body    importedText `yaml:"body"`
		Advance string       `yaml:"advance,omitempty"`
		Forward bool         `yaml:"forward"`
	}
	gatewayScenarioExpect struct {
		Actions       []string `yaml:"actions,omitempty"`
		Rounds        int      `yaml:"rounds"`
		Expansions    []string `yaml:"expansions"`
		ResponseLacks []string `yaml:"response_lacks,omitempty"`
	}
)

// gatewayBuild is the making of one gateway scenario.
type gatewayBuild struct {
	im     *importer
	wire   gateway.Wire
	lw     llmwire.Wire
	remote bool // the compressor is a model or a service: its answers are scripted
	steps  []importedStep
	// ids maps the shadow ids the capture recorded to those the scenario's
	// gateway issues: redaction changes the contents they hash.
	ids map[string]string
}

// gatewayScenario renders the gateway scenario of a capture's calls: each
// request, as the client sent it, through the gateway with the settings it
// ran with; the model scripted round by round as it answered (each
// expand_context call it made, then the answer the client got); a remote
// compressor (api, external_provider) scripted as the model of the
// external_provider strategy, answering each output as the forward shows
// it was compressed. It expects what the capture recorded: each output's
// action, the rounds and the expansions' answers.
func (im *importer) gatewayScenario(calls []capturedCall, provider string) error {
	cfg := calls[0].gw.Config
	if err := cfg.check(); err != nil {
		return im.tr.errorf(calls[0].at, "gateway.config: %v", err)
	}
	wire, err := wires.For(provider)
	if err != nil {
		return err
	}
	b := &gatewayBuild{im: im, wire: wire, lw: llmwire.Wire(provider), ids: map[string]string{},
		remote: cfg.Strategy == gateway.StrategyAPI || cfg.Strategy == gateway.StrategyExternalProvider}
	sc := gatewayScenarioConfig{Provider: provider, CaptureConfig: *cfg}
	if b.remote {
		sc.Strategy = gateway.StrategyExternalProvider // the scripted model answers as the service did
	}
	var requests []gatewayScenarioRequest
	var expect []gatewayScenarioExpect
	rounds := 0
	for k, c := range calls {
		name := fmt.Sprintf("%s-gateway.req%d.json", im.opts.Name, k+1)
		body := im.red.applyJSON(c.request)
		im.files = append(im.files, ImportedFile{Path: name, Data: body})
		req := gatewayScenarioRequest{Body: importedText{File: name}, Forward: true}
		if k > 0 && !c.gw.At.IsZero() && c.gw.At.After(calls[k-1].gw.At) && !calls[k-1].gw.At.IsZero() {
			req.Advance = c.gw.At.Sub(calls[k-1].gw.At).Round(time.Millisecond).String()
		}
		requests = append(requests, req)
		if err := b.request(k+1, c, body); err != nil {
			return err
		}
		rounds += max(c.gw.Rounds, 1) - 1
		expect = append(expect, expectOf(c))
	}
	desc := fmt.Sprintf("Imported from %s: the %d request(s) of a conversation the gateway captured (wire %s, strategy %s, expand_context %v), each through the gateway with the settings it ran with; the model answers each round as it did (%d expand_context round(s) in all).",
		im.opts.TraceName, len(calls), provider, cfg.Strategy, cfg.EnableExpandContext, rounds)
	data, err := marshalScenario(importedScenario{Description: desc, Labels: []string{"regress", "imported", "gateway"}, Component: "gateway",
		Source: harness.Source{Trace: im.opts.TraceName, SHA256: im.sha(), Messages: []int{}, Redacted: im.red.summary()},
		Config: sc, Input: map[string]any{"requests": requests}, LLM: b.steps, Expect: map[string]any{"requests": expect}})
	if err != nil {
		return err
	}
	im.files = append(im.files, ImportedFile{Path: im.opts.Name + "-gateway.yaml", Data: data})
	return nil
}

// expectOf is what the gateway scenario expects of call c's request.
func expectOf(c capturedCall) gatewayScenarioExpect {
	e := gatewayScenarioExpect{Rounds: max(c.gw.Rounds, 1), Expansions: []string{}}
	for _, r := range c.gw.Results {
		e.Actions = append(e.Actions, r.Action)
	}
	for _, x := range c.gw.Expansions {
		e.Expansions = append(e.Expansions, x.Answer)
	}
	if e.Rounds > 1 {
		e.ResponseLacks = []string{gateway.ExpandToolName}
	}
	return e
}

// request scripts request k's calls, body its request as the scenario
// sends it: a remote compressor's, then the model's rounds.
func (b *gatewayBuild) request(k int, c capturedCall, body []byte) error {
	orig, err := b.wire.Read(body)
	if err != nil {
		return b.im.tr.errorf(c.at, "request: %v", err)
	}
	for _, r := range c.gw.Results {
		if r.Index < 0 || r.Index >= len(orig.Outputs) {
			return b.im.tr.errorf(c.at, "gateway.results: output %d: the request has %d", r.Index, len(orig.Outputs))
		}
		if r.Action == gateway.ActionCompressed && r.ShadowID != "" {
			b.ids[r.ShadowID] = gateway.ShadowID(orig.Outputs[r.Index].Content)
		}
	}
	if b.remote {
		if err := b.compressions(k, c, orig); err != nil {
			return err
		}
	}
	rounds := max(c.gw.Rounds, 1)
	if rounds > gateway.MaxExpandRounds+1 {
		return b.im.tr.errorf(c.at, "gateway.rounds %d: the gateway makes at most %d", rounds, gateway.MaxExpandRounds+1)
	}
	calls := make([][]importedCall, rounds) // the expand_context calls of each round
	for _, x := range c.gw.Expansions {
		if x.Round < 1 || x.Round >= rounds {
			return b.im.tr.errorf(c.at, "gateway.expansions: round %d: want one of the %d round(s) before the last", x.Round, rounds-1)
		}
		calls[x.Round] = append(calls[x.Round], importedCall{ID: x.CallID, Name: gateway.ExpandToolName,
			Args: map[string]any{"shadow_id": cmp.Or(b.ids[x.ShadowID], x.ShadowID)}})
	}
	for r := 1; r < rounds; r++ {
		st := importedStep{ID: fmt.Sprintf("request-%d-round-%d", k, r), Match: importedMatch{Tag: core.SiteGatewayUpstream, Turn: r},
			Respond: importedRespond{ToolCalls: calls[r]}}
		if len(st.Respond.ToolCalls) == 0 {
			return b.im.tr.errorf(c.at, "gateway: round %d of %d made no expand_context call the capture recorded", r, rounds)
		}
		b.steps = append(b.steps, st)
	}
	answer, err := b.answer(c)
	if err != nil {
		return err
	}
	st := importedStep{ID: fmt.Sprintf("request-%d-answer", k), Match: importedMatch{Tag: core.SiteGatewayUpstream, Turn: rounds}}
	if text := answer.Text; text != "" || len(answer.ToolCalls) == 0 {
		st.Respond.Text = &text
	}
	for _, tc := range answer.ToolCalls {
		ic := importedCall{ID: tc.ID, Name: tc.Name}
		switch args := string(tc.Arguments); {
		case tc.Custom:
			input := tc.Input()
			ic.Custom, ic.Input = true, &input
		case scriptedArgs(args) != nil:
			ic.args = args
		default:
			ic.Raw = &args
		}
		st.Respond.ToolCalls = append(st.Respond.ToolCalls, ic)
	}
	b.steps = append(b.steps, st)
	return nil
}

// answer is the model's last answer to c's request, redacted: the body
// the client got, or the message it assembled from the stream.
func (b *gatewayBuild) answer(c capturedCall) (core.Response, error) {
	body := c.response
	if c.stream {
		var err error
		if body, err = b.wire.Assemble(body); err != nil {
			return core.Response{}, b.im.tr.errorf(c.at, "response: the stream the client got: %v", err)
		}
	}
	resp, err := b.lw.DecodeResponse(b.im.red.applyJSON(body))
	if err != nil {
		return core.Response{}, b.im.tr.errorf(c.at, "response: %v", err)
	}
	return resp, nil
}

// compressions scripts the remote compressor's calls of c's request, in
// the order the gateway makes them (one output at a time, by index): a
// compressed output answered with the text its forward shows, a failure
// as a server error, an output the compressor did not make smaller with
// as many bytes as it had. A cache hit makes no call.
func (b *gatewayBuild) compressions(k int, c capturedCall, orig *gateway.Conversation) error {
	fwd, err := b.wire.Read(c.forwarded)
	if err != nil {
		return b.im.tr.errorf(c.at, "gateway.forwarded: %v", err)
	}
	for _, r := range c.gw.Results {
		if r.Index >= len(fwd.Outputs) {
			return b.im.tr.errorf(c.at, "gateway.results: output %d: the forward has %d", r.Index, len(fwd.Outputs))
		}
		content := orig.Outputs[r.Index].Content
		st := importedStep{ID: fmt.Sprintf("request-%d-compress-%d", k, r.Index), Match: importedMatch{Tag: core.SiteGatewayCompress, Contains: []string{opening(content)}}}
		switch {
		case r.Reason == "compressed":
			_, text, ok := gateway.ParseMark(fwd.Outputs[r.Index].Content)
			if !ok {
				return b.im.tr.errorf(c.at, "gateway.forwarded: output %d was compressed, and its forward holds no shadow marker", r.Index)
			}
			text = b.im.red.apply(text)
			st.Respond.Text = &text
		case strings.HasPrefix(r.Reason, "compression failed"):
			st.Respond.Error = &importedError{Kind: "server_error", Message: "as captured: " + r.Reason}
		case strings.HasPrefix(r.Reason, "not smaller"):
			same := strings.Repeat(".", len(content))
			st.Respond.Text = &same
		default:
			continue
		}
		b.steps = append(b.steps, st)
	}
	return nil
}

// opening is the start of content a compressor's request shows: its first
// line, at most 120 bytes, cut at a character.
func opening(content string) string {
	line, _, _ := strings.Cut(content, "\n")
	if len(line) > 120 {
		cut := 120
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut]
	}
	return line
}
