//go:build race

package schema_test

// raceEnabled: the race detector's runtime allocates more, so absolute
// memory bounds are not checked under it.
const raceEnabled = true
