package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
)

// RoundHeader tells the upstream which forward of a client request this is
// (1, then 2… after expansions).
const RoundHeader = "X-Toolout-Gateway-Round"

// RoundsHeader tells the client how many times the gateway forwarded its
// request (1 without expansions), on every answer of a route.
const RoundsHeader = "X-Toolout-Gateway-Rounds"

// Paths the proxy serves itself.
const (
	HealthPath  = "/healthz"
	MetricsPath = "/metrics"
)

// Route is one wire format the proxy transforms: POSTs to the path of
// Gateway.Wire run through Gateway and are forwarded to Upstream with the
// same path.
type Route struct {
	Gateway  *gateway.Gateway
	Upstream *url.URL

	passthrough *httputil.ReverseProxy // other paths under the route's path
}

// Proxy is an HTTP handler in front of model servers: it applies a gateway
// to the POSTs of each Route (streaming or not), answers GET /healthz (and
// GET /metrics when Metrics is set), and forwards every other request
// unchanged to the default upstream. Every request is bounded by Limits.
type Proxy struct {
	// Client defaults to http.DefaultClient. Without a Timeout or a Jar,
	// its Transport makes the round trips (redirects are never followed).
	Client *http.Client
	// Logf receives one line per request.
	Logf func(format string, args ...any)
	// Limits bound each request; New sets the defaults.
	Limits Limits
	// Observer receives the events (default: none).
	Observer Observer
	// Metrics, when set, serves GET /metrics.
	Metrics http.Handler
	// Sources supplies the clock of the upstream latency, and arms the
	// upstream timeout (Sources.WithTimeout: the wall clock by default, so
	// that a scripted clock can drive a stream past it).
	Sources core.Sources
	// Identity tells callers apart: each route request runs under the
	// caller it gives ([WithCaller]), which scopes the originals it stores
	// and expands. The zero Identity scopes by API key.
	Identity gateway.Identity
	// OverheadClock times each request's [OverheadHeader] (nil: time.Now).
	// It is apart from Sources, whose scripted clock steps on each read in
	// scenarios: timing a request must not move it.
	OverheadClock func() time.Time
	// Capture, when set, gets each request handled and answered whole
	// (the gateway config's capture).
	Capture Capturer

	routes       map[string]Route
	passthrough  *httputil.ReverseProxy
	wire         gateway.Wire // the default route's: the error shape of other paths
	inflightOnce sync.Once
	inflight     chan struct{}
	knownOnce    sync.Once
	known        *knownStrings                    // long strings of recent bodies (knownFor)
	keyed        atomic.Pointer[gateway.Identity] // Identity.Keyed, for caller
}

// caller is p.Identity's caller of a request with header h, its hash
// started from the proxy's keyed copy of the Identity (keyed anew should
// the Identity change).
func (p *Proxy) caller(h http.Header) string {
	k := p.keyed.Load()
	if k == nil || k.Header != p.Identity.Header || k.Salt != p.Identity.Salt {
		id := p.Identity.Keyed()
		k = &id
		p.keyed.Store(k)
	}
	return k.Caller(h)
}

// New returns a Proxy with the route of g in front of upstream, which
// is also where other paths go; add routes with [Proxy.Handle] and set
// Limits, Observer and Metrics before serving. upstream is normalized
// ([NormalizeUpstream]): http://host/v1 and http://host are the same.
func New(g *gateway.Gateway, upstream *url.URL, client *http.Client) *Proxy {
	if client == nil {
		client = http.DefaultClient
	}
	p := &Proxy{Client: client, Limits: Limits{}.WithDefaults(), Observer: NopObserver{}, routes: map[string]Route{}}
	p.passthrough, p.wire = p.reverseProxy(NormalizeUpstream(upstream, g.Wire.Path()), g.Wire), g.Wire
	p.Handle(g, upstream)
	return p
}

// Handle adds (or replaces) the route of g's wire path, forwarding to
// upstream, normalized ([NormalizeUpstream]). Call it before serving.
func (p *Proxy) Handle(g *gateway.Gateway, upstream *url.URL) {
	upstream = NormalizeUpstream(upstream, g.Wire.Path())
	p.routes[g.Wire.Path()] = Route{Gateway: g, Upstream: upstream, passthrough: p.reverseProxy(upstream, g.Wire)}
}

// NormalizeUpstream returns the base URL the proxy joins request paths to:
// u without trailing slashes and, when wirePath starts with "/v1/",
// without trailing "/v1" segments, so that the SDKs' base URL form
// (http://host/v1) and the server's root (http://host) both send POST
// /v1/chat/completions to http://host/v1/chat/completions, never to
// /v1/v1/…. Anything else (a path prefix, the query) is kept; u is not
// modified. It is idempotent.
func NormalizeUpstream(u *url.URL, wirePath string) *url.URL {
	v1 := strings.HasPrefix(wirePath, "/v1/")
	trim := func(path string) string {
		for {
			path = strings.TrimRight(path, "/")
			if !v1 || !strings.HasSuffix(path, "/v1") {
				return path
			}
			path = strings.TrimSuffix(path, "/v1")
		}
	}
	n := *u
	n.Path, n.RawPath = trim(n.Path), trim(n.RawPath)
	return &n
}

// logBodyBytes is how much of an upstream error body a log line shows.
const logBodyBytes = 200

// logLine is the start of a body as one printable line: invalid UTF-8
// dropped, control characters and runs of spaces made one space.
func logLine(b []byte) string {
	s := strings.ToValidUTF8(string(b[:min(len(b), logBodyBytes)]), "")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// upstreamStatus is a non-200 upstream answer, relayed to the client as is.
type upstreamStatus struct {
	code   int
	header http.Header
	body   []byte
	url    string // the upstream URL called, redacted, for the log
}

func (e *upstreamStatus) Error() string {
	return fmt.Sprintf("%v: %d %s", gateway.ErrUpstream, e.code, strings.TrimSpace(string(e.body[:min(len(e.body), 200)])))
}

func (e *upstreamStatus) Unwrap() error { return gateway.ErrUpstream }

// hop-by-hop and recomputed headers, not copied between client and upstream.
var skipHeaders = map[string]bool{"Connection": true, "Keep-Alive": true, "Proxy-Connection": true, "Te": true, "Trailer": true,
	"Transfer-Encoding": true, "Upgrade": true, "Content-Length": true, "Accept-Encoding": true}

func copyHeaders(dst, src http.Header) {
	for k, vs := range src {
		if !skipHeaders[http.CanonicalHeaderKey(k)] {
			dst[k] = append([]string(nil), vs...)
		}
	}
}

func (p *Proxy) logf(format string, args ...any) {
	if p.Logf != nil {
		p.Logf(format, args...)
	}
}

// ServeHTTP handles one client request. A stream cut after part of it was
// sent is aborted with panic(http.ErrAbortHandler), once the request is
// counted: net/http's server then drops the connection without logging.
// A recovering middleware in front of the proxy must let that value
// through (re-panic it), as net/http expects of handlers.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	cw := newClientWriter(w, p.Limits.WithDefaults().ClientWriteTimeout)
	cw.overhead, r = p.startOverhead(r)
	route, isRoute := p.routes[r.URL.Path]
	switch {
	case r.Method == http.MethodGet && r.URL.Path == HealthPath:
		cw.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(cw, "ok\n")
	case r.Method == http.MethodGet && r.URL.Path == MetricsPath && p.Metrics != nil:
		p.Metrics.ServeHTTP(cw, r)
	case r.Method == http.MethodPost && isRoute:
		r = r.WithContext(gateway.WithCaller(r.Context(), p.caller(r.Header)))
		defer p.observeOverhead(route.Gateway.Wire.Name(), cw.overhead) // a cut stream too
		outcome := p.serveRoute(cw, r, route)
		p.observer().Request(route.Gateway.Wire.Name(), outcome)
		if cw.cut {
			// As httputil.ReverseProxy does for a body cut mid-copy: the
			// connection is dropped without ending the response, so the
			// client's SDK reports a transport error instead of taking the
			// stream so far for the whole answer.
			panic(http.ErrAbortHandler)
		}
	default:
		defer p.observeOverhead("passthrough", cw.overhead) // an aborted relay too
		p.servePassthrough(cw, r)
	}
}

func (p *Proxy) observer() Observer {
	if p.Observer == nil {
		return NopObserver{}
	}
	return p.Observer
}

// refuse answers a request the gateway will not handle, with a one-line
// reason in the API's own error shape (so SDKs raise their usual error),
// and returns the outcome to count.
func (p *Proxy) refuse(w http.ResponseWriter, wire gateway.Wire, code int, outcome, limit, msg string) string {
	if limit != "" {
		p.observer().Limited(limit)
	}
	if code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	writeError(w, wire, code, msg)
	return outcome
}

// writeError writes "toolout gateway: msg" as the wire's error body.
func writeError(w http.ResponseWriter, wire gateway.Wire, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write(wire.ErrorBody(code, "toolout gateway: "+msg))
}

// serveRoute runs one request of a route through its gateway and returns
// its outcome.
func (p *Proxy) serveRoute(w http.ResponseWriter, r *http.Request, route Route) (outcome string) {
	c := p.capturing(w, r, route)
	defer func() { c.done(outcome) }()
	release, overloaded := p.acquire(w, route.Gateway.Wire)
	if overloaded != "" {
		return overloaded
	}
	defer release()
	conv, lent, refused := p.readBody(w, r, route.Gateway.Wire)
	if refused != nil {
		return refused()
	}
	defer func() {
		if lent {
			giveBackBody(conv.Body)
		}
	}()
	g := route.Gateway
	if conv.HiddenHistory != "" {
		p.logf("gateway: %s: %s: the provider holds history the gateway cannot see; only the %d tool output(s) the request carries can be compressed",
			r.URL.Path, conv.HiddenHistory, len(conv.Outputs))
		if h, ok := p.observer().(HistoryObserver); ok {
			h.HiddenHistory(g.Wire.Name(), conv.HiddenHistory)
		}
	}
	prep, err := g.Prepare(r.Context(), conv)
	if err != nil {
		return p.fail(w, r, g.Wire, err)
	}
	c.request(conv, prep)
	if len(prep.Body) > 0 && len(conv.Body) > 0 && &prep.Body[0] == &conv.Body[0] {
		lent = false // the client's own bytes go upstream: the transport may read them after the answer
	}
	if conv.Stream {
		return p.streamRoute(w, r, route, prep, c)
	}
	var lastHeader http.Header
	up := func(ctx context.Context, round int, fwd []byte) ([]byte, error) {
		resp, header, _, err := p.forward(ctx, route, r, fwd, false, round)
		lastHeader = header
		return resp, err
	}
	out, err := g.Forward(r.Context(), prep, up)
	c.handled(out)
	w.Header().Set(RoundsHeader, strconv.Itoa(out.Rounds))
	p.observe(out) // expansions and bounds count whether the request then failed or not
	if err != nil {
		return p.fail(w, r, g.Wire, err)
	}
	p.logf("gateway: %s: %d output(s), %d round(s), %d expansion(s)", r.URL.Path, len(out.Results), out.Rounds, len(out.Expansions))
	copyHeaders(w.Header(), lastHeader)
	w.Header().Set("Content-Type", "application/json")
	return p.answer(w, r, out.Response)
}

// answer writes a whole answer (or the rest of one) to the client: ok,
// or canceled when the client did not take it (it went away, or accepted
// no byte for ClientWriteTimeout).
func (p *Proxy) answer(w http.ResponseWriter, r *http.Request, b []byte) string {
	if _, err := w.Write(b); err != nil {
		p.logf("gateway: %s: the client did not take the answer: %v", r.URL.Path, err)
		return OutcomeCanceled
	}
	return OutcomeOK
}

// observe reports the expansions and the per-result bounds of a request
// (max_results, max_work_bytes, max_bytes: Result.Limit).
func (p *Proxy) observe(out gateway.Outcome) {
	for _, e := range out.Expansions {
		p.observer().Expansion(e.Answer)
	}
	for _, res := range out.Results {
		if res.Limit != "" {
			p.observer().Limited(res.Limit)
		}
	}
}

// acquire takes a request slot (MaxConcurrent: routes and passthrough
// paths alike), or refuses the request with 503 and Retry-After in wire's
// error shape and returns the outcome to count.
func (p *Proxy) acquire(w http.ResponseWriter, wire gateway.Wire) (release func(), refused string) {
	p.initInflight()
	select {
	case p.inflight <- struct{}{}:
		return func() { <-p.inflight }, ""
	default:
		return nil, p.refuse(w, wire, http.StatusServiceUnavailable, OutcomeOverloaded, LimitConcurrency,
			fmt.Sprintf("more than %d requests in flight; retry", cap(p.inflight)))
	}
}

func (p *Proxy) initInflight() {
	p.inflightOnce.Do(func() { p.inflight = make(chan struct{}, p.Limits.WithDefaults().MaxConcurrent) })
}

// fail answers a request whose handling failed: an upstream status is
// relayed as is, a timeout is 504, a client that went away gets nothing,
// anything else is 502.
func (p *Proxy) fail(w http.ResponseWriter, r *http.Request, wire gateway.Wire, err error) string {
	var us *upstreamStatus
	switch {
	case errors.As(err, &us):
		where := "upstream"
		if us.url != "" {
			where += " " + us.url
		}
		p.logf("gateway: %s: %s answered %d: %s", r.URL.Path, where, us.code, logLine(us.body))
		copyHeaders(w.Header(), us.header)
		w.WriteHeader(us.code)
		_, _ = w.Write(us.body)
		return OutcomeUpstreamError
	case errors.Is(err, gateway.ErrCapped):
		// Never an empty answer: the API's error, with why.
		p.logf("gateway: %s: %v", r.URL.Path, err)
		writeError(w, wire, http.StatusBadGateway, strings.TrimPrefix(err.Error(), "gateway: "))
		return OutcomeCapped
	case clientGone(w, r):
		p.logf("gateway: %s: client went away or stopped reading: %v", r.URL.Path, err)
		return OutcomeCanceled
	case errors.Is(err, context.DeadlineExceeded):
		p.logf("gateway: %s: %v", r.URL.Path, err)
		writeError(w, wire, http.StatusGatewayTimeout, "upstream timed out: "+err.Error())
		return OutcomeUpstreamError
	case errors.Is(err, gateway.ErrUpstream):
		p.logf("gateway: %s: %v", r.URL.Path, err)
		writeError(w, wire, http.StatusBadGateway, err.Error())
		return OutcomeUpstreamError
	}
	p.logf("gateway: %s: %v", r.URL.Path, err)
	writeError(w, wire, http.StatusBadGateway, err.Error())
	return OutcomeFailed
}

// forward posts fwd to the route's upstream, as a round of the client's
// request. For a stream it reads the whole event stream and returns the
// response it spells, with the raw stream.
func (p *Proxy) forward(ctx context.Context, route Route, client *http.Request, fwd []byte, stream bool, round int) ([]byte, http.Header, []byte, error) {
	l := p.Limits.WithDefaults()
	ctx, cancel := p.Sources.WithTimeout(ctx, l.UpstreamTimeout)
	defer cancel()
	req, err := p.upstreamRequest(ctx, route, client, fwd, round)
	if err != nil {
		return nil, nil, nil, err
	}
	name := route.Gateway.Wire.Name()
	start := p.Sources.Time()
	resp, err := p.do(req)
	if err != nil {
		p.observer().Upstream(name, 0, p.Sources.Time().Sub(start))
		return nil, nil, nil, fmt.Errorf("%w: %w", gateway.ErrUpstream, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, l.MaxResponseBytes+1))
	p.observer().Upstream(name, resp.StatusCode, p.Sources.Time().Sub(start))
	switch {
	case err != nil:
		return nil, nil, nil, fmt.Errorf("%w: reading the response: %w", gateway.ErrUpstream, err)
	case int64(len(raw)) > l.MaxResponseBytes:
		return nil, nil, nil, fmt.Errorf("%w: response larger than %d bytes", gateway.ErrUpstream, l.MaxResponseBytes)
	case resp.StatusCode != http.StatusOK:
		return nil, nil, nil, &upstreamStatus{code: resp.StatusCode, header: resp.Header, body: raw, url: req.URL.Redacted()}
	case !stream:
		return raw, resp.Header, nil, nil
	}
	assembled, err := route.Gateway.Wire.Assemble(raw)
	switch {
	case errors.Is(err, gateway.ErrUnassembled):
		return nil, resp.Header, raw, err
	case err != nil:
		return nil, nil, nil, fmt.Errorf("%w: %w", gateway.ErrUpstream, err)
	}
	return assembled, resp.Header, raw, nil
}
