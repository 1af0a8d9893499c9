package proxy

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// OverheadHeader carries, on every answer the proxy writes, the time the
// request spent in the gateway, upstream excluded, in milliseconds with
// three decimals: from the request's arrival at [Proxy.ServeHTTP] until
// its response headers are written, less the time spent waiting on the
// upstream meanwhile (each call until its response headers came, and each
// read of an upstream body). Compression, including a remote compressor's
// calls, counts as the gateway's. The header goes out with the headers,
// so for a streamed answer it covers the work before the first byte, not
// what the relay costs after it; for a protocol upgrade (101) it is set
// when the upstream's 101 arrives.
const OverheadHeader = "X-Toolout-Gateway-Overhead-Ms"

// overhead is one request's account: when it arrived, and the upstream
// time so far, added by every upstream call the request makes (concurrent
// adds are safe).
type overhead struct {
	now      func() time.Time
	start    time.Time
	upstream atomic.Int64 // nanoseconds
	took     time.Duration
	stamped  bool
}

type overheadKey struct{}

// startOverhead opens the account of a request arriving now, and returns
// the request carrying it for the upstream calls it makes.
func (p *Proxy) startOverhead(r *http.Request) (*overhead, *http.Request) {
	now := p.OverheadClock
	if now == nil {
		now = time.Now
	}
	o := &overhead{now: now, start: now()}
	return o, r.WithContext(context.WithValue(r.Context(), overheadKey{}, o))
}

func overheadOf(ctx context.Context) *overhead {
	o, _ := ctx.Value(overheadKey{}).(*overhead)
	return o
}

func (o *overhead) add(d time.Duration) { o.upstream.Add(int64(d)) }

// stamp sets the header once, on the first call; a nil account does
// nothing. The handler's goroutine alone calls it.
func (o *overhead) stamp(h http.Header) {
	if o == nil || o.stamped {
		return
	}
	o.stamped = true
	o.took = max(o.now().Sub(o.start)-time.Duration(o.upstream.Load()), 0)
	h.Set(OverheadHeader, strconv.FormatFloat(float64(o.took)/float64(time.Millisecond), 'f', 3, 64))
}

// observeOverhead tells the Observer the overhead of a request whose
// headers were written.
func (p *Proxy) observeOverhead(route string, o *overhead) {
	if oo, ok := p.observer().(OverheadObserver); ok && o.stamped {
		oo.Overhead(route, o.took)
	}
}

// timedTransport adds the time spent in each round trip, and in each read
// of the response body, to the account of the request's context (none:
// nothing is timed). A 101's body (the upgraded connection) is not
// wrapped, since the reverse proxy needs it whole (io.ReadWriteCloser);
// its header is stamped instead, the reverse proxy writing the upstream's
// headers itself.
type timedTransport struct{ rt http.RoundTripper }

func (t timedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rt := t.rt
	if rt == nil {
		rt = http.DefaultTransport
	}
	o := overheadOf(r.Context())
	if o == nil {
		return rt.RoundTrip(r)
	}
	start := o.now()
	resp, err := rt.RoundTrip(r)
	o.add(o.now().Sub(start))
	switch {
	case err != nil || resp.Body == nil:
	case resp.StatusCode == http.StatusSwitchingProtocols:
		o.stamp(resp.Header)
	default:
		resp.Body = &timedBody{ReadCloser: resp.Body, o: o}
	}
	return resp, err
}

// timedBody is an upstream body whose reads count as upstream time.
type timedBody struct {
	io.ReadCloser
	o *overhead
}

func (b *timedBody) Read(p []byte) (int, error) {
	start := b.o.now()
	n, err := b.ReadCloser.Read(p)
	b.o.add(b.o.now().Sub(start))
	return n, err
}
