package proxy

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

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
//
// Its time, until the headers and in each read of the body, is upstream
// time in the request's overhead account (timedTransport).
//
// A client without a Timeout or a cookie Jar (gateway serve's) is not
// called: its transport is, which is all Client.Do would do once redirects
// are not followed, without the copy of the headers it keeps for them; the
// error is worded as Client.Do words it.
func (p *Proxy) do(req *http.Request) (*http.Response, error) {
	if c := p.Client; c == nil || c.Timeout == 0 && c.Jar == nil {
		rt := http.DefaultTransport
		if c != nil && c.Transport != nil {
			rt = c.Transport
		}
		resp, err := timedTransport{rt}.RoundTrip(req)
		if err != nil {
			return nil, &url.Error{Op: req.Method[:1] + strings.ToLower(req.Method[1:]), URL: withoutPassword(req.URL), Err: err}
		}
		return resp, nil
	}
	c := NoRedirects(p.Client)
	c.Transport = timedTransport{c.Transport}
	return c.Do(req)
}

// withoutPassword is u as Client.Do's errors show it: a password as ***.
func withoutPassword(u *url.URL) string {
	if _, set := u.User.Password(); set {
		return strings.Replace(u.String(), u.User.String()+"@", u.User.Username()+":***@", 1)
	}
	return u.String()
}
