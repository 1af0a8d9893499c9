package fakes

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/toolout/toolout/core"
)

// counter is a concurrency-safe sequence 1, 2, 3, ...
type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) next() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return c.n
}

// IDs yields sequential UUID-shaped identifiers, starting with
// 00000000-0000-4000-8000-000000000001. Safe for concurrent use.
type IDs struct{ c counter }

// Next returns the next identifier.
func (g *IDs) Next() string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", g.c.next()) }

// Nonces yields sequential nonces: nonce0001, nonce0002, ... Safe for
// concurrent use.
type Nonces struct{ c counter }

// Next returns the next nonce.
func (g *Nonces) Next() string { return fmt.Sprintf("nonce%04d", g.c.next()) }

// Epoch is the first reading of a new Clock.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Clock is a fake clock. Now returns the current reading and then advances it
// by Step (one second when zero). Advance moves it explicitly. Timers armed
// with WithTimeout fire when it reaches them. Safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	t      time.Time
	init   bool
	timers []*clockTimer
	// Step is how far each call to Now advances the clock; zero means one
	// second, a negative value means the clock only moves through Advance.
	Step time.Duration
}

// clockTimer ends a context when the clock reaches at.
type clockTimer struct {
	at   time.Time
	fire func()
}

// Now returns the current reading and steps the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	c.start()
	t := c.t
	switch {
	case c.Step == 0:
		c.t = c.t.Add(time.Second)
	case c.Step > 0:
		c.t = c.t.Add(c.Step)
	}
	due := c.due()
	c.mu.Unlock()
	fire(due)
	return t
}

// Advance moves the clock forward by d without reading it.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.start()
	c.t = c.t.Add(d)
	due := c.due()
	c.mu.Unlock()
	fire(due)
}

// WithTimeout is context.WithTimeout on this clock (core.Sources.Timeout):
// the context ends when the clock, moved by Advance or the steps of Now,
// reaches d past its current reading (at once for d <= 0). Its Err and
// Cause are then context.DeadlineExceeded. Arming it does not read the
// clock (no step).
func (c *Clock) WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	c.mu.Lock()
	c.start()
	t := &clockTimer{at: c.t.Add(d), fire: func() { cancel(context.DeadlineExceeded) }}
	c.timers = append(c.timers, t)
	due := c.due()
	c.mu.Unlock()
	fire(due)
	return deadlineCtx{ctx}, func() {
		c.mu.Lock()
		c.timers = slices.DeleteFunc(c.timers, func(x *clockTimer) bool { return x == t })
		c.mu.Unlock()
		cancel(context.Canceled)
	}
}

// deadlineCtx reports a deadline that the clock reached as
// context.DeadlineExceeded, as context.WithTimeout does.
type deadlineCtx struct{ context.Context }

func (d deadlineCtx) Err() error {
	err := d.Context.Err()
	if err != nil && context.Cause(d.Context) == context.DeadlineExceeded {
		return context.DeadlineExceeded
	}
	return err
}

// due removes and returns the timers the clock has reached; c.mu is held.
func (c *Clock) due() []*clockTimer {
	var out []*clockTimer
	c.timers = slices.DeleteFunc(c.timers, func(t *clockTimer) bool {
		if t.at.After(c.t) {
			return false
		}
		out = append(out, t)
		return true
	})
	return out
}

// fire fires timers, outside the clock's lock.
func fire(ts []*clockTimer) {
	for _, t := range ts {
		t.fire()
	}
}

func (c *Clock) start() {
	if !c.init {
		c.t, c.init = Epoch, true
	}
}

// NewSources returns a core.Sources backed by a fresh IDs, Nonces and Clock.
func NewSources() core.Sources {
	ids, nonces, clock := &IDs{}, &Nonces{}, &Clock{}
	return core.Sources{Now: clock.Now, NewID: ids.Next, Nonce: nonces.Next, Timeout: clock.WithTimeout}
}
