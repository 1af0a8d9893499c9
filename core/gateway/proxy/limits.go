package proxy

import (
	"time"

	"github.com/toolout/toolout/core/gateway"
)

// Limits bound what the proxy accepts and waits for. A zero field means its
// default; each bound, when hit, refuses the request with a 4xx (body size,
// JSON shape) or 503 (concurrency), or fails the upstream call (timeout,
// response size), and is counted by the Observer. The per-request bounds on
// compression work (Config.MaxResults, Config.MaxWorkBytes) are the pipe's.
// The yaml names are the config file's limits keys.
type Limits struct {
	// MaxBodyBytes refuses larger request bodies with 413.
	MaxBodyBytes int64 `yaml:"max_body_bytes"`
	// MaxJSONValues refuses bodies with more JSON tokens ({ [ , : outside
	// strings) with 413: memory per request is then bounded by the body
	// and this count, not by how the body is packed (the parse costs about
	// 160 bytes per value: some 32 MB at the default 200,000).
	MaxJSONValues int `yaml:"max_json_values"`
	// MaxJSONNesting refuses deeper bodies with 400.
	MaxJSONNesting int `yaml:"max_json_nesting"`
	// MaxConcurrent requests are handled at once, routes and passthrough
	// paths alike; more get 503 with Retry-After. [Transport] keeps as
	// many idle upstream connections per host.
	MaxConcurrent int `yaml:"max_concurrent_requests"`
	// UpstreamTimeout bounds each call to the upstream model, the whole
	// response included (504 when nothing was relayed yet), and each
	// passthrough request the same way.
	UpstreamTimeout time.Duration `yaml:"upstream_timeout"`
	// MaxResponseBytes bounds an upstream response (a stream read whole).
	MaxResponseBytes int64 `yaml:"max_response_bytes"`
	// ClientWriteTimeout bounds each write to the client: a client that
	// accepts no byte of the answer for this long is dropped (counted
	// canceled), as nginx's send_timeout does, so that one that stops
	// reading cannot hold a request slot, a goroutine and an upstream
	// connection for ever. It is a bound between writes, not on the whole
	// answer: a stream that keeps flowing is never cut.
	ClientWriteTimeout time.Duration `yaml:"client_write_timeout"`
}

// Limit defaults.
const (
	DefaultMaxBodyBytes     = 16 << 20
	DefaultMaxRequests      = 64
	DefaultUpstreamTimeout  = 10 * time.Minute
	DefaultMaxResponseBytes = 32 << 20
	// DefaultClientWriteTimeout is nginx's send_timeout default.
	DefaultClientWriteTimeout = time.Minute
)

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	orDefault(&l.MaxBodyBytes, DefaultMaxBodyBytes)
	orDefault(&l.MaxJSONValues, gateway.DefaultMaxJSONValues)
	orDefault(&l.MaxJSONNesting, gateway.DefaultMaxJSONNesting)
	orDefault(&l.MaxConcurrent, DefaultMaxRequests)
	orDefault(&l.MaxResponseBytes, DefaultMaxResponseBytes)
	orDefault(&l.UpstreamTimeout, DefaultUpstreamTimeout)
	orDefault(&l.ClientWriteTimeout, DefaultClientWriteTimeout)
	return l
}

// orDefault sets *v to def when it is zero or negative: every numeric knob
// of the gateway's configuration reads that way (gateway.Config's too).
func orDefault[T int | int64 | float64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}
