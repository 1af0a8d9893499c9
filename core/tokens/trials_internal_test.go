package tokens

import "slices"

// Trials returns how many random trials a differential runs: n, or a quarter
// of n under the race detector. make test runs every package once, with
// -race, which makes the tokenizer and tiktoken-go about ten times slower and
// has nothing to find in these single-goroutine comparisons; a quarter keeps
// 5,000 splitter strings and 1,000 random texts per encoding in every CI run
// (the first quarter of the same fixed-seed sequence), and `go test
// ./core/tokens` without -race runs them all. Test files of package
// tokens_test use it too.
func Trials(n int) int {
	if raceEnabled {
		return max(n/4, 1)
	}
	return n
}

// FixtureSample reports whether the fixture of tiktoken's counts
// (unicode_test.go) checks code point r: every one, or under the race
// detector every 16th and each whose classes Go's Unicode tables give
// otherwise (goTablesDisagree). The full pass counts 8.9 million strings, 2.5 s
// without race, about 30 s with it (make test's one pass runs under race, and
// these single-goroutine counts have no race to find); the sample takes 2 s.
func FixtureSample(r rune) bool {
	if !raceEnabled || r%16 == 0 {
		return true
	}
	_, found := slices.BinarySearch(goTablesDisagree(), r)
	return found
}
