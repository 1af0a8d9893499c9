package proxy

import "sync"

// The proxy reads each request body of 32 KiB to 1 MiB (its declared
// length) into a buffer lent from a pool, and gives it back once the
// request is done with it: a conversation sends its large tool results
// with every request, and a fresh buffer each time cost the page faults
// and zeroing of its memory and, near the process's memory limit, garbage
// collections. A body is given back only when nothing can read it after
// the request: not when its own bytes were forwarded (the transport may
// read a request body after the answer came), nor when the memo of long
// strings keeps it (known), nor on a body grown past its declared length
// (another buffer then). Every string the parse gives is a copy.
const (
	poolMin     = 64 << 10
	poolClasses = 6 // capacities from 32 KiB to 2 MiB (past maxPresize), doubling
)

var bodyPools [poolClasses]sync.Pool // of *[]byte, by class

// poisonGivenBack, set by a spec, fills each buffer given back with 'X',
// so that a read after it shows.
var poisonGivenBack bool

// lendBody returns a buffer of length 0 and capacity at least n: for n
// from poolMin/2 to maxPresize one of the pool's when it has one that fits,
// else a new one of exactly n bytes (a body the memo of long strings keeps
// is never given back: no room is lost rounding it up).
func lendBody(n int) []byte {
	k := poolClass(n)
	if n < poolMin/2 || k < 0 {
		return make([]byte, 0, n)
	}
	// The class of n holds buffers of n bytes or more but of less than
	// twice the class size; the class above, of twice n or more.
	for _, c := range []int{k, k + 1} {
		if c >= poolClasses {
			break
		}
		b, ok := bodyPools[c].Get().(*[]byte)
		if !ok {
			continue
		}
		if cap(*b) >= n {
			return (*b)[:0]
		}
		bodyPools[c].Put(b) // too small for this body: another's
	}
	return make([]byte, 0, n)
}

// poolClass is the class of the buffers of capacity n: the k with
// poolMin/2<<k <= n < poolMin<<k, or -1 past the largest.
func poolClass(n int) int {
	for k := range poolClasses {
		if n < poolMin<<k {
			return k
		}
	}
	return -1
}

// giveBackBody returns b to the pool of its capacity, when it has one.
func giveBackBody(b []byte) {
	k := poolClass(cap(b))
	if cap(b) < poolMin/2 || k < 0 {
		return
	}
	b = b[:cap(b)]
	if poisonGivenBack {
		for i := range b {
			b[i] = 'X'
		}
	}
	bodyPools[k].Put(&b)
}
