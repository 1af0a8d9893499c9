//go:build race

package tokens

// differentialShare divides the trials of the random differential tests in
// this build: under the race detector, which makes the tokenizer several times
// slower and has nothing to find in their single-goroutine loops, a tenth of
// them run. `make test` runs this package a second time without -race, where
// every trial runs.
const differentialShare = 10
