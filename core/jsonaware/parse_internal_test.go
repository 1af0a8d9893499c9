package jsonaware

import "testing"

// TestInternClash gives a path the hash another path holds: intern tells
// them apart by their text, and gives the newcomer an id of its own, the
// same each time.
func TestInternClash(t *testing.T) {
	p := &parser{t: tree{src: []byte(`"a" "b"`)}, paths: map[uint64]pathEntry{}}
	a := p.intern(0, 1, 2)
	p.paths[p.pathHash(0, 5, 6)] = pathEntry{id: a, parent: 0, off: 1, end: 2} // "b" hashes as "a" did
	b := p.intern(0, 5, 6)
	if b == a || p.intern(0, 5, 6) != b || p.intern(0, 1, 2) != a {
		t.Fatalf("a %d, b %d, b again %d, a again %d", a, b, p.intern(0, 5, 6), p.intern(0, 1, 2))
	}
	p.paths[p.pathHash(0, -1, -1)] = pathEntry{id: a, parent: 0, off: 1, end: 2} // the rows of 0 hash as "a"
	if r := p.intern(0, -1, -1); r == a || r == b || p.intern(0, -1, -1) != r {
		t.Fatalf("rows %d, a %d, b %d", r, a, b)
	}
}
