package components

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/fakes/llmwire"
	"github.com/toolout/toolout/harness"
)

// A forwarded request whose body asks to stream goes through the gateway's
// HTTP proxy (core/proxy.Proxy: its one streamed path, streamRoute),
// in process: the client is an httptest recorder, and the upstream a
// RoundTripper that answers each round from the scripted LLM. A round that
// asks to stream is answered as server-sent events of the request's wire,
// one delta event per chunk of the step's respond.stream (fakes.Stream),
// with its error_after, disconnect_after and mid_event faults, and its
// delays, which move the scenario's clock (the proxy's upstream timeout,
// config.upstream_timeout, is armed on that clock: a delay past it ends the
// upstream read as a real timeout would); any other round with the whole
// JSON body. The answers are fakes/llmwire's, as toolout serve sends them.
// The transcript's upstream sections are the model's streams as scripted
// (the gateway may stop reading earlier), each wait marked "[delay D]". The request's outcome then holds what the client
// saw: the response is the client's stream, the error what an SDK reading
// it would report (an error status, a connection the proxy aborted, or a
// stream its wire cannot assemble: cut, or ended by an error event),
// rounds the rounds header (a trailer on a stream, which an aborted
// connection never delivers), and stream the HTTP status, the proxy's
// outcome, whether it aborted the connection, and the expansions'
// answers. The per-output decisions are in the log, and checked by
// expect's actions (the proxy hands them to its Capturer), not in the
// outcome's results, which stay empty for a stream.

// gatewayStreamJSON is what a streamed request's client and the proxy saw.
type gatewayStreamJSON struct {
	Status     int      `json:"status"`
	Outcome    string   `json:"outcome"`
	Expansions []string `json:"expansions"`
	// Aborted: the proxy dropped the connection without ending the
	// response (a stream cut after part of it was sent).
	Aborted bool `json:"aborted,omitempty"`
}

// asksStream reports whether a client body asks for a stream.
func asksStream(wire gateway.Wire, body []byte) bool {
	c, err := wire.Read(body)
	return err == nil && c.Stream
}

// streamObserver records the proxy's outcome and expansions.
type streamObserver struct {
	proxy.NopObserver
	outcome    string
	expansions []string
}

func (o *streamObserver) Request(_, outcome string) { o.outcome = outcome }
func (o *streamObserver) Expansion(answer string)   { o.expansions = append(o.expansions, answer) }

// streamActions is a proxy.Capturer that keeps the actions of the one
// request it is given.
type streamActions struct{ actions []string }

func (c *streamActions) Capture(x proxy.Exchange) {
	c.actions = []string{}
	for _, r := range x.Results {
		c.actions = append(c.actions, r.Action)
	}
}

// runGatewayStream sends one streaming client request through the proxy.
func runGatewayStream(env *harness.Env, g *gateway.Gateway, body []byte, upstreamTimeout time.Duration) gatewayRequestOutcome {
	up := &scriptedTransport{env: env, wire: llmwire.Wire(g.Wire.Name())}
	p := proxy.New(g, &url.URL{Scheme: "http", Host: "upstream.invalid"}, &http.Client{Transport: up})
	p.Limits.UpstreamTimeout = upstreamTimeout
	obs, acts := &streamObserver{}, &streamActions{}
	p.Logf, p.Observer, p.Sources, p.Capture = env.Logf, obs, env.Sources, acts
	rec := httptest.NewRecorder()
	aborted := serve(p, rec, httptest.NewRequest(http.MethodPost, g.Wire.Path(), bytes.NewReader(body)))
	ro := gatewayRequestOutcome{Results: []gatewayResultJSON{}, Expansions: []gateway.Expansion{}, response: rec.Body.String(), actions: acts.actions}
	res := rec.Result()
	rounds := res.Header.Get(proxy.RoundsHeader)
	if rounds == "" && !aborted { // an aborted connection never delivers its trailer
		rounds = res.Trailer.Get(proxy.RoundsHeader)
	}
	ro.Rounds, _ = strconv.Atoi(rounds)
	ro.Stream = &gatewayStreamJSON{Status: rec.Code, Outcome: obs.outcome, Expansions: obs.expansions, Aborted: aborted}
	if ro.Stream.Expansions == nil {
		ro.Stream.Expansions = []string{}
	}
	for _, b := range up.bodies {
		ro.allRounds = append(ro.allRounds, string(b))
	}
	ro.upstream = up.sent
	if len(up.bodies) > 0 {
		ro.forwarded = ro.allRounds[0]
	}
	switch {
	case aborted:
		ro.Error = fmt.Sprintf("connection aborted after %d bytes of the stream", rec.Body.Len())
	case rec.Code != http.StatusOK:
		ro.Error = fmt.Sprintf("status %d: %s", rec.Code, strings.TrimSpace(rec.Body.String()))
	case strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream"):
		msg, err := g.Wire.Assemble(rec.Body.Bytes())
		if err != nil {
			ro.Error = err.Error()
		}
		ro.assembled = string(msg)
	}
	return ro
}

// serve runs the proxy's handler as net/http's server does, which recovers
// http.ErrAbortHandler and drops the connection: it reports whether the
// handler aborted (a stream cut after part of it was sent).
func serve(h http.Handler, w http.ResponseWriter, r *http.Request) (aborted bool) {
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				panic(v)
			}
			aborted = true
		}
	}()
	h.ServeHTTP(w, r)
	return false
}

// scriptedTransport is the model behind the proxy: every round's body is
// kept, decoded as the wire's provider would, and answered by the LLM in
// the wire's shape (fakes/llmwire, which toolout serve answers with too).
type scriptedTransport struct {
	env    *harness.Env
	wire   llmwire.Wire
	bodies [][]byte
	sent   []string // every round's answer as sent, for the transcript
}

func (t *scriptedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	t.bodies = append(t.bodies, body)
	round, _ := strconv.Atoi(r.Header.Get(proxy.RoundHeader))
	req, stream, err := t.wire.Decode(body, core.Tag{Site: core.SiteGatewayUpstream, Turn: round})
	if err != nil {
		return t.wire.BadRequest(err).Response(r.Context(), nil), nil
	}
	s, err := t.env.LLM.CompleteStream(r.Context(), req)
	if err != nil {
		return t.wire.Error(err).Response(r.Context(), nil), nil
	}
	a, err := t.wire.Reply(s, t.wire.ID(round), stream)
	if err != nil {
		return nil, err
	}
	if a.Stream() {
		t.sent = append(t.sent, sentWithDelays(a))
	}
	return a.Response(r.Context(), t.wait), nil
}

// wait is a stream's delay on the scenario's clock: the clock moves on by
// d, which fires the gateway's upstream timeout when d reaches it (the
// proxy arms it on the same clock, Sources.WithTimeout); the read then
// fails as a real one would, with the context's error.
func (t *scriptedTransport) wait(ctx context.Context, d time.Duration) error {
	t.env.Clock.Advance(d)
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

// sentWithDelays is a stream as the transcript shows it: its bytes, with a
// "[delay D]" line before each event the model waited for (the line is
// the transcript's; it is not sent).
func sentWithDelays(a llmwire.Answer) string {
	var b strings.Builder
	sent := a.Bytes()
	for _, ev := range a.Events {
		if ev.Delay > 0 {
			fmt.Fprintf(&b, "[delay %v]\n", ev.Delay)
		}
		n := min(len(ev.Bytes()), len(sent))
		b.Write(sent[:n])
		sent = sent[n:]
	}
	return b.String()
}
