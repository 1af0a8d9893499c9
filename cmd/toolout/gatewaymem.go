package main

import (
	"fmt"
	"math"
	"runtime/debug"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// The soft memory limit of `gateway serve` (runtime/debug.SetMemoryLimit).
// With the memory store it is the store's heap bound (memstore.HeapBound:
// store.max_bytes and the bookkeeping of max_entries entries of each kind)
// plus the proxy's memo of long request strings (proxy.KnownBytes) and
// memoryHeadroom for the requests in flight, the runtime and the garbage
// collector's work. The runtime's default alone collects when the
// heap doubles, so a full store of 256 MiB let the process grow to about
// twice that. A Redis store is out of process: no limit is set. The
// environment's GOMEMLIMIT, when set, is left as it is, and
// server.memory_limit sets another limit (bytes) or none (-1).
const (
	memoryHeadroom = 32 << 20
	minMemoryLimit = 16 << 20
)

// memoryLimit returns the soft memory limit gateway serve sets (0: none,
// the runtime's own is kept) and what it follows, for a line on stderr;
// with Redis and no server.memory_limit, no limit and no line. getenv
// reads the environment.
func (fc FileConfig) memoryLimit(getenv func(string) string) (int64, string, error) {
	l := fc.Server.MemoryLimit
	switch {
	case l < -1 || (l > 0 && l < minMemoryLimit):
		return 0, "", fmt.Errorf("server.memory_limit %d: want -1 (none), 0 (from the store) or at least %d bytes", l, minMemoryLimit)
	case fc.Store.Backend == "redis" && l == 0:
		return 0, "", nil // out of process: nothing to derive, nothing to say
	case getenv("GOMEMLIMIT") != "":
		return 0, "GOMEMLIMIT " + getenv("GOMEMLIMIT") + " from the environment", nil
	case l == -1:
		return 0, "none (server.memory_limit -1)", nil
	case l > 0:
		return l, "server.memory_limit", nil
	}
	o := fc.StoreOptions(core.Sources{})
	const extra = proxy.KnownBytes + memoryHeadroom
	if b := memstore.HeapBound(o); b > math.MaxInt64-extra {
		return 0, "none (the memory store's bound is past what an int64 holds)", nil
	}
	return memstore.HeapBound(o) + extra, fmt.Sprintf("the memory store's bound for store.max_bytes %d and max_entries %d, plus %d MiB",
		o.MaxBytes, o.MaxEntries, extra>>20), nil
}

// setMemoryLimit sets limit (when above 0) as the process's soft memory
// limit, says so on stderr (or why there is none, when why says), and
// returns the function that puts the limit before it back, unless another
// has been set since.
func setMemoryLimit(limit int64, why string, logf func(string, ...any)) (restore func()) {
	if limit <= 0 {
		if why != "" {
			logf("toolout gateway serve: memory limit: %s", why)
		}
		return func() {}
	}
	before := debug.SetMemoryLimit(limit)
	logf("toolout gateway serve: memory limit %d MiB (%s)", limit>>20, why)
	return func() {
		if now := debug.SetMemoryLimit(-1); now == limit {
			debug.SetMemoryLimit(before)
		}
	}
}
