package leaked_test

import (
	"testing"

	"github.com/toolout/toolout/core/leaked"
)

// FuzzExtractPythonic is FuzzExtract with Options.Pythonic on (FuzzExtract
// runs with the default options, where '[' starts nothing): the same
// contract on any input, and the same answer twice. Every scenario input,
// the defect inputs, the families' seeds and pythonicSeeds seed it.
func FuzzExtractPythonic(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, in string) {
		checkExtract(t, in, "pythonic", func() leaked.Options { return leaked.Options{Sources: seqIDs(), Pythonic: true} })
	})
}
