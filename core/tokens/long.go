package tokens

// window is the length in bytes of the windows in which countLong merges a
// long piece: sixteen times the longest token (128 bytes in both
// encodings), so that two windows share several boundaries. Pieces up to
// twice as long are merged whole.
const window = 2048

// countLong counts the tokens of a long piece in linear time and memory,
// merge for merge what the tree merge over the whole piece gives, by merging
// overlapping windows of w bytes and gluing their results where they agree.
//
// Gluing rests on two facts about the byte-pair merge, which picks the
// lowest-ranked adjacent pair (leftmost on ties) until none is left:
//
//   - A final part boundary p of BPE(x) splits it: BPE(x) is
//     BPE(x[:p]) followed by BPE(x[p:]). No merge ever crossed p, and the
//     merges on either side happen in the order each side alone would make
//     them.
//   - If p < q, p is a boundary of BPE(s[:q]) and q is a boundary of
//     BPE(s[p:]), then BPE(s) is BPE(s[:q]) up to q followed by BPE(s[p:])
//     from q. Every adjacent pair of parts lies inside s[:q] or inside s[p:]
//     as long as no merge has crossed p or q, so the merges inside each are
//     those of BPE(s[:q]) and of BPE(s[p:]), which cross neither p nor q.
//
// Window k covers [c, c+w) (the last one ends at the piece's end). p is its
// first boundary in its last eighth (and at or after the previous glue
// point), the next window starts at p, and the glue point q is the first
// boundary both windows share in (p, c+w]. The tokens of window k from the
// previous glue point up to q are final. Each byte is merged in at most two
// windows of fixed size: linear time, constant memory. When a window has no
// boundary in its last eighth, or two windows share none (a token longer
// than the eighth could do that; none is), the piece is tried again with
// windows four times as large, and a piece at most twice the window is
// merged whole: still exact, in O(n log n) at worst.
func (e *encoding) countLong(piece string, w int) int {
	for ; 2*w < len(piece); w *= 4 {
		if n, ok := e.countWindows(piece, w); ok {
			return n
		}
	}
	return e.countTree(piece)
}

// countWindows is countLong without the fallback: ok is false when the
// windows could not be glued.
func (e *encoding) countWindows(piece string, w int) (tokens int, ok bool) {
	m := mergers.Get().(*merger)
	if w <= window {
		defer mergers.Put(m)
	}
	var cur, nxt []int32 // boundaries of the current and next window, absolute, with the window's end
	n := len(piece)
	c, end := 0, min(w, n)
	cur = m.bounds(e, piece, c, end, cur)
	from := 0 // the tokens before from are counted; from is a final boundary
	for end < n {
		p := firstAtOrAfter(cur, max(c+w-w/8, from))
		if p < 0 || int(cur[p]) >= end {
			return 0, false
		}
		c2 := int(cur[p])
		end2 := min(c2+w, n)
		nxt = m.bounds(e, piece, c2, end2, nxt[:0])
		q := glue(cur[p+1:], nxt)
		if q < 0 {
			return 0, false
		}
		tokens += between(cur, from, q)
		from = q
		cur, nxt = nxt, cur
		c, end = c2, end2
	}
	return tokens + between(cur, from, n), true
}

// bounds appends to dst the start of each final part of the merge of
// piece[c:end], as offsets into piece, and then end.
func (m *merger) bounds(e *encoding, piece string, c, end int, dst []int32) []int32 {
	m.merge(e, piece[c:end])
	for i := 0; i < end-c; i = int(m.next[i]) {
		dst = append(dst, int32(c+i))
	}
	return append(dst, int32(end))
}

// firstAtOrAfter returns the index of the first element of b that is at
// least x, or -1.
func firstAtOrAfter(b []int32, x int) int {
	for i, v := range b {
		if int(v) >= x {
			return i
		}
	}
	return -1
}

// glue returns the first value found in both sorted lists, or -1.
func glue(a, b []int32) int {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			return int(a[i])
		}
	}
	return -1
}

// between counts the elements of the sorted list b in [from, to): the tokens
// between two of its boundaries.
func between(b []int32, from, to int) int {
	k := 0
	for _, v := range b {
		if int(v) >= from && int(v) < to {
			k++
		}
	}
	return k
}
