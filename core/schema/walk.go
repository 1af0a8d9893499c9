package schema

import (
	"fmt"
	"strings"
)

// A walk lists the fields below one start node. It is breadth-first over
// entries (a field reached by one path) and never follows recursion: the
// field edges that close a cycle in a depth-first search of the node graph
// from the start, in declaration order, are "back edges"; a field reached
// through one is shown but not expanded. Every entry a walk creates counts
// against its node cap, and every line it renders against its output cap,
// so a walk costs at most O(schema size + cap) whatever the schema's shape.

// edge is a field edge of the node graph: property i of a container, or
// (i = -1) the items of an array.
type edge struct {
	from *node
	i    int
}

// Per-walk marks of the depth-first search.
const (
	visiting uint8 = 1 + iota
	visited
)

// walker holds the state of one walk.
type walker struct {
	b    *builder
	gen  uint32
	back map[edge]bool
	// left is what is left of the node cap: entries a walk may create and,
	// separately, edges the search may explore.
	left   int
	capped bool
	// out is what is left of the output cap, in bytes of rendered lines.
	out int
}

// unwrapping is where following an array's items ends; done is false while
// it is being followed. Each array node holds its own (see node.unwrap),
// stamped with the walk's generation: a map keyed by node cost a hash and,
// past a few hundred thousand arrays, a cache miss per lookup, which made a
// 10 MiB chain of arrays 15 times slower than 1 MiB.
type unwrapping struct {
	n      *node
	arrays int32
	gen    uint32 // the walk this memo belongs to; 0: none
	rec    bool
	done   bool
}

// maxOutputBytes bounds the bytes of the lines one summary or inspection
// renders after the root's own fields. Only a schema built to repeat very
// long property names along deep paths comes near it.
const maxOutputBytes = 1 << 20

func newWalker(b *builder, maxNodes int) *walker {
	b.gen++
	return &walker{b: b, gen: b.gen, left: maxNodes, out: maxOutputBytes}
}

// classify runs the depth-first search from start and records its back
// edges. Only containers and arrays are marked (leaves may be shared
// singletons). It explores at most the node cap's number of edges; edges
// it did not reach count as forward edges, and a walk that follows a cycle
// among them still ends at its own node cap.
func (w *walker) classify(start *node) {
	type frame struct {
		n *node
		i int
	}
	start = w.b.norm(start)
	if start.kind == leafKind {
		return
	}
	start.gen, start.mark = w.gen, visiting
	stack := []frame{{n: start}}
	budget := w.left
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		var next *node
		e := edge{top.n, top.i}
		switch {
		case top.n.kind == arrayKind && top.i == 0:
			next, e.i = top.n.items, -1
			top.i = 1
		case top.n.kind == objectKind && top.i < len(top.n.props):
			next = top.n.props[top.i].n
			top.i++
		default:
			top.n.mark = visited
			stack = stack[:len(stack)-1]
			continue
		}
		if budget--; budget < 0 {
			return
		}
		next = w.b.norm(next)
		switch {
		case next.kind == leafKind:
		case next.gen != w.gen:
			next.gen, next.mark = w.gen, visiting
			stack = append(stack, frame{n: next})
		case next.mark == visiting:
			if w.back == nil {
				w.back = map[edge]bool{}
			}
			w.back[e] = true
		}
	}
}

// unwrap follows array items from n, counting the "[]" levels, until a
// node that is not an array, or through a back edge to its target (rec).
// Chains are memoized per walk, so each array is followed once however many
// fields reach it.
func (w *walker) unwrap(n *node) (res *node, arrays int, rec bool) {
	n = w.b.norm(n)
	var chain []*node
	for res == nil {
		u := &n.unwrap
		seen := u.gen == w.gen
		switch {
		case n.kind != arrayKind:
			res = n
		case seen && u.done:
			res, arrays, rec = u.n, int(u.arrays), u.rec
		case seen:
			// Items that lead back to an array of this chain: arrays
			// nested forever.
			res, rec = n, true
		case w.back[edge{n, -1}]:
			// Items that are an ancestor: shown, not expanded.
			chain = append(chain, n)
			res, rec = w.b.norm(n.items), true
		default:
			*u = unwrapping{gen: w.gen}
			chain = append(chain, n)
			n = w.b.norm(n.items)
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		arrays++
		chain[i].unwrap = unwrapping{n: res, arrays: int32(arrays), gen: w.gen, rec: rec, done: true}
	}
	return res, arrays, rec
}

// entry is one field reached by one path: its name, the "[]" levels after
// it, and its node with those arrays unwrapped.
type entry struct {
	parent *entry
	name   string // property name; for a walk's root, its absolute path
	n      *node
	kids   []*entry
	arrays int32
	depth  int32
	rec    bool // reached through a back edge: recursion, never expanded
	listed bool // a summary shows it
}

// rootEntry starts a walk at n, whose path is at.
func (w *walker) rootEntry(at string, n *node) *entry {
	w.classify(n)
	u, arrays, rec := w.unwrap(n)
	return &entry{name: at, n: u, arrays: int32(arrays), rec: rec}
}

// expandable reports a container with declared fields that the walk may
// open.
func (e *entry) expandable() bool { return !e.rec && e.n.container() && len(e.n.props) > 0 }

// marker reports an entry shown as a fold marker: a container whose fields
// are declared but not listed here, or whose keys are unknown.
func (e *entry) marker() bool {
	return e.n.container() && (len(e.n.props) > 0 || e.n.unknown)
}

// children returns e's fields as entries, creating them on first use. It
// returns false, and marks the walk capped, when they do not fit in what is
// left of the node cap.
func (w *walker) children(e *entry) ([]*entry, bool) {
	if e.kids != nil || !e.expandable() {
		return e.kids, e.kids != nil
	}
	if len(e.n.props) > w.left {
		w.capped = true
		return nil, false
	}
	w.left -= len(e.n.props)
	e.kids = make([]*entry, len(e.n.props))
	for i := range e.n.props {
		e.kids[i] = w.child(e, i)
	}
	return e.kids, true
}

// child makes the entry of e's field i.
func (w *walker) child(e *entry, i int) *entry {
	p := e.n.props[i]
	k := &entry{parent: e, name: p.name, depth: e.depth + 1}
	if w.back[edge{e.n, i}] {
		k.n, k.rec = w.b.norm(p.n), true
		return k
	}
	var arrays int
	k.n, arrays, k.rec = w.unwrap(p.n)
	k.arrays = int32(arrays)
	return k
}

// path renders e's path: absolute from the walk's root name, or relative
// to the root when rel is set.
func (e *entry) path(rel bool) string {
	var chain []*entry
	size := 0
	for p := e; p != nil; p = p.parent {
		if p.parent == nil && rel {
			break
		}
		chain = append(chain, p)
		size += len(p.name) + 2*int(p.arrays) + 1
	}
	var sb strings.Builder
	sb.Grow(size)
	for i := len(chain) - 1; i >= 0; i-- {
		p := chain[i]
		// A dot after anything written, and after a field whose name is
		// empty (written as nothing), so that its fields are not shown as
		// the root's: {"": {"l": ...}} is ".l", not "l".
		if p.parent != nil && (sb.Len() > 0 || i < len(chain)-1 && chain[i+1].parent != nil) {
			sb.WriteByte('.')
		}
		sb.WriteString(p.name)
		for range p.arrays {
			sb.WriteString("[]")
		}
	}
	return sb.String()
}

// line renders e as shown: "path: label" for a leaf, or a fold marker. The
// marker's field_path is always the absolute path.
func (e *entry) line(shown string) string {
	switch {
	case e.marker() && len(e.n.props) > 0:
		return fmt.Sprintf("%s: %s (contains %d sub-fields; inspect_tool_output(..., field_path=%q))", shown, e.n.label, len(e.n.props), e.path(false))
	case e.marker():
		return fmt.Sprintf("%s: %s (unknown keys; inspect_tool_output(..., field_path=%q))", shown, e.n.label, e.path(false))
	}
	return shown + ": " + e.n.label
}

// spend takes a rendered line's bytes from the output cap; false (and the
// walk capped) when it does not fit.
func (w *walker) spend(line string) bool {
	if len(line) > w.out {
		w.capped = true
		return false
	}
	w.out -= len(line)
	return true
}
