//go:build !race

package schema_test

const raceEnabled = false

// linearBound is the most that ten times the input may allocate, as a
// multiple of what the input allocates: a linear path reads about 10x
// (the build without race measures the same bytes every run), a quadratic
// one a hundredfold.
const linearBound = 12
