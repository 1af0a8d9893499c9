// Package depcheck holds the dependency rule of the layout (docs/development.md,
// "Layout") as a Go test: no package under core depends, directly or
// through another package, on the harness, the fakes, cmd, or a test
// framework (Ginkgo, Gomega, go-cmp). `make deps` runs that test, and
// `go test ./...` runs it with everything else. It has no code of its own:
// the rule is the test, and Forbidden below.
package depcheck

import "regexp"

// Forbidden matches the import paths that core must never depend on.
var Forbidden = regexp.MustCompile(`^(github\.com/toolout/toolout/(harness|fakes|cmd)|github\.com/onsi/(ginkgo|gomega)|github\.com/google/go-cmp)(/|$)`)
