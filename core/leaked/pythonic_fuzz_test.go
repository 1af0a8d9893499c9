package leaked_test

import (
	"reflect"
	"testing"

	"github.com/toolout/toolout/core/leaked"
)

// FuzzExtractPythonic is FuzzExtract with Options.Pythonic on (FuzzExtract
// runs with the default options, where '[' starts nothing): the same
// contract on any input, and the same answer twice. Every scenario input,
// the defect inputs, the families' seeds and pythonicSeeds seed it.
func FuzzExtractPythonic(f *testing.F) {
	for _, v := range vectors() {
		f.Add(v.Input)
	}
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	for _, s := range familySeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		opts := func() leaked.Options { return leaked.Options{Sources: seqIDs(), Pythonic: true} }
		r := leaked.Extract(in, opts())
		if err := leaked.Check(in, r); err != nil {
			t.Fatalf("pythonic: %v", err)
		}
		if again := leaked.Extract(in, opts()); !reflect.DeepEqual(r, again) {
			t.Fatal("pythonic: not deterministic")
		}
	})
}
