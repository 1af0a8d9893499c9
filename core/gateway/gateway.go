package gateway

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/core/jsonspan"
)

// MaxExpandRounds caps the expand_context loop (spec: max 5 loops).
const MaxExpandRounds = 5

// Upstream sends a request body to the model and returns its response body.
// round counts the forwards of one client request from 1.
type Upstream func(ctx context.Context, round int, body []byte) ([]byte, error)

// Gateway applies the pipe to requests and runs the expand_context loop.
// It is safe for concurrent use.
type Gateway struct {
	Pipe *Pipe
	// Wire reads and edits the bodies of one provider's API.
	Wire Wire
	// Expand enables the phantom expand_context tool.
	Expand bool
	// MaxRounds caps expansion rounds; zero means MaxExpandRounds.
	MaxRounds int
	// Logf receives one line per decision.
	Logf func(format string, args ...any)
	// KeepForwarded keeps every round's forwarded body in
	// Outcome.Forwarded (transcripts, tests). Off, only the last round's is
	// kept, so a request holds one body per round in flight, not all.
	KeepForwarded bool
}

// Expansion is one answered expand_context call.
type Expansion struct {
	Round    int    `json:"round"`
	CallID   string `json:"call_id"`
	ShadowID string `json:"shadow_id"`
	// Answer is one of the Answer* constants.
	Answer string `json:"answer"`
}

// Outcome is what the gateway did with one client request.
type Outcome struct {
	Results    []Result    `json:"results"`
	Forwarded  [][]byte    `json:"-"`
	Response   []byte      `json:"-"`
	Rounds     int         `json:"rounds"`
	Expansions []Expansion `json:"expansions"`
	// Capped is true when the loop stopped at MaxRounds with phantom calls
	// still pending (they are stripped from the response).
	Capped bool `json:"capped"`
}

func (g *Gateway) logf(format string, args ...any) {
	if g.Logf != nil {
		g.Logf(format, args...)
	}
}

// Prepared is a request the pipe has been through: the body to forward
// (the request's own bytes when nothing changed, else a new buffer made by
// one splice over its parse) and what the pipe did with each of its tool
// outputs. [Gateway.Forward] sends it upstream.
type Prepared struct {
	Body    []byte
	Results []Result
}

// Prepare compresses the tool outputs of a request read once (the wire's
// Read) and, when the request then carries a marker the gateway issued and
// expansion is on, offers the phantom tool. On an error (a fail-closed
// compressor, a store), Results holds what the pipe did before it.
func (g *Gateway) Prepare(ctx context.Context, c *Conversation) (Prepared, error) {
	if len(c.Outputs) == 0 {
		return Prepared{Body: c.Body}, nil
	}
	results, err := g.Pipe.Process(ctx, c.Outputs, c.Query)
	if err != nil {
		return Prepared{Results: results}, err
	}
	compressed, issued := 0, 0
	for _, r := range results {
		g.logf("gateway: output %d (%s): %s: %s", r.Index, r.Tool, r.Action, r.Reason)
		if r.Action == ActionCompressed {
			compressed++
		}
		if r.ShadowID != "" {
			issued++
		}
	}
	expand := g.Expand && issued > 0
	if compressed == 0 && !expand {
		return Prepared{Body: c.Body, Results: results}, nil
	}
	body, err := c.Rewrite(results, expand)
	return Prepared{Body: body, Results: results}, err
}

// issuedIDs is the set of shadow ids the gateway issued into a
// conversation: those of the request's tool results it compressed now, or
// earlier (a marker whose compressed text the store holds).
func issuedIDs(results []Result) map[string]bool {
	ids := map[string]bool{}
	for _, r := range results {
		if r.ShadowID != "" {
			ids[r.ShadowID] = true
		}
	}
	return ids
}

// Handle runs one client request body: the wire's Read, [Gateway.Prepare]
// and [Gateway.Forward].
func (g *Gateway) Handle(ctx context.Context, body []byte, up Upstream) (Outcome, error) {
	c, err := g.Wire.Read(body)
	if err != nil {
		return Outcome{}, err
	}
	p, err := g.Prepare(ctx, c)
	if err != nil {
		return Outcome{Results: p.Results}, err
	}
	return g.Forward(ctx, p, up)
}

// Forward sends a prepared request upstream and answers the model's
// expand_context calls from the store (deduplicated per request) until it
// stops calling it or MaxRounds expansions were made. Phantom calls never
// reach the client: the response is stripped of them. When a response
// mixes phantom and real calls, only the phantom ones are answered and the
// request is forwarded again; the model then repeats its real calls. When
// it forwarded more than once, the final response's usage is the sum over
// every round (input, output, cached: every integer of its usage object).
// When the loop stops at MaxRounds with phantom calls pending, they are
// stripped; if that leaves no text and no real call, the error is
// ErrCapped rather than an empty answer.
func (g *Gateway) Forward(ctx context.Context, p Prepared, up Upstream) (Outcome, error) {
	body, results := p.Body, p.Results
	out := Outcome{Results: results}
	maxRounds := g.MaxRounds
	if maxRounds <= 0 {
		maxRounds = MaxExpandRounds
	}
	seen, issued := map[string]bool{}, issuedIDs(results)
	saved := map[string]int{}   // bytes each output compressed now saved
	held := map[string]string{} // the originals compressed now, by id
	for _, r := range results {
		if r.Action == ActionCompressed {
			saved[r.ShadowID], held[r.ShadowID] = r.Saved, r.Original
		}
	}
	usage := &usageSum{}
	for round := 1; ; round++ {
		out.Rounds = round
		if g.KeepForwarded || len(out.Forwarded) == 0 {
			out.Forwarded = append(out.Forwarded, body)
		} else {
			out.Forwarded[0] = body
		}
		resp, err := up(ctx, round, body)
		if err != nil {
			return out, fmt.Errorf("gateway: round %d: %w", round, err)
		}
		out.Response = resp
		usage.add(resp)
		if !g.Expand {
			return out, nil
		}
		calls, err := g.phantomCalls(resp)
		if err != nil {
			return out, fmt.Errorf("%w: round %d: response: %w", ErrUpstream, round, err)
		}
		if len(calls) == 0 {
			out.Response = g.summed(out, g.scrubbed(out), usage)
			return out, nil
		}
		if round > maxRounds {
			return g.capped(out, usage, resp, maxRounds, len(calls))
		}
		answers := make([]string, len(calls))
		for i, c := range calls {
			e := Expansion{Round: round, CallID: c.ID, ShadowID: c.ShadowID}
			e.Answer, answers[i] = g.answer(ctx, c.ShadowID, issued, seen, held)
			g.logf("gateway: round %d: expand_context %s: %s", round, c.ShadowID, e.Answer)
			if e.Answer == AnswerOriginal {
				g.Pipe.Unsave(saved[c.ShadowID]) // the saving this request counted is undone
			}
			out.Expansions = append(out.Expansions, e)
		}
		if body, err = g.Wire.AppendExpansions(body, resp, calls, answers); err != nil {
			return out, err
		}
	}
}

// phantomCalls is the wire's PhantomCalls of resp, without the parse when
// resp is a JSON object that cannot name the phantom tool: the name is
// nowhere in its bytes, not even spelled with \u escapes. A response the
// wire could not read still gets the wire's error.
func (g *Gateway) phantomCalls(resp []byte) ([]PhantomCall, error) {
	i := jsonlex.Space(resp, 0)
	if i < len(resp) && resp[i] == '{' && !bytes.Contains(resp, []byte(ExpandToolName)) &&
		!bytes.Contains(resp, []byte(`\u`)) && jsonspan.Valid(resp) {
		return nil, nil
	}
	return g.Wire.PhantomCalls(resp)
}

// summed is the final response resp with the usage of every round when
// there were several.
func (g *Gateway) summed(out Outcome, resp []byte, usage *usageSum) []byte {
	if out.Rounds == 1 {
		return resp
	}
	return usage.apply(resp)
}

// scrubbed is the final response without a trace of the phantom tool: a
// response that names it went through the wire's StripPhantom (the
// Responses API echoes the request's tools, expand_context among them,
// in its response object).
func (g *Gateway) scrubbed(out Outcome) []byte {
	if !g.Expand || !bytes.Contains(out.Response, []byte(ExpandToolName)) {
		return out.Response
	}
	if stripped, err := g.Wire.StripPhantom(out.Response); err == nil {
		return stripped
	}
	return out.Response
}

// capped ends a loop stopped at the cap: the response without its phantom
// calls and with the summed usage, or ErrCapped when nothing is left of it.
func (g *Gateway) capped(out Outcome, usage *usageSum, resp []byte, maxRounds, pending int) (Outcome, error) {
	out.Capped = true
	g.logf("gateway: expand loop capped at %d rounds; %d phantom call(s) dropped", maxRounds, pending)
	stripped, err := g.Wire.StripPhantom(resp)
	if err != nil {
		return out, err
	}
	out.Response = stripped
	if !hasAnswer(stripped) {
		return out, fmt.Errorf("gateway: %w (%d expansion rounds, %d forwards)", ErrCapped, maxRounds, out.Rounds)
	}
	out.Response = g.summed(out, out.Response, usage)
	return out, nil
}

// answer looks up one expand_context call. An id the gateway did not issue
// into this conversation gets [ExpandNotAvailable] without touching the
// store, so a model (or a prompt injection) cannot read another client's
// originals by naming their ids. An original this request compressed is
// answered from held, the request's own bytes (its caller's, by
// definition): a store (an evicting Redis) may have dropped it since. Any
// other issued id is looked up under the request's caller ([CallerOf]): a
// marker and compressed text sent back by another caller (the provider and
// its logs hold both) find no original, and get [ExpandMissing], as an
// expired id does.
func (g *Gateway) answer(ctx context.Context, id string, issued, seen map[string]bool, held map[string]string) (answer, text string) {
	switch {
	case !issued[id]:
		return AnswerNotAvailable, ExpandNotAvailable(id)
	case seen[id]:
		return AnswerRepeated, ExpandRepeated(id)
	}
	orig, ok := held[id]
	var err error
	if !ok {
		orig, ok, err = g.Pipe.Store().Original(ctx, CallerOf(ctx), id)
	}
	if err != nil {
		g.logf("gateway: expand_context %s: store: %v", id, err)
	}
	if !ok {
		return AnswerMissing, ExpandMissing(id)
	}
	seen[id] = true
	return AnswerOriginal, orig
}

// ErrUpstream wraps an upstream failure with its HTTP status.
var ErrUpstream = errors.New("upstream error")
