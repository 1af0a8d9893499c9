package proxy

import "testing"

// TestBodyPoolClasses: a lent buffer holds the body asked for, whatever
// the pool gave back before; buffers outside the pooled sizes are made.
func TestBodyPoolClasses(t *testing.T) {
	for _, n := range []int{1, poolMin/2 - 1, poolMin / 2, poolMin - 1, poolMin, 200_000, 262_144, maxPresize} {
		giveBackBody(make([]byte, 0, n*3/4+1))
		giveBackBody(make([]byte, 0, n))
		b := lendBody(n)
		if len(b) != 0 || cap(b) < n {
			t.Fatalf("lendBody(%d): len %d cap %d", n, len(b), cap(b))
		}
		giveBackBody(b)
	}
}
