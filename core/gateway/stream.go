package gateway

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// streamChunk is the most bytes streamThrough reads before relaying them.
const streamChunk = 32 << 10

// upstreamRequest is the POST of one round of the client's request to the
// route's upstream: the client's query string (after the upstream's own,
// joined as httputil's reverse proxy joins them: the Anthropic SDKs post
// to /v1/messages?beta=true), the client's headers (hop-by-hop ones
// dropped), JSON, and the round header.
func (p *Proxy) upstreamRequest(ctx context.Context, route Route, client *http.Request, fwd []byte, round int) (*http.Request, error) {
	u := *route.Upstream
	u.Path = strings.TrimSuffix(u.Path, "/") + route.Gateway.Wire.Path()
	switch q := client.URL.RawQuery; {
	case u.RawQuery == "":
		u.RawQuery = q
	case q != "":
		u.RawQuery += "&" + q
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(fwd))
	if err != nil {
		return nil, err
	}
	copyHeaders(req.Header, client.Header)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(RoundHeader, strconv.Itoa(round))
	return req, nil
}

// NoRedirects returns a copy of c (nil: a zero http.Client, which uses
// http.DefaultTransport) that does not follow redirects: a 3xx is the
// answer. Every client the gateway sends a conversation or a tool output
// with is one (the proxy's upstream calls, the api compressor's PostJSON,
// openai.Client): following a redirect would re-send the body (307, 308)
// and the credentials to a host the operator did not configure, since Go's
// client drops Authorization on a redirect to another host, but not
// x-api-key or api-key, nor anything on another port of the same host.
func NoRedirects(c *http.Client) *http.Client {
	var once http.Client
	if c != nil {
		once = *c
	}
	once.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &once
}

// do sends one upstream request with the proxy's client, without following
// redirects (NoRedirects): a 3xx is the upstream's answer, relayed to the
// client as any other status, as a reverse proxy does.
func (p *Proxy) do(req *http.Request) (*http.Response, error) {
	return NoRedirects(p.Client).Do(req)
}

// streamThrough answers a streaming request that offers no expand_context:
// nothing in its answer can be a call the gateway must answer, so the
// upstream's stream is relayed as it arrives, each read flushed to the
// client at once, with no added latency. It is bounded as a buffered
// round is (the upstream timeout covers the whole stream, and a stream
// over MaxResponseBytes is cut); an error status before the stream starts
// is relayed as the buffered path relays it, and a stream cut after it
// started is logged and its connection aborted (markCut), which SDKs
// report as an error; a stream that holds an
// error event (sseErrors) is relayed as it came and counted as
// upstream_error; the upstream's time is
// observed when its headers came, as for a stream that offers the tool.
// The proxy takes this path
// only for a body that names neither the phantom tool nor a shadow marker
// (mentionsPhantom), so a model has no reason to call expand_context; one
// that does all the same reaches the client as it would without the
// gateway (nothing was issued into the conversation: nothing to answer).
func (p *Proxy) streamThrough(w http.ResponseWriter, r *http.Request, route Route, body []byte) string {
	first, err := p.firstRound(w, r, route, body)
	if err != nil {
		return p.fail(w, r, route.Gateway.Wire, err)
	}
	defer first.close()
	copyHeaders(w.Header(), first.header)
	w.Header().Set(RoundsHeader, "1")
	w.WriteHeader(http.StatusOK)
	_ = first.rc.Flush()
	var scan sseErrors
	n, err := relay(w, first.rc, io.TeeReader(first.resp.Body, &scan), p.Limits.WithDefaults().MaxResponseBytes)
	switch {
	case err == nil && scan.found:
		p.logf("gateway: %s: streamed through, %d bytes, holding the upstream's error event", r.URL.Path, n)
		return OutcomeUpstreamError
	case err == nil:
		p.logf("gateway: %s: streamed through, %d bytes", r.URL.Path, n)
		return OutcomeOK
	case clientGone(w, r):
		p.logf("gateway: %s: client went away or stopped reading after %d bytes of the stream: %v", r.URL.Path, n, err)
		return OutcomeCanceled
	}
	p.logf("gateway: %s: stream cut after %d bytes: %v", r.URL.Path, n, err)
	markCut(w)
	return OutcomeUpstreamError
}

// mentionsPhantom reports whether a request body names the phantom tool or
// holds a shadow marker anywhere (a marker the gateway did not issue, a
// forged one, a conversation about the tool): a model that sees one may
// call expand_context although it was not offered, and such a stream is
// buffered, so that the call is answered (not available) and never reaches
// the client.
func mentionsPhantom(body []byte) bool {
	// The marker without its "<<<", which JSON encoders may escape
	// (encoding/json writes \u003c).
	return bytes.Contains(body, []byte(ExpandToolName)) || bytes.Contains(body, []byte(strings.TrimLeft(ShadowPrefix, "<")))
}

// errStreamTooLarge cuts a relayed stream over the response bound.
var errStreamTooLarge = errors.New("stream larger than the response bound")

// relay copies src to w as it arrives, flushing after every read, until src
// ends (nil error), fails, w fails, or more than limit bytes came
// (errStreamTooLarge, after relaying limit bytes). It returns the bytes
// relayed.
func relay(w io.Writer, rc *http.ResponseController, src io.Reader, limit int64) (int64, error) {
	buf := make([]byte, streamChunk)
	var total int64
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if total+int64(n) > limit {
				n = int(limit - total)
				err = errStreamTooLarge
			}
			if _, werr := w.Write(buf[:n]); werr != nil {
				return total, werr
			}
			total += int64(n)
			_ = rc.Flush()
		}
		switch {
		case err == io.EOF:
			return total, nil
		case err != nil:
			return total, err
		}
	}
}
