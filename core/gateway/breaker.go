package gateway

import (
	"errors"
	"sync"
	"time"

	"github.com/toolout/toolout/core"
)

// Breaker defaults: after this many compressor failures in a row, the pipe
// stops calling the compressor for the cool-off.
const (
	DefaultBreakerFailures = 5
	DefaultBreakerCooloff  = 30 * time.Second
)

// ErrBreakerOpen is the compression error while the circuit breaker is
// open: the compressor failed BreakerFailures times in a row and is not
// called until the cool-off ends.
var ErrBreakerOpen = errors.New("compressor circuit open after repeated failures")

// breaker is a circuit breaker on the injected clock: closed, it lets
// every call through and counts failures in a row; at the threshold it
// opens for the cool-off; after it, one call goes through (half-open): its
// success closes the breaker, its failure opens it again.
type breaker struct {
	failures int
	cooloff  time.Duration
	src      core.Sources

	mu       sync.Mutex
	inRow    int
	openTill time.Time
	probing  bool
}

func newBreaker(failures int, cooloff time.Duration, src core.Sources) *breaker {
	return &breaker{failures: failures, cooloff: cooloff, src: src}
}

// allow reports whether a call may go to the compressor now.
func (b *breaker) allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.inRow < b.failures {
		return true
	}
	if b.src.Time().Before(b.openTill) || b.probing {
		return false
	}
	b.probing = true // half-open: this call is the probe
	return true
}

// done records the outcome of an allowed call.
func (b *breaker) done(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probing = false
	if err == nil {
		b.inRow = 0
		return
	}
	if b.inRow++; b.inRow >= b.failures {
		b.openTill = b.src.Time().Add(b.cooloff)
	}
}
