package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/toolout/toolout/core"
)

// DirPrefix starts the name of every session directory.
const DirPrefix = "ai-agent-"

// ErrNotFound is returned for a handle this store did not hand out.
var ErrNotFound = errors.New("no stored output with this handle")

// ErrClosed is returned by operations on a closed store.
var ErrClosed = errors.New("store is closed")

// Options configure a Store.
type Options struct {
	// Base is the folder the session directory is made in; empty means
	// os.TempDir().
	Base string
	// SessionID names the directory; empty means Sources.ID().
	SessionID string
	// Sources supplies handles and timestamps.
	Sources core.Sources
	// Logf, when set, receives a line per directory swept at open and per
	// sweep problem.
	Logf func(format string, args ...any)
}

// Meta describes one stored output.
type Meta struct {
	Handle string `json:"handle"`
	Tool   string `json:"tool"`
	// Args is the tool's arguments JSON, verbatim.
	Args string `json:"args"`
	Stats
	Stored time.Time `json:"stored"`
}

// Store is one session's store of oversized outputs.
type Store struct {
	dir  string
	opts Options

	mu     sync.Mutex
	metas  map[string]Meta
	order  []string
	closed bool
}

// New creates the session directory and returns its store.
func New(opts Options) (*Store, error) {
	base := opts.Base
	if base == "" {
		base = os.TempDir()
	}
	id := opts.SessionID
	if id == "" {
		id = opts.Sources.ID()
	}
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return nil, fmt.Errorf("store: new: session id %q: want a plain name", id)
	}
	sweepAtOpen(base, opts.Sources.Time(), opts.Logf)
	dir := filepath.Join(base, DirPrefix+id)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: new: %w", err)
	}
	// Without a marker the directory is never swept; it is still removed
	// by Close, so a failure here is not the session's.
	if err := MarkOwner(dir); err != nil && opts.Logf != nil {
		opts.Logf("store: new: no owner marker, so a sweep will never remove %s: %v", dir, err)
	}
	s := &Store{dir: dir, opts: opts, metas: map[string]Meta{}}
	open.add(s)
	return s, nil
}

// Dir returns the session directory.
func (s *Store) Dir() string { return s.dir }

// Put stores output under a fresh handle and returns its metadata. stats
// are the output's, as Measure gave them to the caller that decided to
// store it: the store does not count the tokens again.
func (s *Store) Put(tool, args, output string, stats Stats) (Meta, error) {
	m := Meta{Handle: s.opts.Sources.ID(), Tool: tool, Args: args, Stats: stats, Stored: s.opts.Sources.Time()}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Meta{}, fmt.Errorf("store: put %s: %w", tool, ErrClosed)
	}
	if _, dup := s.metas[m.Handle]; dup || !validHandle(m.Handle) {
		return Meta{}, fmt.Errorf("store: put %s: handle %q from Sources.NewID is not a fresh plain name", tool, m.Handle)
	}
	if err := os.WriteFile(filepath.Join(s.dir, m.Handle), []byte(output), 0o600); err != nil {
		return Meta{}, fmt.Errorf("store: put %s: handle %s: %w", tool, m.Handle, err)
	}
	s.metas[m.Handle] = m
	s.order = append(s.order, m.Handle)
	return m, nil
}

func validHandle(h string) bool {
	return h != "" && h != "." && h != ".." && h != OwnerFile && !strings.ContainsAny(h, "/\\\x00")
}

// Get returns the metadata of handle.
func (s *Store) Get(handle string) (Meta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.metas[handle]
	if !ok {
		return Meta{}, fmt.Errorf("store: get %q: %w", handle, ErrNotFound)
	}
	return m, nil
}

// Path returns the file of handle, inside Dir.
func (s *Store) Path(handle string) (string, error) {
	if _, err := s.Get(handle); err != nil {
		return "", fmt.Errorf("store: path %q: %w", handle, ErrNotFound)
	}
	return filepath.Join(s.dir, handle), nil
}

// Read returns the metadata and the stored output of handle, from one
// lookup.
func (s *Store) Read(handle string) (Meta, string, error) {
	m, err := s.Get(handle)
	if err != nil {
		return Meta{}, "", fmt.Errorf("store: read %q: %w", handle, ErrNotFound)
	}
	b, err := os.ReadFile(filepath.Join(s.dir, handle))
	if err != nil {
		return m, "", fmt.Errorf("store: read %q: %w", handle, err)
	}
	return m, string(b), nil
}

// List returns the metadata of every stored output, in the order stored.
func (s *Store) List() []Meta {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Meta, len(s.order))
	for i, h := range s.order {
		out[i] = s.metas[h]
	}
	return out
}

// Len returns the number of stored outputs.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.order)
}

// Close removes the session directory and everything in it. Calling it again
// does nothing.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.metas, s.order = map[string]Meta{}, nil
	open.remove(s)
	if err := os.RemoveAll(s.dir); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}
