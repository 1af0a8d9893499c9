package leaked_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/leaked"
)

// FuzzStream checks the stream's contract (leaked.CheckStream) over a
// random split of the input, drawn from seed, with fence scanning and
// pythonic calls off and on. The scenario inputs and the seeds of
// FuzzExtract seed it.
func FuzzStream(f *testing.F) {
	for k, v := range vectors() {
		f.Add(v.Input, uint64(k))
	}
	for k, s := range append(append(fuzzSeeds(), familySeeds()...), streamSeeds...) {
		f.Add(s, uint64(k))
	}
	// Eight spaces, then a byte that starts no block, in deltas of 8 and 5
	// (pythonic): the '0' was held back with the spaces.
	f.Add("        0", uint64(99))
	f.Fuzz(func(t *testing.T, in string, seed uint64) {
		for k, opts := range []leaked.Options{{}, {ScanFences: true}, {Pythonic: true}, {ScanFences: true, Pythonic: true}} {
			sizes := randomSizes(seed+uint64(k), len(in))
			if err := leaked.CheckStream(in, sizes, opts); err != nil {
				t.Fatalf("options %+v, deltas %v: %v", opts, sizes, err)
			}
		}
	})
}

// randomSizes returns delta lengths for a text of n bytes, drawn from
// seed: mostly short (1 to 8 bytes), sometimes up to 64.
func randomSizes(seed uint64, n int) []int {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var out []int
	for total := 0; total < n; {
		k := 1 + r.IntN(8)
		if r.IntN(8) == 0 {
			k = 1 + r.IntN(64)
		}
		out = append(out, k)
		total += k
	}
	return out
}

// streamSeeds are the inputs on which the stream differed from Extract.
var streamSeeds = []string{
	"<|python_tag|>[" + strings.Repeat(" ", 100) + `{"name":"a","parameters":{}}]`,
	"[" + strings.Repeat(" ", 100) + `{"name":"a","arguments":{}}]`,
	"<tool_call>[" + strings.Repeat(" ", 100) + `{"name":"a","arguments":{}}]</tool_call>`,
}
