package gateway

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/toolout/toolout/core/gateway/jsonspan"
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
	DefaultMaxJSONValues    = 200_000
	DefaultMaxJSONNesting   = 256
	DefaultMaxRequests      = 64
	DefaultUpstreamTimeout  = 10 * time.Minute
	DefaultMaxResponseBytes = 32 << 20
	// DefaultClientWriteTimeout is nginx's send_timeout default.
	DefaultClientWriteTimeout = time.Minute
)

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	orDefault(&l.MaxBodyBytes, DefaultMaxBodyBytes)
	orDefault(&l.MaxJSONValues, DefaultMaxJSONValues)
	orDefault(&l.MaxJSONNesting, DefaultMaxJSONNesting)
	orDefault(&l.MaxConcurrent, DefaultMaxRequests)
	orDefault(&l.MaxResponseBytes, DefaultMaxResponseBytes)
	orDefault(&l.UpstreamTimeout, DefaultUpstreamTimeout)
	orDefault(&l.ClientWriteTimeout, DefaultClientWriteTimeout)
	return l
}

// orDefault sets *v to def when it is zero or negative: every numeric knob
// of the gateway's configuration reads that way.
func orDefault[T int | int64 | float64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// LimitError is a request refused by a bound.
type LimitError struct {
	Limit  string // one of the Limit* constants
	Offset int    // byte offset where the bound was crossed, -1 if none
	Msg    string
}

func (e *LimitError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("%s at byte %d", e.Msg, e.Offset)
	}
	return e.Msg
}

// CheckJSONShape scans body once, without allocating, and refuses it when
// it holds more than maxTokens structural tokens ({ [ , : outside strings)
// or nests deeper than maxNesting. It does not validate the JSON; the
// parsers that run after it do.
func CheckJSONShape(body []byte, maxTokens, maxNesting int) error {
	tokens, depth := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '"':
			for i++; i < len(body) && body[i] != '"'; i++ {
				if body[i] == '\\' {
					i++
				}
			}
			continue
		case '{', '[':
			if depth++; depth > maxNesting {
				return nestingError(i, maxNesting)
			}
		case '}', ']':
			depth--
			continue
		case ',', ':':
		default:
			continue
		}
		if tokens++; tokens > maxTokens {
			return valuesError(i, maxTokens)
		}
	}
	return nil
}

// bound is max, or no bound when it is zero or less.
func bound(max int) int {
	if max <= 0 {
		return math.MaxInt
	}
	return max
}

func nestingError(at, maxNesting int) *LimitError {
	return &LimitError{LimitJSONNesting, at, fmt.Sprintf("JSON nested deeper than %d levels", maxNesting)}
}

func valuesError(at, maxTokens int) *LimitError {
	return &LimitError{LimitJSONValues, at, fmt.Sprintf("more than %d JSON values", maxTokens)}
}

// Bounds are the JSON bounds a request body is parsed within
// (Limits.MaxJSONValues, Limits.MaxJSONNesting, as CheckJSONShape counts
// them); a field of zero or less bounds nothing. Known, when set, is the
// memo of long strings the parse may take as read (jsonspan.Known); the
// proxy sets it.
type Bounds struct {
	MaxValues, MaxNesting int
	Known                 jsonspan.Known
}

// ParseObjectBounded is ParseObject within b, in the same one pass: a body
// past a bound fails with the *LimitError that CheckJSONShape gives it, as
// if the body had been scanned before the parse. A body that does not
// parse is scanned then, since its bound may lie past the syntax error.
func ParseObjectBounded(body []byte, what string, b Bounds) (*jsonspan.Node, error) {
	root, err := jsonspan.ParseWith(body, jsonspan.Options{MaxTokens: b.MaxValues, MaxNesting: b.MaxNesting, Known: b.Known})
	var be *jsonspan.BoundError
	switch {
	case errors.As(err, &be) && be.Nesting:
		return nil, nestingError(be.Offset, b.MaxNesting)
	case be != nil:
		return nil, valuesError(be.Offset, b.MaxValues)
	case err != nil && (b.MaxValues > 0 || b.MaxNesting > 0):
		if lerr := CheckJSONShape(body, bound(b.MaxValues), bound(b.MaxNesting)); lerr != nil {
			return nil, lerr
		}
	}
	if err != nil {
		return nil, fmt.Errorf("gateway: %s: %w", what, err)
	}
	if root.Kind != '{' {
		return nil, fmt.Errorf("gateway: %s: the body must be a JSON object", what)
	}
	return root, nil
}
