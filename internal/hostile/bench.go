package hostile

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
)

// Sizes are the sizes of a pair that `make bench-linear` compares: the
// larger may cost at most 12 times the smaller (bench/linear.awk).
var Sizes = []int{1 << 20, 10 << 20}

// SizeName names a size as the pairs do: 1MiB, 960KiB, 100B.
func SizeName(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// Pairs runs body as the sub-benchmarks input=NAME/size=1MiB and
// size=10MiB of each of inputs, with the bytes set and allocations
// reported, after WarmHeap. Each input is made inside its sub-benchmark,
// so that the inputs of a whole run are never held at once.
func Pairs(b *testing.B, inputs []Input, body func(b *testing.B, data []byte)) {
	WarmHeap()
	for _, in := range inputs {
		for _, size := range Sizes {
			b.Run("input="+in.Name+"/size="+SizeName(size), func(b *testing.B) {
				data := in.Make(size)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				body(b, data)
			})
		}
	}
}

var warmOnce sync.Once

// WarmHeap faults in the heap once per process when the collector is off
// and a memory limit is set, as `make bench-linear` runs (GOGC=off
// GOMEMLIMIT=4GiB); otherwise it does nothing. Without it the first
// gigabytes that the benchmarks allocate come from pages the kernel has
// never handed out, and every page of them costs a fault and a kernel
// clear; after the first collection at the limit, the runtime reuses pages
// it already has. Which size of a pair fell before that point decided its
// time: the schema array-chain pair read 17x in a full run and 4.9x run
// alone. With the heap faulted in first, every benchmark reuses pages that
// the runtime holds, and the collector, which runs only at the limit, finds
// a live heap of a few megabytes. Every adversarial benchmark calls it
// first (Pairs does), in whatever package it lives.
func WarmHeap() { warmOnce.Do(warmHeap) }

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
