package proxy

import (
	"time"

	"github.com/toolout/toolout/core/gateway"
)

// Observer receives the gateway's events, for metrics (the Prometheus one
// is in core/gateway/prom). Implementations are safe for concurrent use.
// The pipe's own counters are read from gateway.Pipe.Metrics and the
// store's size from gateway.Store.Stats; events are what those cannot tell.
type Observer interface {
	// Request is one client request finished: route is the wire format
	// ("openai", "anthropic") or "passthrough" for a path the gateway
	// forwards unchanged; outcome is one of the Outcome* constants.
	Request(route, outcome string)
	// Upstream is one call to the upstream model: its HTTP status (0 when
	// no response came) and how long it took.
	Upstream(route string, status int, d time.Duration)
	// Expansion is one expand_context call answered: "original",
	// "missing", "repeated" or "not_available".
	Expansion(answer string)
	// Limited is a bound that refused a request or cut the work done for
	// it: one of the Limit* constants.
	Limited(limit string)
}

// HistoryObserver is an Observer that is also told of a request that
// continues a conversation the provider holds (the Responses API's
// previous_response_id or conversation: gateway.Conversation.HiddenHistory),
// whose earlier tool outputs the gateway cannot see nor compress. The
// proxy tells an Observer that implements it (the Prometheus one does).
type HistoryObserver interface {
	HiddenHistory(route, member string)
}

// Outcomes of a client request.
const (
	OutcomeOK            = "ok"
	OutcomeBadRequest    = "bad_request"    // 400: invalid JSON or body shape
	OutcomeTooLarge      = "too_large"      // 413: a body bound
	OutcomeOverloaded    = "overloaded"     // 503: the concurrency bound
	OutcomeUpstreamError = "upstream_error" // the upstream answered 4xx/5xx or failed
	OutcomeCapped        = "capped"         // 502: the model called expand_context up to the cap and gave no answer
	OutcomeCanceled      = "canceled"       // the client went away
	OutcomeFailed        = "failed"         // the gateway failed (fail-closed compressor, store)
)

// AllOutcomes returns every Outcome* constant, for a metrics backend that
// creates each series up front; the slice is the caller's.
func AllOutcomes() []string {
	return []string{OutcomeOK, OutcomeBadRequest, OutcomeTooLarge,
		OutcomeOverloaded, OutcomeUpstreamError, OutcomeCapped, OutcomeCanceled, OutcomeFailed}
}

// Limits that only the proxy applies; the others are gateway.Limit*.
const (
	LimitBodyBytes   = "body_bytes"
	LimitConcurrency = "concurrency"
)

// AllLimits returns every limit a request can be counted under, this
// package's Limit* and gateway's, as [AllOutcomes] does.
func AllLimits() []string {
	return []string{LimitBodyBytes, gateway.LimitJSONValues, gateway.LimitJSONNesting,
		gateway.LimitResults, gateway.LimitWork, gateway.LimitMaxBytes, LimitConcurrency}
}

// NopObserver ignores every event.
type NopObserver struct{}

func (NopObserver) Request(string, string)              {}
func (NopObserver) Upstream(string, int, time.Duration) {}
func (NopObserver) Expansion(string)                    {}
func (NopObserver) Limited(string)                      {}

// OverheadObserver is an Observer that is also told each request's
// overhead (the value of the proxy's X-Toolout-Gateway-Overhead-Ms header)
// by route, as [Observer.Request] names it: a wire's name or
// "passthrough". The proxy tells an Observer that implements it (the
// Prometheus one does) once per request whose headers it wrote.
type OverheadObserver interface {
	Overhead(route string, d time.Duration)
}
