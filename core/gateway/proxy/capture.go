package proxy

import (
	"bytes"
	"net/http"

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
	// Rounds and Expansions are the expand_context rounds of a request
	// not streamed (a stream's are not known here: 0 and none).
	Rounds     int
	Expansions []gateway.Expansion
}

// MaxCaptureBytes is the longest answer an Exchange holds: a longer one
// is not captured.
const MaxCaptureBytes = 16 << 20

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

// request keeps the client's body and the first forward (copies: the
// body is lent back to a pool).
func (c *capture) request(conv *gateway.Conversation, prep gateway.Prepared) {
	if c != nil {
		c.x.Request, c.x.Forwarded, c.x.Stream = bytes.Clone(conv.Body), bytes.Clone(prep.Body), conv.Stream
	}
}

// handled keeps what the gateway did with a request not streamed.
func (c *capture) handled(out gateway.Outcome) {
	if c != nil {
		c.x.Rounds, c.x.Expansions = out.Rounds, out.Expansions
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
