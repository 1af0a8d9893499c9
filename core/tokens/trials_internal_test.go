package tokens

import "testing"

// SkipUnderRace skips a single-goroutine differential or fuzz seed run under
// the race detector, which makes the tokenizer and tiktoken-go ten times
// slower and has nothing to find in one goroutine. Test files of package
// tokens_test use it too.
//
// `make test` runs this package twice. The first pass, `go test -race
// ./...`, runs the Ginkgo specs (concurrent use among them) and skips these
// plain tests. The second pass, `go test -count=1 -tags differential
// ./core/tokens`, without -race, runs every trial of every one of them; the
// differential tag leaves out every file that imports Ginkgo or Gomega (they
// are marked //go:build !differential), so that pass compiles only the
// standard library, core, core/tokens, the tiktoken-go reference and the
// YAML reader of the fuzz seeds, not the test frameworks a second time
// without -race. The tag selects files only: the skip depends on -race
// alone, so `go test ./core/tokens` runs everything.
func SkipUnderRace(tb testing.TB) {
	tb.Helper()
	if raceDetector {
		tb.Skip("a single-goroutine differential: make test runs it without -race (go test -tags differential ./core/tokens)")
	}
}
