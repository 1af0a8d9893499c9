//go:build race

package schema_test

// raceEnabled: the race detector's runtime allocates more, so absolute
// memory bounds are not checked under it.
const raceEnabled = true

// linearBound is the most that ten times the input may allocate, as a
// multiple of what the input allocates. Under the race detector, sync.Pool
// drops a random share of what is put back (fmt's printers, encoding/json's
// encoders), so one measurement of the same work varies by a fifth: six runs
// of each adversarial schema read 8.6x to 11.7x where the build without race
// reads 9.3x every time (shared-base read over 12x once in CI). Twenty still
// fails a quadratic path, which allocates a hundredfold.
const linearBound = 20
