package chunk

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/tokens"
)

// TestIndexMatchesSlices checks the compact index, of both kinds (every
// boundary as varints; marks only, walking blocks again on demand), against
// the two slices it replaced, at block and segment edges (n around multiples
// of markEvery and of markEvery·marksPerSegment) and with pieces of zero
// tokens and of any length: every boundary, and every search, in order and
// not.
func TestIndexMatchesSlices(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 4))
	for _, n := range []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 1000, 4097, markEvery * marksPerSegment, markEvery*marksPerSegment + 1, 300_000} {
		bound, cum := []int{0}, []int{0}
		for range n {
			length := 1 + rng.IntN(3)
			if rng.IntN(50) == 0 {
				length = rng.IntN(1 << 20)
			}
			bound = append(bound, bound[len(bound)-1]+length)
			cum = append(cum, cum[len(cum)-1]+rng.IntN(3)+rng.IntN(2)*rng.IntN(1<<16))
		}
		for kind, x := range map[string]*index{"varints": varintIndex(bound, cum), "marks": marksIndex(rng, bound, cum)} {
			if x.n != n {
				t.Fatalf("%s: n = %d, want %d", kind, x.n, n)
			}
			for _, k := range probes(rng, n) {
				if off, tok := x.at(k); off != bound[k] || tok != cum[k] {
					t.Fatalf("%s, n %d: boundary %d = (%d, %d), want (%d, %d)", kind, n, k, off, tok, bound[k], cum[k])
				}
			}
			for v := -1; v <= cum[n]+1; v += 1 + rng.IntN(1+cum[n]/300) {
				want := sort.Search(len(cum), func(k int) bool { return cum[k] > v })
				if got := x.first(v + 1); got != want {
					t.Fatalf("%s, n %d: first boundary over %d = %d, want %d", kind, n, v, got, want)
				}
				want = sort.Search(len(cum), func(k int) bool { return cum[k] >= v })
				if got := x.first(v); got != want {
					t.Fatalf("%s, n %d: first boundary at or over %d = %d, want %d", kind, n, v, got, want)
				}
			}
			for range 300 { // in random order: searches gallop back and forth from the last answer
				v := rng.IntN(cum[n]+3) - 1
				want := sort.Search(len(cum), func(k int) bool { return cum[k] > v })
				if got := x.first(v + 1); got != want {
					t.Fatalf("%s, n %d: first boundary over %d (random order) = %d, want %d", kind, n, v, got, want)
				}
			}
			x.release()
		}
	}
}

// TestIndexLines checks lineBack and lineForward, which step over blocks
// without a line break, against a walk over every boundary, on texts from
// one line break in a few bytes to one in thousands, for both kinds of
// index.
func TestIndexLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for _, n := range []int{1, 31, 32, 33, 64, 65, 500, 3000} {
		for _, every := range []int{0, 2, 16, 64, 256, 2000} {
			text, bound, cum := linesText(rng, n, every)
			for kind, x := range map[string]*index{"varints": varintIndex(bound, cum), "marks": marksIndex(rng, bound, cum)} {
				// From every boundary with no limit (every block is stepped
				// over or read), then from random ones with random limits.
				for trial := range n + 1 + 500 {
					k, lim := trial, -1
					if trial > n {
						k, lim = rng.IntN(n+1), rng.IntN(cum[n]+2)-1
					}
					back, forward := -1, -1
					for j := k; j > 0 && cum[j] >= lim; j-- {
						if text[bound[j]-1] == '\n' {
							back = j
							break
						}
					}
					for j := k; j < n && cum[j] <= lim; j++ {
						if j > 0 && text[bound[j]-1] == '\n' {
							forward = j
							break
						}
					}
					if got := x.lineBack(text, k, lim); got != back {
						t.Fatalf("%s, n %d, a line every %d pieces: lineBack(%d, %d) = %d, want %d", kind, n, every, k, lim, got, back)
					}
					if trial <= n { // no limit forward either
						lim = cum[n] + 1
						forward = -1
						for j := k; j < n; j++ {
							if j > 0 && text[bound[j]-1] == '\n' {
								forward = j
								break
							}
						}
					}
					if got := x.lineForward(text, k, lim); got != forward {
						t.Fatalf("%s, n %d, a line every %d pieces: lineForward(%d, %d) = %d, want %d", kind, n, every, k, lim, got, forward)
					}
				}
				x.release()
			}
		}
	}
}

// linesText returns a text of n pieces of 1 to 3 bytes, with their
// boundaries and the tokens before each. A piece ends a line (its last
// byte is a line break) once in every pieces on average, or, with every 0,
// only next to the edges of blocks (the first two and last two pieces of
// one), where stepping over a block would miss it by a byte; other line
// breaks fall inside pieces.
func linesText(rng *rand.Rand, n, every int) (string, []int, []int) {
	var b []byte
	bound, cum := []int{0}, []int{0}
	for k := range n {
		for range rng.IntN(3) {
			c := byte('a' + rng.IntN(26))
			if rng.IntN(500) == 0 {
				c = '\n'
			}
			b = append(b, c)
		}
		last := byte('a' + rng.IntN(26))
		switch i := k % markEvery; {
		case every > 0 && rng.IntN(every) == 0,
			every == 0 && (i < 2 || i >= markEvery-2) && rng.IntN(8) == 0:
			last = '\n'
		}
		b = append(b, last)
		bound = append(bound, len(b))
		cum = append(cum, cum[len(cum)-1]+rng.IntN(4))
	}
	return string(b), bound, cum
}

// varintIndex returns the index that keeps every boundary of bound and cum.
func varintIndex(bound, cum []int) *index {
	x := newIndex()
	for k := range bound {
		x.push(bound[k], cum[k])
	}
	return x
}

// marksIndex returns the index that keeps the marks of bound and cum only,
// filled as from WalkMarks in batches of random sizes, which walks their
// pieces again from the slices.
func marksIndex(rng *rand.Rand, bound, cum []int) *index {
	x := newIndex()
	x.resume = func(dst []core.Piece, from, n int) []core.Piece {
		for k := sort.SearchInts(bound, from); n > 0 && k+1 < len(bound); k, n = k+1, n-1 {
			dst = append(dst, core.Piece{Start: bound[k], End: bound[k+1], Tokens: cum[k+1] - cum[k]})
		}
		return dst
	}
	n := len(bound) - 1
	var marks []tokens.Mark
	for k := 0; k < n; k += markEvery {
		marks = append(marks, tokens.Mark{Piece: k, Offset: bound[k], Tokens: cum[k]})
	}
	marks = append(marks, tokens.Mark{Piece: n, Offset: bound[n], Tokens: cum[n]})
	for len(marks) > 0 {
		size := min(1+rng.IntN(200), len(marks))
		x.addMarks(marks[:size])
		marks = marks[size:]
	}
	return x
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
