package fakes

import (
	"fmt"
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
// by Step (one second when zero). Advance moves it explicitly. Safe for
// concurrent use.
type Clock struct {
	mu   sync.Mutex
	t    time.Time
	init bool
	// Step is how far each call to Now advances the clock; zero means one
	// second, a negative value means the clock only moves through Advance.
	Step time.Duration
}

// Now returns the current reading and steps the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.start()
	t := c.t
	switch {
	case c.Step == 0:
		c.t = c.t.Add(time.Second)
	case c.Step > 0:
		c.t = c.t.Add(c.Step)
	}
	return t
}

// Advance moves the clock forward by d without reading it.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.start()
	c.t = c.t.Add(d)
}

func (c *Clock) start() {
	if !c.init {
		c.t, c.init = Epoch, true
	}
}

// NewSources returns a core.Sources backed by a fresh IDs, Nonces and Clock.
func NewSources() core.Sources {
	ids, nonces, clock := &IDs{}, &Nonces{}, &Clock{}
	return core.Sources{Now: clock.Now, NewID: ids.Next, Nonce: nonces.Next}
}
