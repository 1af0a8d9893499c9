package headtail

import "strings"

// span is a kept run of the input, [start, end); c0 and c1 are the
// error-like lines of the scanned middle that start above start and above
// end.
type span struct{ start, end, c0, c1 int }

// layout is a planned cut: the head ends at h, the tail starts at t, spans
// are the kept runs in order (the head, the error runs, the tail, merged
// where they touch), cH and cT the error-like lines of the scanned middle
// above h and above t. A bare layout writes no markers.
type layout struct {
	h, t   int
	spans  []span
	cH, cT int
	bare   bool
}

// cutGap is a gap between kept spans, and what its marker says.
type cutGap struct {
	start, end int
	c0         int // error-like lines of the scanned middle above start
	Gap
}

// layout keeps the head [0, h), the parts of the groups within [h, t), and
// the tail [t, len).
func (c *cutter) layout(h, t int, groups []group, sc *scanned) layout {
	p := layout{h: h, t: t}
	p.cH, p.cT = sc.above(h, t)
	p.add(span{0, h, p.cH, p.cH})
	for _, g := range groups {
		s, e := max(g.start, h), min(g.end, t)
		if s >= e {
			continue
		}
		c0, c1 := g.before, g.before+1
		if g.start < h {
			c0 = p.cH
		}
		if g.end > t {
			c1 = p.cT
		}
		p.add(span{s, e, c0, c1})
	}
	p.add(span{t, len(c.text), p.cT, p.cT})
	return p
}

func (p *layout) add(s span) {
	if s.start >= s.end {
		return
	}
	if k := len(p.spans) - 1; k >= 0 && p.spans[k].end >= s.start {
		p.spans[k].end = max(p.spans[k].end, s.end)
		p.spans[k].c1 = s.c1
		return
	}
	p.spans = append(p.spans, s)
}

// gaps returns the runs between the kept spans with their counts, and the
// error-like lines of the middle kept and dropped.
func (c *cutter) gaps(p layout) (gs []cutGap, kept, dropped int) {
	pos, prev := 0, p.cH
	addGap := func(end, cEnd int) {
		if pos < end {
			gs = append(gs, cutGap{pos, end, prev, Gap{Lines: c.touched(pos, end), Bytes: end - pos, ErrorLines: cEnd - prev}})
			dropped += cEnd - prev
		}
	}
	for _, s := range p.spans {
		addGap(s.start, s.c0)
		pos, prev = s.end, s.c1
	}
	addGap(c.n, p.cT)
	kept = p.cT - p.cH - dropped
	return gs, kept, dropped
}

// render writes the layout: the spans, and a marker line in each gap (after
// a line ending when the text before it does not end with one).
func (c *cutter) render(p layout) (string, Stats) {
	gs, kept, dropped := c.gaps(p)
	st := Stats{Lines: c.lines, HeadBytes: p.h, TailBytes: c.n - p.t, ErrorLinesKept: kept, ErrorLinesDropped: dropped}
	if len(gs) > 0 {
		// the error-like lines kept above the first gap read as the head's
		gs[0].KeptBelow = kept - (gs[0].c0 - p.cH)
	}
	var b strings.Builder
	b.Grow(c.b)
	pos := 0
	for _, g := range gs {
		b.WriteString(c.text[pos:g.start])
		pos = g.end
		st.BytesCut += g.Bytes
		st.LinesCut += g.Lines
		if p.bare {
			continue
		}
		n := b.Len()
		if n > 0 && b.String()[n-1] != '\n' {
			b.WriteString(c.eol)
		}
		b.WriteString(Marker(g.Gap))
		b.WriteString(c.eol)
		st.Markers++
		st.MarkerBytes += b.Len() - n
	}
	b.WriteString(c.text[pos:])
	st.BytesKept = c.n - st.BytesCut
	st.LinesKept = c.lines - st.LinesCut
	return b.String(), st
}
