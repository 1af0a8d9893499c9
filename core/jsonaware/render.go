package jsonaware

import "unicode/utf8"

// level is one step of the ladder: how far strings and arrays are cut. A
// negative limit is no limit.
type level struct {
	s        int  // a string keeps at most s bytes of its text
	k        int  // an array of more than 2k+1 rows keeps its first and last k
	e        int  // error-like rows kept per array beyond the first and last k
	outliers bool // outlier rows kept
}

// render writes the tree at a level, compact. measure first sizes every
// node at the level (the writer needs the sizes of rows to decide whether
// a run of rows is worth a marker); value then writes.
type render struct {
	t     *tree
	lv    level
	sizes []int32 // size of each node's output at the level (a key: its literal)
	write bool
	out   []byte
	st    Stats
	tmp   [64]byte
}

// measure sizes the tree at the level and returns the output's size. It
// sizes only what the level writes and, of a run of rows the level cuts,
// only as many rows as decide whether the run's marker is shorter than the
// rows (see array): at the steps that cut most rows, a pass reads the kept
// rows and a few flags per cut row, not the whole tree. value then walks
// the same nodes, makes the same decisions, and so reads only sizes this
// pass set.
func (r *render) measure() int {
	if cap(r.sizes) < len(r.t.nodes) {
		r.sizes = make([]int32, len(r.t.nodes))
	}
	r.sizes = r.sizes[:len(r.t.nodes)]
	r.write = false
	return r.size(0)
}

// size sizes node i at the level (children before their parent), records
// it and returns it. The recursion is as deep as the input's nesting, at
// most MaxDepth.
func (r *render) size(i int32) int {
	n := &r.t.nodes[i]
	var size int
	switch n.kind {
	case kObj:
		size = r.object(i)
	case kArr:
		size = r.array(i)
	case kStr:
		size = r.str(n)
	default:
		size = int(n.end - n.off)
	}
	r.sizes[i] = int32(size)
	return size
}

// visit writes node i when writing (measure has sized it), or sizes it
// when measuring, and returns its size.
func (r *render) visit(i int32) int {
	if r.write {
		r.value(i)
		return int(r.sizes[i])
	}
	return r.size(i)
}

func (r *render) put(b []byte) {
	if r.write {
		r.out = append(r.out, b...)
	}
}

func (r *render) putByte(c byte) {
	if r.write {
		r.out = append(r.out, c)
	}
}

// value writes node i (measure has run) and returns the index of the node
// after it. The recursion is as deep as the input's nesting, at most
// MaxDepth.
func (r *render) value(i int32) int32 {
	r.write = true
	n := &r.t.nodes[i]
	switch n.kind {
	case kObj:
		r.object(i)
	case kArr:
		r.array(i)
	case kStr:
		r.str(n)
	default:
		r.put(r.t.src[n.off:n.end])
	}
	return r.t.next(i)
}

// object writes (or sizes) the object at node i: every member kept.
func (r *render) object(i int32) int {
	n := &r.t.nodes[i]
	size := 2
	r.putByte('{')
	for k := i + 1; k < n.end; {
		if k > i+1 {
			r.putByte(',')
			size++
		}
		key := &r.t.nodes[k]
		r.put(r.t.src[key.off:key.end])
		r.putByte(':')
		size += int(key.end-key.off) + 1 + r.visit(k+1)
		k = r.t.next(k + 1)
	}
	r.putByte('}')
	return size
}

// run is a run of consecutive rows an array does not keep.
type run struct {
	first int32 // node of its first row
	rows  int   // rows in it
	count int   // rows it stands for (a marker row counts its own count)
	cut   int   // rows of it that are not markers
}

// array writes (or sizes) the array at node i. A run of rows the level
// does not keep becomes one rows marker if that is shorter than the rows,
// and stays as it is otherwise; so no step writes an array larger than the
// one before it, and the smallest form is the smallest of all.
func (r *render) array(i int32) int {
	n := &r.t.nodes[i]
	a := r.t.arrays[n.aux]
	rows, k := int(a.rows), r.lv.k
	cut := k >= 0 && rows > 2*k+1
	if !cut && !r.write {
		size := 1 + max(rows, 1)
		for j := i + 1; j < n.end; j = r.t.next(j) {
			size += r.size(j)
		}
		return size
	}
	size, elems, errIdx := 2, 0, 0
	comma := func() {
		if elems > 0 {
			r.putByte(',')
			size++
		}
		elems++
	}
	var g run
	flush := func(end int32) {
		if g.rows == 0 {
			return
		}
		marker := appendRowsMarker(r.tmp[:0], g.count)
		if r.longer(g.first, end, len(marker)+3) {
			comma()
			size += len(marker) + 2
			r.putByte('"')
			r.put(marker)
			r.putByte('"')
			if r.write && g.cut > 0 {
				r.st.RowsCut += g.cut
				r.st.ArraysShortened++
			}
		} else {
			for j := g.first; j < end; j = r.t.next(j) {
				comma()
				size += int(r.sizes[j]) // longer sized every row
				if r.write {
					r.value(j)
				}
			}
		}
		g = run{}
	}
	r.putByte('[')
	row := 0
	for j := i + 1; j < n.end; j, row = r.t.next(j), row+1 {
		m := &r.t.nodes[j]
		isErr := m.flags&(fErr|fMarker) == fErr
		keep := !cut || row < k || row >= rows-k || r.keepAnyway(m, isErr, errIdx, int(a.errs))
		if isErr {
			errIdx++
		}
		if keep {
			flush(j)
			comma()
			size += r.visit(j)
			continue
		}
		if g.rows == 0 {
			g.first = j
		}
		g.rows++
		if m.flags&fMarker != 0 {
			c, _ := parseRowsMarker(r.t.src[m.off+1 : m.end-1])
			g.count += c
		} else {
			g.count++
			g.cut++
		}
	}
	flush(n.end)
	r.putByte(']')
	return size
}

// longer reports whether the rows from node first to node end, written
// with a comma after each, take more than limit bytes. It sizes rows (when
// measuring) only until they do, so a run that becomes a marker costs the
// rows that decide it, not all of them; when writing it reads the sizes
// that measuring set, row for row the same.
func (r *render) longer(first, end int32, limit int) bool {
	bytes := 0
	for j := first; j < end; j = r.t.next(j) {
		if r.write {
			bytes += int(r.sizes[j]) + 1
		} else {
			bytes += r.size(j) + 1
		}
		if bytes > limit {
			return true
		}
	}
	return false
}

// keepAnyway reports whether a row beyond the first and last k is kept:
// it holds the first occurrence of a key path, it is error-like (and
// within the level's cap: the errIdx-th of errs), or it is an outlier
// (when the level keeps them). A rows marker never is: it joins the run
// it stands in. When writing, it counts the reason (the first that holds).
func (r *render) keepAnyway(m *node, isErr bool, errIdx, errs int) bool {
	reason := (*int)(nil)
	switch {
	case m.flags&fMarker != 0:
		return false
	case m.flags&fForced != 0:
		reason = &r.st.KeyRowsKept
	case isErr && r.pickError(errIdx, errs):
		reason = &r.st.ErrorRowsKept
	case m.flags&fOutlier != 0 && r.lv.outliers:
		reason = &r.st.OutlierRowsKept
	default:
		return false
	}
	if r.write {
		*reason++
	}
	return true
}

// pickError reports whether the error-like row idx (of errs in its array)
// is kept: all of them without a limit, else the last ⌈e/2⌉ and the first
// ⌊e/2⌋ (the last error is most often the one that ended the run).
func (r *render) pickError(idx, errs int) bool {
	e := r.lv.e
	return e < 0 || idx < e/2 || idx >= errs-(e-e/2)
}

// str writes (or sizes) the string at node n, shortened when the level
// says so and the result is shorter. A string that already ends with a
// marker keeps it out of its text, and the new marker adds both counts. A
// rows marker is never cut.
func (r *render) str(n *node) int {
	lit := r.t.src[n.off:n.end]
	raw := lit[1 : len(lit)-1]
	s := r.lv.s
	if s < 0 || len(raw) <= s || n.flags&fMarker != 0 {
		r.put(lit)
		return len(lit)
	}
	head, prev := raw, 0
	if h, c, ok := parseStringMarker(raw); ok {
		head, prev = raw[:h], c
	}
	if len(head) <= s {
		r.put(lit)
		return len(lit)
	}
	h := safeCut(head, s)
	marker := appendStringMarker(r.tmp[:0], prev+len(head)-h)
	if h+len(marker) >= len(raw) {
		r.put(lit)
		return len(lit)
	}
	r.putByte('"')
	r.put(head[:h])
	r.put(marker)
	r.putByte('"')
	if r.write {
		r.st.StringsShortened++
		r.st.BytesCut += len(head) - h
	}
	return h + len(marker) + 2
}

// safeCut returns the longest prefix length, at most s, of a string's text
// as written that ends neither inside an escape (a surrogate pair of
// escapes is one) nor inside a UTF-8 character.
func safeCut(b []byte, s int) int {
	i := 0
	for i < len(b) {
		w := 1
		switch c := b[i]; {
		case c == '\\':
			w = 2
			if b[i+1] == 'u' {
				w = 6
				if isHighSurrogate(b[i+2:i+6]) && i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' && isLowSurrogate(b[i+8:i+12]) {
					w = 12
				}
			}
		case c >= utf8.RuneSelf:
			_, w = utf8.DecodeRune(b[i:])
		}
		if i+w > s {
			break
		}
		i += w
	}
	return i
}

// isHighSurrogate and isLowSurrogate read the four hex digits of a \u
// escape: D800-DBFF and DC00-DFFF.
func isHighSurrogate(h []byte) bool {
	return (h[0] == 'd' || h[0] == 'D') && (h[1] == '8' || h[1] == '9' || h[1] == 'a' || h[1] == 'A' || h[1] == 'b' || h[1] == 'B')
}

func isLowSurrogate(h []byte) bool {
	return (h[0] == 'd' || h[0] == 'D') && (h[1] >= 'c' && h[1] <= 'f' || h[1] >= 'C' && h[1] <= 'F')
}
