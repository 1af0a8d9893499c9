package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// SweepInterval is how often New sweeps one base, at most, per process.
const SweepInterval = time.Minute

// Sweep removes the session directories under base (ai-agent-*) whose
// owner marker names a process that is gone (see [Owner.Dead]), and returns
// the paths it removed, sorted. It never touches a directory without a
// readable marker (made by another program, an older toolout, or being made
// right now), one whose owner is alive or cannot be judged, or any entry
// that is not a directory (a symbolic link named ai-agent-x is not
// followed). Where this process has no identity (see [Self]), it removes
// nothing.
func Sweep(base string) ([]string, error) { return SweepPrefix(base, DirPrefix) }

// SweepPrefix is Sweep over the directories under base named prefix
// followed by anything, each judged by its own owner marker (see
// [MarkOwner]). The harness sweeps its scratch folders (toolout-scenario-*)
// with it, each of which holds the stores of one run. An empty prefix
// removes nothing.
func SweepPrefix(base, prefix string) ([]string, error) {
	if prefix == "" {
		return nil, nil
	}
	me, err := Self()
	if err != nil {
		return nil, nil
	}
	f, err := os.Open(base)
	if err != nil {
		return nil, fmt.Errorf("store: sweep: %w", err)
	}
	entries, err := f.ReadDir(-1) // unsorted: a busy temp dir holds many entries
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("store: sweep: %w", err)
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		p := filepath.Join(base, e.Name())
		o, err := ReadOwner(p)
		if err != nil {
			continue // no marker, or not ours to read: not provably stale
		}
		if dead, _ := o.Dead(me); !dead {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, p)
	}
	slices.Sort(removed)
	if err := errors.Join(errs...); err != nil {
		return removed, fmt.Errorf("store: sweep: %w", err)
	}
	return removed, nil
}

// swept holds when each base was last swept by New.
var swept struct {
	sync.Mutex
	at map[string]time.Time
}

// sweepAtOpen sweeps base unless this process did within SweepInterval
// before now. A failed sweep does not fail New; it is logged.
func sweepAtOpen(base string, now time.Time, logf func(string, ...any)) {
	key := filepath.Clean(base)
	swept.Lock()
	last, ok := swept.at[key]
	if ok && now.Sub(last) < SweepInterval && !now.Before(last) {
		swept.Unlock()
		return
	}
	if swept.at == nil || len(swept.at) >= 4096 {
		swept.at = map[string]time.Time{} // forget old bases rather than grow without bound
	}
	swept.at[key] = now
	swept.Unlock()
	removed, err := Sweep(base)
	if logf == nil {
		return
	}
	for _, p := range removed {
		logf("store: removed %s, left behind by a process that is gone", p)
	}
	if err != nil {
		logf("%v", err)
	}
}

// open is the set of this process's stores not yet closed.
var open = registry{stores: map[*Store]struct{}{}}

type registry struct {
	mu     sync.Mutex
	stores map[*Store]struct{}
}

func (r *registry) add(s *Store) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stores[s] = struct{}{}
}

func (r *registry) remove(s *Store) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.stores, s)
}

// CloseAll closes every Store of this process that is still open and
// returns their directories, sorted, with any removal errors. It is for a
// program that must exit before its sessions have returned (a deadline after
// a signal, a panic in another goroutine): their directories go now rather
// than at the next sweep. A session still running sees ErrClosed or a
// missing file from then on.
func CloseAll() ([]string, error) {
	open.mu.Lock()
	stores := make([]*Store, 0, len(open.stores))
	for s := range open.stores {
		stores = append(stores, s)
	}
	open.mu.Unlock()
	var dirs []string
	var errs []error
	for _, s := range stores {
		dirs = append(dirs, s.Dir())
		errs = append(errs, s.Close())
	}
	slices.Sort(dirs)
	return dirs, errors.Join(errs...)
}
