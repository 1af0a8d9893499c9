// Package storecontract is the behaviour every gateway.Store backend must
// show, written once in plain Go and run by each backend's tests
// (core/gateway/memstore, core/gateway/redisstore) and by users' tests of
// their own backends, through toolouttest.CheckStore (one subtest per
// case) and toolouttest.TestStore:
//
//   - put and get of both kinds, which are separate namespaces; a missing id
//     is ("", false, nil); a put of the same id replaces the value, restarts
//     its TTL and counts its bytes once;
//   - originals are scoped to their caller: one caller's original of an id is
//     another entry than another caller's, and is missing for every other
//     caller (whatever the bytes of the callers and ids); an original counts
//     len(caller)+len(id)+len(value); compressed texts have no caller;
//   - originals expire at OriginalTTL and compressed texts at CompressedTTL
//     on the injected clock (an entry is gone when now >= put time + TTL),
//     and expired entries leave Stats without being looked up;
//   - MaxEntries bounds each kind, MaxBytes bounds len(id)+len(value) over
//     both kinds; the oldest entry goes first; an entry larger than MaxBytes
//     alone is not kept (Put returns nil and evicts nothing);
//   - 8 goroutines x 200 mixed operations end within the bounds, with Stats
//     equal to what lookups find;
//   - a cancelled context gives an error wrapping context.Canceled or a
//     no-op, never a hang;
//   - Close returns nil.
//
// [Fuzz] is the same contract as a property: a backend runs any sequence of
// operations with the answers of a slow, obvious model.
//
// The clock is a fakes.Clock that moves only when a case advances it, so
// the cases are deterministic on every backend. TTLs are minutes or hours:
// a backend may also expire entries on the real clock (Redis does), and no
// case runs that long. A case checks on after a failed expectation, like
// testing.T.Error, and returns every failure joined. The package imports
// no test framework (Fuzz takes a *testing.F), so that toolouttest can
// offer it to users whatever they test with; only test code and toolouttest
// import it.
package storecontract

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/fakes"
)

// Opener returns a new, empty store with the given options. The case
// closes it.
type Opener func(gateway.StoreOptions) gateway.Store

// Case is one property of the contract.
type Case struct {
	// Name is a short name, usable as a subtest's: "basics/namespaces".
	Name string
	// Desc says what the case checks; every failure starts with it.
	Desc string
	opts gateway.StoreOptions
	body func(*env)
}

// Run opens a store with the case's options on a clock of its own, runs
// the case and closes the store; it returns every failure joined, nil
// when the store keeps the property.
func (c Case) Run(open Opener) error {
	e, err := newEnv(open, c.opts)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Desc, err)
	}
	c.body(e)
	if err := e.store.Close(); err != nil {
		e.failf("Close: %v", err)
	}
	if errs := e.errs.list(); len(errs) > 0 {
		return fmt.Errorf("%s:\n%w", c.Desc, errors.Join(errs...))
	}
	return nil
}

// Check runs every case and returns the failures joined, nil when the
// backend keeps the whole contract.
func Check(open Opener) error {
	var errs []error
	for _, c := range Cases() {
		errs = append(errs, c.Run(open))
	}
	return errors.Join(errs...)
}

// Cases returns the contract, case by case, in a fixed order.
func Cases() []Case {
	var out []Case
	for _, group := range [][]Case{basics(), expiry(), bounds(), byteBounds(), callers(), concurrency(), cancel()} {
		out = append(out, group...)
	}
	return out
}

// env is one case's store, clock and context, the caller its originals
// are put and looked up under (the anonymous one unless a case sets it),
// and its failures (shared by the copies as() makes).
type env struct {
	store  gateway.Store
	clock  *fakes.Clock
	ctx    context.Context
	caller string
	errs   *failures
}

// failures collects a case's failures from any goroutine.
type failures struct {
	mu   sync.Mutex
	errs []error
}

func (f *failures) add(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, err)
}

func (f *failures) list() []error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]error(nil), f.errs...)
}

// newEnv opens a store on a clock that moves only through Advance.
func newEnv(open Opener, opts gateway.StoreOptions) (*env, error) {
	clock := &fakes.Clock{Step: -1}
	opts.Sources = core.Sources{Now: clock.Now}
	st := open(opts)
	if st == nil {
		return nil, errors.New("the opener returned no store")
	}
	return &env{store: st, clock: clock, ctx: context.Background(), errs: &failures{}}, nil
}

// failf records a failure and lets the case go on.
func (e *env) failf(format string, args ...any) { e.errs.add(fmt.Errorf(format, args...)) }

// eq records a failure when got is not want.
func eq[T comparable](e *env, got, want T, what string, args ...any) {
	if got != want {
		e.failf("%s: got %+v, want %+v", fmt.Sprintf(what, args...), got, want)
	}
}

func (e *env) putOriginal(id, v string) {
	if err := e.store.PutOriginal(e.ctx, e.caller, id, v); err != nil {
		e.failf("PutOriginal(caller %q, %q): %v", e.caller, id, err)
	}
}

func (e *env) putCompressed(id, v string) {
	if err := e.store.PutCompressed(e.ctx, id, v); err != nil {
		e.failf("PutCompressed(%q): %v", id, err)
	}
}

// original returns e.caller's original of id, or "<missing>".
func (e *env) original(id string) string {
	return e.lookup("Original", e.originalOf(e.caller), id)
}

// as returns e for caller: the same store, clock, context and failures.
func (e *env) as(caller string) *env {
	c := *e
	c.caller = caller
	return &c
}

// originalOf is the Original lookup of caller.
func (e *env) originalOf(caller string) func(context.Context, string) (string, bool, error) {
	return func(ctx context.Context, id string) (string, bool, error) { return e.store.Original(ctx, caller, id) }
}

// compressed returns the compressed text of id, or "<missing>".
func (e *env) compressed(id string) string {
	return e.lookup("Compressed", e.store.Compressed, id)
}

// lookup returns what get answers for id, or "<missing>"; a missing entry
// must come with an empty value and no error.
func (e *env) lookup(name string, get func(context.Context, string) (string, bool, error), id string) string {
	v, ok, err := get(e.ctx, id)
	if err != nil {
		e.failf("%s(caller %q, %q): %v", name, e.caller, id, err)
		return "<error>"
	}
	if !ok {
		if v != "" {
			e.failf("%s(%q): a missing entry comes with the value %q: want an empty one", name, id, clip(v))
		}
		return missing
	}
	return v
}

func (e *env) stats() gateway.StoreStats {
	st, err := e.store.Stats(e.ctx)
	if err != nil {
		e.failf("Stats: %v", err)
	}
	return st
}

const missing = "<missing>"

// sized returns a value that makes len(id)+len(value) == n.
func sized(id string, n int) string {
	return strings.Repeat("x", n-len(id))
}

// clip shortens a value for a message.
func clip(s string) string {
	if len(s) > 80 {
		return fmt.Sprintf("%s... (%d bytes)", s[:80], len(s))
	}
	return s
}
