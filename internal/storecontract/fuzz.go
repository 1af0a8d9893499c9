package storecontract

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/fakes"
)

// The fuzz program: two option bytes (entry cap 1..5, byte cap 8..1028),
// then one operation per byte pair (code, arg).
const (
	opPutOriginal = iota
	opPutCompressed
	opOriginal
	opCompressed
	opStats
	opAdvance // by arg x 100ms
	opCount
)

const (
	fuzzOriginalTTL   = 10 * time.Second
	fuzzCompressedTTL = 30 * time.Second
)

var fuzzIDs = []string{"a", "bb", "ccc", "shadow_0123456789abcdef0123456789abcdef", "e", "ff", "g", "hhhhhhhhhhhhhhhh"}

// fuzzCallers are the callers of originals, picked by an argument's top
// two bits (arguments below 64 are the anonymous caller): one that is the
// hash form the gateway uses, one that holds OriginalKey's separator, one
// that is an id.
var fuzzCallers = []string{gateway.AnonymousCaller, "0123456789abcdef0123456789abcdef", "1:a", "a"}

// Fuzz is the body of a backend's fuzz target. It runs an operation
// program against a store from open and against a model that rescans a
// slice on every step, and requires the same answers: every lookup, every
// Stats (live entries and bytes after expiry, with no lookup needed), and
// the bounds after every step. The seeds are the files in seedDir (the
// request bodies of the gateway scenarios) as values, with the programs of
// the defects the contract specs found: no byte cap, no bytes in Stats,
// expired entries kept until looked up, a re-put counted twice.
//
// open returns an empty store for one run of a program; it may skip t. Fuzz
// closes the store.
func Fuzz(f *testing.F, seedDir string, open func(*testing.T, gateway.StoreOptions) gateway.Store) {
	bodies, err := filepath.Glob(filepath.Join(seedDir, "*"))
	if err != nil || len(bodies) == 0 {
		f.Fatalf("storecontract: no fuzz seeds in %s (%v)", seedDir, err)
	}
	programs := [][]byte{
		// a byte cap of 28: puts of both kinds evict the oldest
		{0, 5, opPutOriginal, 20, opPutCompressed, 10, opPutOriginal, 30, opStats, 0},
		// expiry without a lookup, then a put after it
		{4, 250, opPutOriginal, 1, opPutCompressed, 2, opAdvance, 100, opStats, 0, opAdvance, 200, opPutOriginal, 3, opStats, 0},
		// a re-put of one id replaces and is counted once; an entry past the cap is not kept
		{4, 2, opPutOriginal, 8, opPutOriginal, 16, opPutOriginal, 200, opOriginal, 8, opStats, 0},
		// the entry cap of one kind leaves the other kind alone
		{1, 250, opPutCompressed, 1, opPutOriginal, 1, opPutOriginal, 2, opCompressed, 1, opOriginal, 1, opStats, 0},
		// caller scope: the original of id "bb" put by caller 1 (arg 65)
		// is missing for the anonymous caller (arg 1), for caller 2 (129)
		// and caller 3 (193), and answered to caller 1; a put of the same id
		// by caller 2 leaves caller 1's
		{4, 250, opPutOriginal, 65, opOriginal, 1, opOriginal, 129, opOriginal, 193, opOriginal, 65,
			opPutOriginal, 129, opOriginal, 65, opOriginal, 129, opStats, 0},
	}
	for _, b := range bodies {
		data, err := os.ReadFile(b)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range programs {
			f.Add(p, string(data))
		}
	}
	f.Add(programs[0], "")
	f.Fuzz(func(t *testing.T, program []byte, text string) {
		if len(program) < 2 {
			return
		}
		program = program[:min(len(program), 2+2*500)]
		clock := &fakes.Clock{Step: -1}
		opts := gateway.StoreOptions{
			OriginalTTL: fuzzOriginalTTL, CompressedTTL: fuzzCompressedTTL,
			MaxEntries: 1 + int(program[0])%5, MaxBytes: 8 + 4*int64(program[1]),
			Sources: core.Sources{Now: clock.Now},
		}
		s := open(t, opts)
		defer s.Close()
		m := &model{opts: opts}
		for i := 2; i+1 < len(program); i += 2 {
			code, arg := program[i]%opCount, program[i+1]
			op := fuzzOp{code: code, arg: arg, id: fuzzIDs[int(arg)%len(fuzzIDs)], caller: fuzzCallers[arg>>6],
				value: text[:(int(arg)*7)%(len(text)+1)]}
			step := fmt.Sprintf("step %d (code %d, arg %d)", i/2, code, arg)
			if err := check(s, m, clock, op); err != nil {
				t.Fatalf("%s: %v", step, err)
			}
			st, err := s.Stats(context.Background())
			if err != nil {
				t.Fatalf("%s: stats: %v", step, err)
			}
			if st.Originals > opts.MaxEntries || st.Compressed > opts.MaxEntries || st.Bytes > opts.MaxBytes {
				t.Fatalf("%s: stats %+v past the bounds of %+v", step, st, opts)
			}
		}
	})
}

// fuzzOp is one operation of a program: its code, its argument, and the
// id, caller (originals only) and value the argument picks.
type fuzzOp struct {
	code, arg         byte
	id, caller, value string
}

// check runs one operation on the store and on the model and compares.
func check(s gateway.Store, m *model, clock *fakes.Clock, op fuzzOp) error {
	ctx := context.Background()
	var err error
	switch op.code {
	case opPutOriginal:
		err = s.PutOriginal(ctx, op.caller, op.id, op.value)
		m.put(0, op.caller, op.id, op.value, clock.Now())
	case opPutCompressed:
		err = s.PutCompressed(ctx, op.id, op.value)
		m.put(1, "", op.id, op.value, clock.Now())
	case opOriginal, opCompressed:
		var v string
		var ok bool
		var wv string
		var wok bool
		if op.code == opOriginal {
			v, ok, err = s.Original(ctx, op.caller, op.id)
			wv, wok = m.get(0, op.caller, op.id, clock.Now())
		} else {
			v, ok, err = s.Compressed(ctx, op.id)
			wv, wok = m.get(1, "", op.id, clock.Now())
		}
		if v != wv || ok != wok {
			return fmt.Errorf("get %q (caller %q): (%q, %v), want (%q, %v)", op.id, op.caller, v, ok, wv, wok)
		}
	case opStats:
		st, serr := s.Stats(ctx)
		if want := m.stats(clock.Now()); st != want {
			return fmt.Errorf("stats %+v, want %+v", st, want)
		}
		err = serr
	case opAdvance:
		clock.Advance(time.Duration(op.arg) * 100 * time.Millisecond)
	}
	return err
}

// model is the contract written the slow, obvious way: one slice in put
// order, rescanned on every step.
type model struct {
	opts    gateway.StoreOptions
	entries []modelEntry
}

type modelEntry struct {
	kind              int    // 0 original, 1 compressed
	caller, id, value string // caller: "" for a compressed text
	expires           time.Time
}

func (e modelEntry) size() int64 { return int64(len(e.caller) + len(e.id) + len(e.value)) }

func (m *model) expire(now time.Time) {
	m.filter(func(e modelEntry) bool { return now.Before(e.expires) })
}

func (m *model) filter(keep func(modelEntry) bool) {
	var out []modelEntry
	for _, e := range m.entries {
		if keep(e) {
			out = append(out, e)
		}
	}
	m.entries = out
}

func (m *model) put(kind int, caller, id, value string, now time.Time) {
	m.expire(now)
	m.filter(func(e modelEntry) bool { return e.kind != kind || e.caller != caller || e.id != id })
	ttl := m.opts.OriginalTTL
	if kind == 1 {
		ttl = m.opts.CompressedTTL
	}
	e := modelEntry{kind, caller, id, value, now.Add(ttl)}
	if e.size() > m.opts.MaxBytes {
		return
	}
	m.entries = append(m.entries, e)
	for m.count(kind) > m.opts.MaxEntries {
		first := true
		m.filter(func(e modelEntry) bool {
			drop := first && e.kind == kind
			first = first && !drop
			return !drop
		})
	}
	for m.bytes() > m.opts.MaxBytes {
		m.entries = m.entries[1:]
	}
}

func (m *model) get(kind int, caller, id string, now time.Time) (string, bool) {
	m.expire(now)
	for _, e := range m.entries {
		if e.kind == kind && e.caller == caller && e.id == id {
			return e.value, true
		}
	}
	return "", false
}

func (m *model) stats(now time.Time) gateway.StoreStats {
	m.expire(now)
	st := gateway.StoreStats{Bytes: m.bytes()}
	st.Originals = m.count(0)
	st.Compressed = len(m.entries) - st.Originals
	return st
}

func (m *model) count(kind int) int {
	n := 0
	for _, e := range m.entries {
		if e.kind == kind {
			n++
		}
	}
	return n
}

func (m *model) bytes() int64 {
	var n int64
	for _, e := range m.entries {
		n += e.size()
	}
	return n
}
