package proxy

import (
	"net/http"
)

// MinIdleConns is the floor of Transport's idle pool per host: what
// http.DefaultTransport keeps.
const MinIdleConns = 2

// Transport returns the transport the proxy should reach its upstreams
// with: http.DefaultTransport's settings (its dial and keep-alive
// timeouts, TLS handshake timeout, idle timeout, Expect: 100-continue
// timeout, HTTP/2 and proxy from the environment), every one of them kept,
// with an idle pool sized from l.MaxConcurrent (its default when zero).
//
// The rule: MaxIdleConnsPerHost is MaxConcurrent (at least MinIdleConns),
// since every request in flight, route or passthrough, holds at most one
// upstream connection, and a request slot is all it takes to hold one;
// MaxIdleConns is twice that (at least http.DefaultTransport's 100), for
// the two upstreams a gateway may have (OpenAI and Anthropic). http.DefaultTransport keeps 2 idle connections
// per host, so past 2 concurrent requests to one upstream every further
// one opened (and, under TLS, handshook) a new connection and closed it
// after. Redirects are not this transport's concern: the proxy's client
// never follows them ([NoRedirects]), and a Transport does not.
// UpstreamTimeout still bounds each call through the request's context.
func Transport(l Limits) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	perHost := max(l.WithDefaults().MaxConcurrent, MinIdleConns)
	t.MaxIdleConnsPerHost = perHost
	t.MaxIdleConns = max(2*perHost, t.MaxIdleConns)
	return t
}
