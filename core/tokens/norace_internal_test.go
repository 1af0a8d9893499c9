//go:build !race

package tokens

// differentialShare divides the trials of the random differential tests in
// this build: 1, every trial, without the race detector. `make test` runs them
// so in its second pass, `go test -count=1 -tags differential ./core/tokens`,
// which builds no Ginkgo file (see race_internal_test.go).
const differentialShare = 1
