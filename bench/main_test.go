package bench

import (
	"os"
	"testing"

	"github.com/toolout/toolout/internal/hostile"
)

// TestMain faults in the heap before any benchmark when the collector is off
// and a memory limit is set, as `make bench-linear` runs (GOGC=off
// GOMEMLIMIT=4GiB); hostile.WarmHeap says why.
func TestMain(m *testing.M) {
	hostile.WarmHeap()
	os.Exit(m.Run())
}
