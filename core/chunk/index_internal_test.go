package chunk

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// TestIndexMatchesSlices checks the compact index against the two slices it
// replaced, at block and segment edges (n around multiples of markEvery and
// of markEvery·marksPerSegment) and with pieces of zero tokens and of any
// length: every boundary, and every search, in order and not.
func TestIndexMatchesSlices(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 4))
	for _, n := range []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 1000, 4097, markEvery * marksPerSegment, markEvery*marksPerSegment + 1, 300_000} {
		bound, cum := []int{0}, []int{0}
		x := newIndex()
		x.push(0, 0)
		for range n {
			length := 1 + rng.IntN(3)
			if rng.IntN(50) == 0 {
				length = rng.IntN(1 << 20)
			}
			bound = append(bound, bound[len(bound)-1]+length)
			cum = append(cum, cum[len(cum)-1]+rng.IntN(3)+rng.IntN(2)*rng.IntN(1<<16))
			x.push(bound[len(bound)-1], cum[len(cum)-1])
		}
		if x.n != n {
			t.Fatalf("n = %d, want %d", x.n, n)
		}
		for _, k := range probes(rng, n) {
			if off, tok := x.at(k); off != bound[k] || tok != cum[k] {
				t.Fatalf("n %d: boundary %d = (%d, %d), want (%d, %d)", n, k, off, tok, bound[k], cum[k])
			}
		}
		for v := -1; v <= cum[n]+1; v += 1 + rng.IntN(1+cum[n]/300) {
			want := sort.Search(len(cum), func(k int) bool { return cum[k] > v })
			if got := x.first(func(tok int) bool { return tok > v }); got != want {
				t.Fatalf("n %d: first boundary over %d = %d, want %d", n, v, got, want)
			}
			want = sort.Search(len(cum), func(k int) bool { return cum[k] >= v })
			if got := x.first(func(tok int) bool { return tok >= v }); got != want {
				t.Fatalf("n %d: first boundary at or over %d = %d, want %d", n, v, got, want)
			}
		}
		for range 300 { // in random order: searches gallop back and forth from the last answer
			v := rng.IntN(cum[n]+3) - 1
			want := sort.Search(len(cum), func(k int) bool { return cum[k] > v })
			if got := x.first(func(tok int) bool { return tok > v }); got != want {
				t.Fatalf("n %d: first boundary over %d (random order) = %d, want %d", n, v, got, want)
			}
		}
	}
}

// probes returns the boundaries to look up in an index of n: every one up to
// 5,000, and past that (a test of 300,000 boundaries looked each up, three
// seconds under -race) the two on each side of every mark, where decoding
// starts and ends, and 10,000 more at random, in random order.
func probes(rng *rand.Rand, n int) []int {
	if n <= 5000 {
		return rng.Perm(n + 1)
	}
	var ks []int
	for m := 0; m <= n+2; m += markEvery {
		for k := max(m-2, 0); k <= min(m+2, n); k++ {
			ks = append(ks, k)
		}
	}
	for range 10_000 {
		ks = append(ks, rng.IntN(n+1))
	}
	rng.Shuffle(len(ks), func(i, j int) { ks[i], ks[j] = ks[j], ks[i] })
	return ks
}
