package session_test

import (
	"math"
	"testing"

	"github.com/toolout/toolout/core/store"
)

// FuzzDecide checks checkDecide's properties (an exempt tool never stored,
// storing monotone in size, no overflow or panic) on any byte cap, k, tool,
// sizes and context left.
func FuzzDecide(f *testing.F) {
	f.Add(100, 1.0, uint8(0), 101, 10, 0, 0, 1000)
	f.Add(300, 0.5, uint8(6), 400, 100, 1, 1, 50)
	f.Add(0, 0.29, uint8(1), 50, 30, 100, 100, 100)
	f.Add(-1, math.NaN(), uint8(7), math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt-1)
	f.Add(math.MinInt, math.Inf(1), uint8(255), math.MinInt, math.MinInt, math.MinInt, math.MinInt, math.MinInt)
	f.Fuzz(func(t *testing.T, maxBytes int, k float64, tool uint8, bytes, tokens, growBytes, growTokens, remaining int) {
		p := propertyPolicy(maxBytes, k)
		name := propertyTools[int(tool)%len(propertyTools)]
		a := store.Stats{Bytes: bytes, Tokens: tokens}
		if err := checkDecide(p, name, a, max(growBytes, 0), max(growTokens, 0), remaining); err != nil {
			t.Fatal(err)
		}
	})
}
