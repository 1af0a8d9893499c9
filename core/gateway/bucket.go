package gateway

import (
	"context"
	"errors"
	"time"

	"golang.org/x/time/rate"

	"github.com/toolout/toolout/core"
)

// bucket is the compressions' rate limit: golang.org/x/time/rate's token
// bucket (rate per second, burst the rate, at least 1; rate.Inf: never
// waits), read on the pipe's clock (Sources), so that a test's fake clock
// drives it, and waited out with the pipe's Sleep. Each take reads the
// clock once whatever the rate, so a scripted clock that steps on each
// read sees the same reads with or without a limit.
type bucket struct {
	lim   *rate.Limiter
	src   core.Sources
	sleep func(context.Context, time.Duration) error
}

func newBucket(r rate.Limit, src core.Sources, sleep func(context.Context, time.Duration) error) *bucket {
	burst := 1
	if r != rate.Inf {
		burst = max(1, int(r))
	}
	return &bucket{lim: rate.NewLimiter(r, burst), src: src, sleep: sleep}
}

// take waits for a token, or until ctx ends (the token is then given back).
func (b *bucket) take(ctx context.Context) error {
	now := b.src.Time()
	r := b.lim.ReserveN(now, 1)
	if !r.OK() {
		return errors.New("gateway: rate limit: no token can ever be taken")
	}
	d := r.DelayFrom(now)
	if d <= 0 {
		return nil
	}
	if err := b.sleep(ctx, d); err != nil {
		r.CancelAt(b.src.Time())
		return err
	}
	return nil
}
