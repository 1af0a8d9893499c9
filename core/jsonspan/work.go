package jsonspan

import "sync"

// work is what a parse needs only while it runs, lent by workPool so that
// a reader of many small texts (a trace's lines) does not grow it again
// for each, nor a gateway for each request.
type work struct {
	// scratch is where strings with escapes are decoded, before each is
	// copied to a string of its own size.
	scratch []byte
	// The members of the open containers, each container's after those
	// of the one it is in: a container takes its own, in slices of their
	// size, when it closes.
	keys   []string
	starts []int
	vals   []*Node
	// strs holds the shared strings of a parse with Options.Intern.
	strs map[string]string
}

var workPool sync.Pool // of *work

// maxScratch is the largest decode buffer a parse gives back to workPool;
// maxMembers the most members of open containers whose stacks it gives
// back (a list of a million items keeps its stacks to itself).
const (
	maxScratch = 4 << 20
	maxMembers = 1 << 16
)

// release gives p's buffers back to workPool, holding nothing of the parse:
// no node, key or string of it stays reachable from the pool.
func (p *parser) release() {
	w := p.work
	p.work = nil
	if cap(w.scratch) > maxScratch {
		w.scratch = nil
	}
	w.scratch = w.scratch[:0]
	if cap(w.vals) > maxMembers || cap(w.keys) > maxMembers {
		w.keys, w.starts, w.vals = nil, nil, nil
	}
	clear(w.keys[:cap(w.keys)])
	clear(w.vals[:cap(w.vals)])
	w.keys, w.starts, w.vals = w.keys[:0], w.starts[:0], w.vals[:0]
	if len(w.strs) > 0 {
		clear(w.strs)
	}
	workPool.Put(w)
}
