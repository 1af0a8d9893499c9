//go:build race

package tokens

// differentialShare divides the trials of the random differential tests in
// this build: under the race detector, which makes the tokenizer several times
// slower and has nothing to find in their single-goroutine loops, a tenth of
// them run.
//
// `make test` runs this package twice. The first pass, `go test -race ./...`,
// runs everything: the Ginkgo specs, and the differentials (plain tests in
// files that import no test framework) with this share. The second pass,
// `go test -count=1 -tags differential ./core/tokens`, without -race, runs
// every trial; the differential tag leaves out every file that imports
// Ginkgo or Gomega (they are marked //go:build !differential), so that pass
// compiles only the standard library, core, core/tokens, the tiktoken-go
// reference and the YAML reader of the fuzz seeds, not the test frameworks
// and their dependencies a second time without -race. The tag selects files
// only: the share depends on -race alone.
const differentialShare = 10
