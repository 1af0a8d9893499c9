package memstore

import "time"

// entry is one stored value, linked into its kind's queue in put order.
type entry struct {
	id, value  string // id: the key of its queue (gateway.OriginalKey for an original)
	keyBytes   int    // what the key counts: len(caller)+len(id) of an original, len(id) of a compressed text
	heap       int64  // what the entry holds: its key's and value's allocations and EntryOverhead
	expires    time.Time
	seq        uint64 // put order across both kinds
	prev, next *entry
}

// size is what the entry counts against MaxBytes.
func (e *entry) size() int64 { return int64(e.keyBytes + len(e.value)) }

// queue holds the entries of one kind: a map by id and a doubly linked list
// in put order. Every entry of a kind has the same TTL, so put order is
// also expiry order.
type queue struct {
	kind       string // "original" or "compressed", for errors
	ttl        time.Duration
	byID       map[string]*entry
	head, tail *entry // oldest, newest
}

func newQueue(kind string, ttl time.Duration) *queue {
	return &queue{kind: kind, ttl: ttl, byID: map[string]*entry{}}
}

// clear drops every entry.
func (q *queue) clear() {
	q.byID = map[string]*entry{}
	q.head, q.tail = nil, nil
}

func (q *queue) len() int { return len(q.byID) }

// push appends e as the newest entry. Its id must not be in q.
func (q *queue) push(e *entry) {
	q.byID[e.id] = e
	e.prev, e.next = q.tail, nil
	if q.tail != nil {
		q.tail.next = e
	} else {
		q.head = e
	}
	q.tail = e
}

// remove unlinks e, which must be in q.
func (q *queue) remove(e *entry) {
	delete(q.byID, e.id)
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		q.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		q.tail = e.prev
	}
	e.prev, e.next = nil, nil
}
