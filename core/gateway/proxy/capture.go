package proxy

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/toolout/toolout/core/gateway"
)

// Capturer keeps what passed through the gateway (the gateway config's
// capture: harness/record's Capture writes it as traces toolout import
// reads). Capture is called on the request's goroutine once its answer
// is written whole: it must not block (a capture is written off the
// request path) and may keep x.
type Capturer interface {
	Capture(x Exchange)
}

// Exchange is one request the gateway handled and answered whole (outcome
// ok): what the client sent, what went upstream first, what the client
// got, and what happened between.
type Exchange struct {
	Wire   string // the route's wire: openai, anthropic, responses
	Caller string // the caller's hash (Proxy.Identity)
	// Request is the client's body as sent; Forwarded the first body sent
	// upstream (its tool outputs compressed); Answer the bytes the client
	// got (a JSON body, or an event stream's text when Stream).
	Request, Forwarded, Answer []byte
	Stream                     bool
	// Results are what the gateway did with each tool output of the
	// request (its own copies: no original text).
	Results []CapturedResult
	// Rounds and Expansions are the request's expand_context rounds,
	// streamed or not; Capped is set when the loop stopped at its cap.
	Rounds     int
	Expansions []gateway.Expansion
	Capped     bool
}

// CapturedResult is what the gateway did with one tool output: a
// gateway.Result without the texts.
type CapturedResult struct {
	Index    int    `json:"index"`
	Tool     string `json:"tool"`
	Action   string `json:"action"`
	Reason   string `json:"reason"`
	ShadowID string `json:"shadow_id,omitempty"`
	Bytes    int    `json:"bytes"`
}

// MaxCaptureBytes is the longest answer an Exchange holds: a longer one
// is not captured.
const MaxCaptureBytes = 16 << 20

// ResultOf is r without its texts, its strings copied (they may be read
// from a request's body, which is lent back to a pool).
func ResultOf(r gateway.Result) CapturedResult {
	return CapturedResult{r.Index, strings.Clone(r.Tool), r.Action, strings.Clone(r.Reason), strings.Clone(r.ShadowID), r.Bytes}
}

// capture gathers one request's Exchange; nil (no Capturer) does nothing.
type capture struct {
	to Capturer
	cw *clientWriter
	x  Exchange
}

// capturing starts an Exchange of the request on w, when p captures: w's
// client writer keeps the answer.
func (p *Proxy) capturing(w http.ResponseWriter, r *http.Request, route Route) *capture {
	cw := asClient(w)
	if p.Capture == nil || cw == nil {
		return nil
	}
	cw.keepMax = MaxCaptureBytes
	return &capture{to: p.Capture, cw: cw, x: Exchange{Wire: route.Gateway.Wire.Name(), Caller: gateway.CallerOf(r.Context())}}
}

// request keeps the client's body, the first forward and what the pipe
// did with each output (copies: the body is lent back to a pool, and a
// result's strings may be read from it).
func (c *capture) request(conv *gateway.Conversation, prep gateway.Prepared) {
	if c == nil {
		return
	}
	c.x.Request, c.x.Forwarded, c.x.Stream = bytes.Clone(conv.Body), bytes.Clone(prep.Body), conv.Stream
	c.x.Results = make([]CapturedResult, len(prep.Results))
	for i, r := range prep.Results {
		c.x.Results[i] = ResultOf(r)
	}
	c.x.Rounds = 1 // a stream with no expand_context call makes one round
}

// handled keeps what the gateway's expand_context loop did.
func (c *capture) handled(out gateway.Outcome) {
	if c != nil {
		c.x.Rounds, c.x.Expansions, c.x.Capped = out.Rounds, out.Expansions, out.Capped
	}
}

// done hands the Exchange over when the request's outcome is ok and its
// answer was kept whole.
func (c *capture) done(outcome string) {
	if c == nil || outcome != OutcomeOK || c.cw.overKept || c.cw.cut || c.x.Request == nil {
		return
	}
	c.x.Answer = c.cw.kept
	c.to.Capture(c.x)
}
