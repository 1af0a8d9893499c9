package gateway

import "sync"

// The proxy reads each request body of 64 KiB to 1 MiB (its declared
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
	poolClasses = 5 // 64 KiB to 1 MiB (maxPresize), doubling
)

var bodyPools [poolClasses]sync.Pool // of *[]byte, by class

// poisonGivenBack, set by a spec, fills each buffer given back with 'X',
// so that a read after it shows.
var poisonGivenBack bool

// lendBody returns a buffer of length 0 and capacity at least n: for n
// from poolMin/2 to 1 MiB one of the pool's, whose capacity is the power
// of two from poolMin up that holds n.
func lendBody(n int) []byte {
	if n < poolMin/2 || n > poolMin<<(poolClasses-1) {
		return make([]byte, 0, n)
	}
	k := 0
	for poolMin<<k < n {
		k++
	}
	if b, ok := bodyPools[k].Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return make([]byte, 0, poolMin<<k)
}

// giveBackBody returns b to the pool of its capacity, when it has one.
func giveBackBody(b []byte) {
	for k := range poolClasses {
		if cap(b) != poolMin<<k {
			continue
		}
		b = b[:cap(b)]
		if poisonGivenBack {
			for i := range b {
				b[i] = 'X'
			}
		}
		bodyPools[k].Put(&b)
		return
	}
}
