package components

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/gateway/wires"
	"github.com/toolout/toolout/fakes/llmwire"
	"github.com/toolout/toolout/harness"
)

// gateway component: runs request bodies through the compression gateway
// (core/gateway), one after the other on one store and clock; a request with
// forward: true goes to the scripted model (tag gateway.upstream, turn = the
// forward round) through the expand_context loop, in the provider's wire
// format (OpenAI chat completions, or Anthropic messages). A forwarded body
// that asks to stream goes through the gateway's HTTP proxy instead, and the
// model answers it as server-sent events (gateway_stream.go).
//
//	component: gateway
//	config: {provider: openai, strategy: simple, simple_words: 20, min_bytes: 2048, max_bytes: 65536,
//	         skip_tools: [bash], fallback_strategy: passthrough, enable_expand_context: true,
//	         original_ttl: 5m, compressed_ttl: 24h, upstream_timeout: 10m}
//	input:
//	  requests:
//	    - {body: {file: request.json}, advance: 6m, forward: true}
//	expect:
//	  requests: [{actions: [compressed, passthrough], reasons: ["…"], rounds: 2, expansions: [original],
//	              capped: false, forwarded_contains: ["…"], response_contains: ["…"],
//	              assembled_contains: ["…"]}]  # assembled: what a client builds from a stream
//	  metrics: {cache_hits: 1, compressions_ok: 1}
type gatewayConfig struct {
	// Provider is the wire of the requests: openai or anthropic.
	Provider string `yaml:"provider"`
	// The compressor, pipe and store knobs are core's, under their
	// config-file names.
	gateway.Settings `yaml:",inline"`
	MaxResults       int   `yaml:"max_results"`
	MaxWorkBytes     int64 `yaml:"max_work_bytes"`
	// UpstreamTimeout bounds each upstream call of a streamed request, on
	// the scenario's clock (the proxy's limit; default its default).
	UpstreamTimeout time.Duration `yaml:"upstream_timeout"`
}

func (c gatewayConfig) Validate() error {
	var errs []error
	if _, err := wires.For(c.Provider); err != nil {
		errs = append(errs, err)
	}
	switch c.Strategy {
	case gateway.StrategyPassthrough, gateway.StrategySimple, gateway.StrategyExternalProvider:
	default:
		errs = append(errs, fmt.Errorf("strategy %q: want passthrough, simple or external_provider (the scripted LLM, tag gateway.compress)", c.Strategy))
	}
	if c.UpstreamTimeout < 0 {
		errs = append(errs, fmt.Errorf("upstream_timeout %v: must not be negative", c.UpstreamTimeout))
	}
	if c.MaxConcurrent > 1 {
		errs = append(errs, fmt.Errorf("max_concurrent %d: a scenario compresses one result at a time, so that its transcript has one order", c.MaxConcurrent))
	}
	if err := c.Config.Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

type gatewayRequest struct {
	Body    harness.Text  `yaml:"body"`
	Advance time.Duration `yaml:"advance"`
	Forward bool          `yaml:"forward"`
}

type gatewayInput struct {
	Requests []gatewayRequest `yaml:"requests"`
}

type gatewayRequestExpect struct {
	Actions           []string `yaml:"actions"`
	Reasons           []string `yaml:"reasons"` // substrings, one per output
	Rounds            *int     `yaml:"rounds"`
	Expansions        []string `yaml:"expansions"`
	Capped            *bool    `yaml:"capped"`
	ForwardedContains []string `yaml:"forwarded_contains"`
	// ForwardedLacks: no forwarded body of any round may contain these.
	ForwardedLacks   []string `yaml:"forwarded_lacks"`
	ResponseContains []string `yaml:"response_contains"`
	ResponseLacks    []string `yaml:"response_lacks"`
	// AssembledContains: substrings of the message a client assembles from
	// a streamed response (a request that asked to stream).
	AssembledContains []string `yaml:"assembled_contains"`
	// Error is a substring of the error the request must end with.
	Error *string `yaml:"error"`
}

type gatewayExpect struct {
	Requests []gatewayRequestExpect `yaml:"requests"`
	Metrics  struct {
		CacheHits          *int64 `yaml:"cache_hits"`
		CacheMisses        *int64 `yaml:"cache_misses"`
		CompressionsOK     *int64 `yaml:"compressions_ok"`
		CompressionsFailed *int64 `yaml:"compressions_failed"`
	} `yaml:"metrics"`
}

// gatewayResultJSON is what the gateway did with one output: what a
// capture records of it, and the bytes it saved.
type gatewayResultJSON struct {
	proxy.CapturedResult
	Saved int `json:"saved,omitempty"`
}

type gatewayRequestOutcome struct {
	Results    []gatewayResultJSON `json:"results"`
	Rounds     int                 `json:"rounds"`
	Expansions []gateway.Expansion `json:"expansions"`
	Capped     bool                `json:"capped"`
	Error      string              `json:"error,omitempty"`
	// Stream is set for a request that asked to stream (gateway_stream.go).
	Stream    *gatewayStreamJSON `json:"stream,omitempty"`
	forwarded string
	allRounds []string // every forwarded body, round 1 first
	response  string
	assembled string   // the message the client assembles from a stream
	upstream  []string // the model's streams, one per round that streamed
	actions   []string // a stream's outputs' actions (nil when the proxy handed none over)
}

type gatewayOutcome struct {
	Requests []gatewayRequestOutcome `json:"requests"`
	Metrics  gateway.Metrics         `json:"metrics"`
}

func registerGateway(reg *harness.Registry) {
	harness.Register(reg, harness.Spec[gatewayConfig, gatewayInput, gatewayExpect, gatewayOutcome]{
		Name:     "gateway",
		Doc:      "runs request bodies through the compression gateway (core/gateway) and its expand_context loop",
		LLM:      true,
		Defaults: func(c *gatewayConfig) { c.Provider, c.Strategy, c.EnableExpandContext = "openai", "simple", true },
		Run:      runGatewayComponent,
		Render: func(o gatewayOutcome) ([]harness.Section, error) {
			js, err := harness.JSONSection("outcome.json", o)
			secs := []harness.Section{js}
			for i, r := range o.Requests {
				secs = append(secs, harness.Section{Name: fmt.Sprintf("request/%d/forwarded", i+1), Body: harness.Elide(r.forwarded)})
				if r.response != "" {
					secs = append(secs, harness.Section{Name: fmt.Sprintf("request/%d/response", i+1), Body: harness.Elide(r.response)})
				}
				for j, u := range r.upstream {
					secs = append(secs, harness.Section{Name: fmt.Sprintf("request/%d/upstream/%d", i+1, j+1), Body: harness.Elide(u)})
				}
				if r.assembled != "" {
					secs = append(secs, harness.Section{Name: fmt.Sprintf("request/%d/assembled", i+1), Body: harness.Elide(r.assembled)})
				}
			}
			return secs, err
		},
		Check: checkGateway,
	})
}

func runGatewayComponent(ctx context.Context, env *harness.Env, cfg *gatewayConfig, in *gatewayInput) (gatewayOutcome, error) {
	cc := cfg.CompressorConfig
	cc.LLM = env.LLM
	cc.API.Post = proxy.Poster(nil)
	c, err := gateway.NewCompressor(cc)
	if err != nil {
		return gatewayOutcome{}, err
	}
	so := cfg.StoreOptions
	so.Sources = env.Sources
	store := memstore.New(so)
	wire, _ := wires.For(cfg.Provider)
	pc := cfg.Config
	pc.Provider, pc.MaxConcurrent, pc.MaxResults, pc.MaxWorkBytes = wire.Name(), 1, cfg.MaxResults, cfg.MaxWorkBytes
	pipe, err := gateway.NewPipe(gateway.Options{Config: pc,
		Compressor: c, Store: store, Sources: env.Sources})
	if err != nil {
		return gatewayOutcome{}, err
	}
	g := &gateway.Gateway{Pipe: pipe, Wire: wire, Expand: cfg.EnableExpandContext, Logf: env.Logf, KeepForwarded: true}
	upstream := scriptedUpstream(env, llmwire.Wire(wire.Name()))
	var out gatewayOutcome
	for _, r := range in.Requests {
		env.Clock.Advance(r.Advance)
		body := []byte(r.Body.Value)
		if r.Forward && asksStream(wire, body) {
			out.Requests = append(out.Requests, runGatewayStream(env, g, body, cfg.UpstreamTimeout))
			continue
		}
		out.Requests = append(out.Requests, runGatewayRequest(ctx, g, upstream, body, r.Forward))
	}
	out.Metrics = pipe.Metrics()
	return out, nil
}

// scriptedUpstream is the model behind the gateway: each round's body,
// decoded as the wire's provider would, answered by the scripted LLM.
func scriptedUpstream(env *harness.Env, wire llmwire.Wire) gateway.Upstream {
	return func(ctx context.Context, round int, body []byte) ([]byte, error) {
		req, _, err := wire.Decode(body, core.Tag{Site: core.SiteGatewayUpstream, Turn: round})
		if err != nil {
			return nil, err
		}
		resp, err := env.LLM.Complete(ctx, req)
		if err != nil {
			return nil, err
		}
		return wire.JSON(resp, wire.ID(round)), nil
	}
}

// runGatewayRequest sends one client request through the gateway: Handle
// (forwarded to the scripted upstream, expand rounds included) or, when
// forward is false, Prepare only.
func runGatewayRequest(ctx context.Context, g *gateway.Gateway, upstream gateway.Upstream, body []byte, forward bool) gatewayRequestOutcome {
	var ro gatewayRequestOutcome
	var res []gateway.Result
	if forward {
		o, err := g.Handle(ctx, body, upstream)
		res, ro.Rounds, ro.Expansions, ro.Capped = o.Results, o.Rounds, o.Expansions, o.Capped
		if len(o.Forwarded) > 0 {
			ro.forwarded = string(o.Forwarded[0])
		}
		for _, f := range o.Forwarded {
			ro.allRounds = append(ro.allRounds, string(f))
		}
		ro.response = string(o.Response)
		if err != nil {
			ro.Error = err.Error()
		}
	} else {
		var prep gateway.Prepared
		c, err := g.Wire.Read(body)
		if err == nil {
			prep, err = g.Prepare(ctx, c)
		}
		res, ro.forwarded = prep.Results, string(prep.Body)
		ro.allRounds = []string{ro.forwarded}
		if err != nil {
			ro.Error = err.Error()
		}
	}
	ro.Results = []gatewayResultJSON{}
	for _, x := range res {
		ro.Results = append(ro.Results, gatewayResultJSON{proxy.ResultOf(x), x.Saved})
	}
	if ro.Expansions == nil {
		ro.Expansions = []gateway.Expansion{}
	}
	return ro
}

func checkGateway(exp *gatewayExpect, got gatewayOutcome) []harness.Mismatch {
	var out []harness.Mismatch
	for i, e := range exp.Requests {
		f := fmt.Sprintf("requests.%d", i)
		if i >= len(got.Requests) {
			out = append(out, harness.Mismatch{Field: f, Msg: fmt.Sprintf("no such request: the run sent %d", len(got.Requests))})
			continue
		}
		g := got.Requests[i]
		switch {
		case e.Error == nil && g.Error != "":
			out = append(out, harness.Mismatch{Field: f, Msg: "the request failed: " + g.Error})
		case e.Error != nil && !strings.Contains(g.Error, *e.Error):
			out = append(out, harness.Mismatch{Field: f + ".error", Msg: fmt.Sprintf("got %s, want it to contain %q", harness.Show(g.Error), *e.Error)})
		}
		var actions, reasons, expansions []string
		for _, r := range g.Results {
			actions, reasons = append(actions, r.Action), append(reasons, r.Reason)
		}
		for _, x := range g.Expansions {
			expansions = append(expansions, x.Answer)
		}
		if g.Stream != nil {
			expansions, actions = g.Stream.Expansions, g.actions
		}
		if e.Actions != nil && !slices.Equal(e.Actions, actions) {
			out = append(out, harness.Mismatch{Field: f + ".actions", Msg: fmt.Sprintf("got %v, want %v", actions, e.Actions)})
		}
		for j, sub := range e.Reasons {
			if j >= len(reasons) || !strings.Contains(reasons[j], sub) {
				out = append(out, harness.Mismatch{Field: f + ".reasons", Msg: fmt.Sprintf("output %d: want a reason that contains %q; %s", j, sub, harness.Found("reasons", reasons))})
			}
		}
		out = append(out, want(f+".rounds", e.Rounds, g.Rounds)...)
		out = append(out, want(f+".capped", e.Capped, g.Capped)...)
		if e.Expansions != nil && !slices.Equal(e.Expansions, expansions) {
			out = append(out, harness.Mismatch{Field: f + ".expansions", Msg: fmt.Sprintf("got %v, want %v", expansions, e.Expansions)})
		}
		for _, sub := range e.ForwardedContains {
			if !strings.Contains(g.forwarded, sub) {
				out = append(out, harness.Mismatch{Field: f + ".forwarded_contains", Msg: fmt.Sprintf("the forwarded body does not contain %q; it is %s", sub, harness.Show(g.forwarded))})
			}
		}
		for _, sub := range e.ForwardedLacks {
			for round, body := range g.allRounds {
				if strings.Contains(body, sub) {
					out = append(out, harness.Mismatch{Field: f + ".forwarded_lacks", Msg: fmt.Sprintf("the body forwarded in round %d contains %q %s", round+1, sub, harness.ShowIndex(body, sub))})
				}
			}
		}
		for _, sub := range e.ResponseContains {
			if !strings.Contains(g.response, sub) {
				out = append(out, harness.Mismatch{Field: f + ".response_contains", Msg: fmt.Sprintf("the response does not contain %q; it is %s", sub, harness.Show(g.response))})
			}
		}
		for _, sub := range e.AssembledContains {
			if !strings.Contains(g.assembled, sub) {
				out = append(out, harness.Mismatch{Field: f + ".assembled_contains", Msg: fmt.Sprintf("the assembled message does not contain %q; it is %s", sub, harness.Show(g.assembled))})
			}
		}
		for _, sub := range e.ResponseLacks {
			if strings.Contains(g.response, sub) {
				out = append(out, harness.Mismatch{Field: f + ".response_lacks", Msg: fmt.Sprintf("the response contains %q %s", sub, harness.ShowIndex(g.response, sub))})
			}
		}
	}
	m := exp.Metrics
	out = append(out, want("metrics.cache_hits", m.CacheHits, got.Metrics.CacheHits)...)
	out = append(out, want("metrics.cache_misses", m.CacheMisses, got.Metrics.CacheMisses)...)
	out = append(out, want("metrics.compressions_ok", m.CompressionsOK, got.Metrics.CompressionsOK)...)
	out = append(out, want("metrics.compressions_failed", m.CompressionsFailed, got.Metrics.CompressionsFailed)...)
	return out
}
