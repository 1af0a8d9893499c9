package proxy

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"

	"github.com/toolout/toolout/core/gateway"
)

// reverseProxy forwards the paths the gateway does not transform to
// upstream, unchanged but for the Host header, which names the upstream
// (as a route's request does, and as a server behind a CDN or a TLS
// front expects; httputil.NewSingleHostReverseProxy alone would send the
// client's). It logs the upstream's error statuses (4xx, 5xx) with the
// start of their body (its own lines, a body cut mid-copy, go to Logf
// too, not to the standard logger), and answers a failed call itself, in
// wire's error shape as every answer the gateway writes: 504 when
// UpstreamTimeout ran out, 502 otherwise, nothing to a client that went
// away. Redirects are relayed, never followed (a Transport does not follow
// them).
func (p *Proxy) reverseProxy(upstream *url.URL, wire gateway.Wire) *httputil.ReverseProxy {
	rp := httputil.NewSingleHostReverseProxy(upstream)
	direct := rp.Director
	rp.Director = func(r *http.Request) {
		direct(r)
		r.Host = "" // the URL's host
	}
	rp.Transport = timedTransport{p.Client.Transport}                // upstream time, out of the overhead
	rp.ErrorLog = log.New(logWriter{p}, "gateway: passthrough: ", 0) // a body cut mid-copy
	rp.ModifyResponse = func(resp *http.Response) error {
		if resp.StatusCode < 400 || resp.Request == nil {
			return nil
		}
		head, _ := io.ReadAll(io.LimitReader(resp.Body, logBodyBytes))
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
		text := logLine(head)
		if enc := resp.Header.Get("Content-Encoding"); enc != "" && enc != "identity" {
			text = "(" + enc + " body)"
		}
		out := resp.Request.URL
		path := strings.TrimPrefix(out.Path, upstream.Path) // the client's path
		p.logf("gateway: %s: upstream %s answered %d: %s", path, out.Redacted(), resp.StatusCode, text)
		return nil
	}
	rp.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
		code, msg := http.StatusBadGateway, "upstream failed: "+err.Error()
		switch {
		case clientGone(w, r) && !errors.Is(r.Context().Err(), context.DeadlineExceeded):
			p.logf("gateway: %s: client went away: %v", r.URL.Path, err)
			return
		case errors.Is(err, context.DeadlineExceeded):
			code, msg = http.StatusGatewayTimeout, "upstream timed out: "+err.Error()
		}
		p.logf("gateway: %s: %s", r.URL.Path, msg)
		writeError(w, wire, code, msg)
	}
	return rp
}

// logWriter hands the reverse proxy's own log lines to Proxy.Logf.
type logWriter struct{ p *Proxy }

func (l logWriter) Write(b []byte) (int, error) {
	l.p.logf("%s", strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// passthroughFor is the reverse proxy of a path the gateway does not
// transform, with the wire of its error answers: a path under a route's
// (say /v1/messages/count_tokens) goes to that route's upstream, anything
// else to the default one.
func (p *Proxy) passthroughFor(path string) (*httputil.ReverseProxy, gateway.Wire) {
	for prefix, r := range p.routes {
		if strings.HasPrefix(path, prefix+"/") {
			return r.passthrough, r.Gateway.Wire
		}
	}
	return p.passthrough, p.wire
}

// servePassthrough relays a request the gateway does not transform, in a
// request slot (MaxConcurrent, shared with the routes; none free: 503)
// and within UpstreamTimeout (the whole answer, as for a route: an
// upstream that never answers, or stalls mid-body, cannot hold the
// request), and counts it: overloaded when refused, canceled when the client went away or stopped reading, upstream_error on
// a 4xx/5xx, a timeout or a body the upstream cut (which
// httputil.ReverseProxy aborts with http.ErrAbortHandler, re-panicked here
// once counted), failed on any other panic.
func (p *Proxy) servePassthrough(w *clientWriter, r *http.Request) {
	rp, wire := p.passthroughFor(r.URL.Path)
	release, refused := p.acquire(w, wire)
	if refused != "" {
		p.observer().Request("passthrough", refused)
		return
	}
	defer release()
	sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
	ctx, cancel := p.Sources.WithTimeout(r.Context(), p.Limits.WithDefaults().UpstreamTimeout)
	defer cancel()
	defer func() {
		v := recover()
		outcome := OutcomeOK
		switch {
		case clientGone(w, r): // r: the client's own context, not the timeout's
			outcome = OutcomeCanceled
		case v != nil && v != http.ErrAbortHandler: //nolint:errorlint // the sentinel is panicked as is
			outcome = OutcomeFailed
		case v != nil || sw.code >= 400:
			outcome = OutcomeUpstreamError // logged by the reverse proxy
		}
		p.observer().Request("passthrough", outcome)
		if v != nil {
			panic(v)
		}
	}()
	rp.ServeHTTP(sw, r.WithContext(ctx))
}

// statusWriter remembers the status a passthrough answer was written with.
// Flushes reach the client's writer through Unwrap (http.ResponseController).
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
