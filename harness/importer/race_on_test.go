//go:build race

package importer_test

// memScale divides the trace sizes of the memory specs: under the race
// detector, whose instrumentation makes each import about fifteen times
// slower, they run at a quarter of the size (the specs took 82 s at full
// size under race, 6 s without).
const memScale = 4
