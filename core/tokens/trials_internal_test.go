package tokens

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
