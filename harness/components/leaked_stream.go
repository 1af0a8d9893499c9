package components

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/toolout/toolout/core/leaked"
	"github.com/toolout/toolout/harness"
)

// streamSplits are the splits every leaked scenario's input is streamed
// in (leaked.CheckStream): whole, in deltas of 1, 2, 3, 7 and 64 bytes,
// and in a random split seeded by the input itself, so that a run is
// deterministic.
func streamSplits(text string) [][]int {
	h := fnv.New64a()
	h.Write([]byte(text))
	seed := h.Sum64()
	r := rand.New(rand.NewPCG(seed, seed>>1|1))
	var random []int
	for total := 0; total < len(text); {
		k := 1 + r.IntN(16)
		random = append(random, k)
		total += k
	}
	return [][]int{nil, {1}, {2}, {3}, {7}, {64}, random}
}

// streamCheck checks the stream over one split: leaked.CheckStream.
type streamCheck func(text string, sizes []int, opts leaked.Options) error

// streamMismatches streams text over each split of streamSplits and
// returns a mismatch for each split where check finds that the stream
// differs from Extract.
func streamMismatches(text string, opts leaked.Options, check streamCheck) []harness.Mismatch {
	var out []harness.Mismatch
	for _, sizes := range streamSplits(text) {
		if err := check(text, sizes, opts); err != nil {
			out = append(out, harness.Mismatch{Field: "stream", Msg: fmt.Sprintf("%s: %v", splitName(sizes), err)})
		}
	}
	return out
}

func splitName(sizes []int) string {
	switch len(sizes) {
	case 0:
		return "whole"
	case 1:
		return fmt.Sprintf("deltas of %d bytes", sizes[0])
	}
	return fmt.Sprintf("random deltas %v", sizes[:min(len(sizes), 8)])
}
