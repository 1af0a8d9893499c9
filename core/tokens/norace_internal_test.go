//go:build !race

package tokens

// differentialShare divides the trials of the random differential tests in
// this build: 1, every trial, without the race detector (see
// race_internal_test.go).
const differentialShare = 1
