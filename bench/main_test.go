package bench

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestMain faults in the heap before any benchmark when the collector is off
// and a memory limit is set, as `make bench-linear` runs (GOGC=off
// GOMEMLIMIT=4GiB). Without it the first gigabytes that the benchmarks
// allocate come from pages the kernel has never handed out, and every page of
// them costs a fault and a kernel clear; after the first collection at the
// limit, the runtime reuses pages it already has. Which size of a pair fell
// before that point decided its time: the schema array-chain pair read 17x in
// a full run and 4.9x run alone. With the heap faulted in first, every
// benchmark reuses pages that the runtime holds, and the collector, which runs
// only at the limit, finds a live heap of a few megabytes.
func TestMain(m *testing.M) {
	warmHeap()
	os.Exit(m.Run())
}

// warmHeap allocates and touches three quarters of the memory limit, then
// frees it; the runtime keeps the pages (its scavenger returns memory only
// past the limit, or past the collector's goal, which GOGC=off leaves
// unbounded).
func warmHeap() {
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(-1)
	if percent >= 0 || limit == math.MaxInt64 {
		return
	}
	const block = 64 << 20
	var hold [][]byte
	for n := int64(0); n+block <= limit/4*3; n += block {
		b := make([]byte, block)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		hold = append(hold, b)
	}
	runtime.KeepAlive(hold)
	hold = nil
	runtime.GC()
}
