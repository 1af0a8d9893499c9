package schema

// obj is a JSON object that keeps its keys in document order, so that
// summaries list fields in the order the schema's author wrote them. A
// duplicate key keeps its first position and its last value.
type obj struct {
	kvs []kv
	idx map[string]int // key -> position in kvs, built once kvs is long
	n   *node          // the node built from this object (builder memo)
	// next is the position after the last key found through idx: lookups
	// in declaration order (definitions that refer to their neighbours,
	// as generated schemas do) find their key there without hashing.
	next int
}

type kv struct {
	key string
	val any
}

// indexFrom is the length from which an object keeps a key index; shorter
// objects are searched linearly.
const indexFrom = 8

// lookup returns the value of key k.
func (o *obj) lookup(k string) (any, bool) {
	if o.idx != nil {
		i := o.next
		if i >= len(o.kvs) || o.kvs[i].key != k {
			var ok bool
			if i, ok = o.idx[k]; !ok {
				return nil, false
			}
		}
		o.next = i + 1
		return o.kvs[i].val, true
	}
	for i := range o.kvs {
		if o.kvs[i].key == k {
			return o.kvs[i].val, true
		}
	}
	return nil, false
}

func (o *obj) get(k string) any {
	v, _ := o.lookup(k)
	return v
}

func (o *obj) has(k string) bool {
	_, ok := o.lookup(k)
	return ok
}

// finish indexes a decoded object (when it is long) and removes duplicate
// keys: one map insertion per key, and a second pass only when there is a
// duplicate.
func (o *obj) finish() {
	if len(o.kvs) <= indexFrom {
		for i := 1; i < len(o.kvs); i++ {
			for j := range i {
				if o.kvs[i].key == o.kvs[j].key {
					o.dedupe()
					return
				}
			}
		}
		return
	}
	idx := make(map[string]int, len(o.kvs))
	for i, e := range o.kvs {
		n := len(idx)
		if idx[e.key] = i; len(idx) == n {
			o.dedupe()
			return
		}
	}
	o.idx = idx
}

// dedupe keeps each key once, in its first place, with its last value.
func (o *obj) dedupe() {
	idx := make(map[string]int, len(o.kvs))
	out := o.kvs[:0]
	for _, e := range o.kvs {
		if i, ok := idx[e.key]; ok {
			out[i].val = e.val
			continue
		}
		idx[e.key] = len(out)
		out = append(out, e)
	}
	o.kvs = out
	if len(out) > indexFrom {
		o.idx = idx
	}
}
