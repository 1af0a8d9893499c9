package headtail

import (
	"strings"
	"unicode/utf8"
)

// Cut returns text within maxBytes, markers included: its head, the
// error-like lines of its middle with their context lines (each run of cut
// lines replaced by one marker line saying what was cut), and its tail. Text
// within maxBytes comes back unchanged. The package documentation states
// the contract.
func Cut(text string, maxBytes int, o Options) (string, Stats) {
	lines := countLines(text)
	if len(text) <= maxBytes {
		return text, Stats{Lines: lines, LinesKept: lines, BytesKept: len(text)}
	}
	c := newCutter(text, max(maxBytes, 0), o.withDefaults(), lines)
	return c.cut()
}

// cutter holds one Cut's input and the sizes it derives from it.
type cutter struct {
	text  string
	n     int
	b     int // the budget
	o     Options
	match func(line string) bool // error-like
	lines int
	eol   string // the markers' line ending: the first line's
	m     int    // bytes reserved for the marker below the last error run: a leading and a trailing eol, the widest text
	mText int    // the same for a marker without error counts

	firstEnd, lastStart int // the first line's end and the last line's start, -1 until found
}

func newCutter(text string, b int, o Options, lines int) *cutter {
	c := &cutter{text: text, n: len(text), b: b, o: o, match: matcher(o), lines: lines, eol: "\n", firstEnd: -1, lastStart: -1}
	if i := strings.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		c.eol = "\r\n"
	}
	c.m = 2*len(c.eol) + len(Marker(Gap{Lines: lines, Bytes: c.n, ErrorLines: lines, KeptBelow: lines}))
	c.mText = 2*len(c.eol) + len(Marker(Gap{Lines: lines, Bytes: c.n}))
	return c
}

// cut picks one of three layouts by the budget: head, error runs and tail
// when the widest marker fits; head and tail around one marker without
// error counts when only that fits; a bare head otherwise.
func (c *cutter) cut() (string, Stats) {
	switch {
	case c.b >= c.m:
		return c.full()
	case c.b >= c.mText:
		h, t := c.split(c.b - c.mText)
		return c.settle(h, t, nil, nil)
	default:
		h := c.headEnd(c.b)
		return c.render(layout{h: h, t: c.n, spans: []span{{0, h, 0, 0}}, bare: true})
	}
}

// full plans with error runs: a first head and tail leave MaxErrorShare of
// the budget to the middle, whose error runs are picked; the bytes the runs
// leave unused go back to the head and the tail, which grow.
func (c *cutter) full() (string, Stats) {
	a := c.b - c.m
	e := part(c.o.MaxErrorShare, a)
	h0, t0 := c.split(a - e)
	s := newSelector(c.text, e)
	c.scan(h0, t0, s)
	groups, used := s.result()
	h, t := c.split(a - used)
	return c.settle(h, t, groups, &scanned{c: c, h0: h0, t0: t0, total: s.errors})
}

// settle lays out and renders the cut; when the markers turn out shorter
// than reserved (or the head backed off to a line start), the tail takes the
// bytes left over and the cut is laid out again, up to three times. The
// tail grows by no more than what is left, and the gaps only shrink, so the
// budget holds.
func (c *cutter) settle(h, t int, groups []group, sc *scanned) (string, Stats) {
	out, st := c.render(c.layout(h, t, groups, sc))
	for range 3 { // a gap that closes frees its marker's bytes too
		slack := c.b - len(out)
		t2 := c.tailStart(c.n - t + slack)
		if slack <= 0 || t2 >= t {
			break
		}
		t = t2
		out, st = c.render(c.layout(h, t, groups, sc))
	}
	return out, st
}

// split gives the head part(HeadRatio) of x bytes and the tail the rest,
// and returns where the head ends and the tail starts.
func (c *cutter) split(x int) (h, t int) {
	hb := part(c.o.HeadRatio, x)
	return c.headEnd(hb), c.tailStart(x - hb)
}

// headEnd returns the end of the longest head within hb bytes that ends at
// a line end; when the first line alone exceeds hb, the end of hb bytes,
// backed off to a rune start (and off a "\r\n").
func (c *cutter) headEnd(hb int) int {
	hb = min(max(hb, 0), c.n)
	if i := strings.LastIndexByte(c.text[:hb], '\n'); i >= 0 {
		return i + 1
	}
	h := hb
	for k := 0; k < utf8.UTFMax-1 && h > 0 && h < c.n && !utf8.RuneStart(c.text[h]); k++ {
		h--
	}
	if h > 0 && h < c.n && c.text[h] == '\n' && c.text[h-1] == '\r' {
		h--
	}
	return h
}

// tailStart returns the start of the longest tail within tb bytes that
// starts at a line start; when the last line alone exceeds tb, the start of
// the last tb bytes, moved on to a rune start (and off a "\r\n").
func (c *cutter) tailStart(tb int) int {
	tb = min(max(tb, 0), c.n)
	s := c.n - tb
	if tb == 0 || s == 0 || c.text[s-1] == '\n' {
		return s
	}
	if i := strings.IndexByte(c.text[s:], '\n'); i >= 0 && s+i+1 < c.n {
		return s + i + 1
	}
	for k := 0; k < utf8.UTFMax-1 && s < c.n && !utf8.RuneStart(c.text[s]); k++ {
		s++
	}
	if s < c.n && c.text[s] == '\n' && c.text[s-1] == '\r' {
		s++
	}
	return s
}

// eachLine calls fn with every line that lies wholly within [a, b): its
// start, its end (after its "\n", or the end of the text) and its content
// without the line ending. A line cut by a or b is left out.
func (c *cutter) eachLine(a, b int, fn func(start, end int, content string)) {
	if a > 0 && c.text[a-1] != '\n' {
		i := strings.IndexByte(c.text[a:b], '\n')
		if i < 0 {
			return
		}
		a += i + 1
	}
	for a < b {
		end := b
		if i := strings.IndexByte(c.text[a:b], '\n'); i >= 0 {
			end = a + i + 1
		} else if b < c.n {
			return
		}
		fn(a, end, trimEOL(c.text[a:end]))
		a = end
	}
}

// scan matches every line wholly within [h0, t0) and hands each error-like
// line, with its continuation lines, to s as one group.
func (c *cutter) scan(h0, t0 int, s *selector) {
	var g group
	open, ctx, k := false, 0, 0
	c.eachLine(h0, t0, func(start, end int, line string) {
		k++
		switch {
		case c.match(line):
			if open {
				s.add(g)
			}
			// the gap above it starts at h0 or below: at most the k-1 lines
			// above, a line cut by h0, its bytes and error-like lines
			gap := Gap{Lines: k, Bytes: start - h0, ErrorLines: s.errors}
			g = group{start: start, errEnd: end, end: end, before: s.errors, reserve: 2*len(c.eol) + markerLen(gap)}
			s.errors++
			open, ctx = true, 0
		case open && ctx < c.o.Context && c.o.Continuation(line):
			g.end = end
			ctx++
		case open:
			s.add(g)
			open = false
		}
	})
	if open {
		s.add(g)
	}
}

// scanned answers how many error-like lines of the scanned middle [h0, t0)
// lie above a head end or a tail start.
type scanned struct {
	c      *cutter
	h0, t0 int
	total  int // error-like lines of [h0, t0)
	memo   [2]memo
}

// above returns the error-like lines of the scanned middle that start above
// the head end h, and those that end above the tail start t (at most the
// first: a line cut by both counts in neither gap). Counting covers the
// bytes between h0 and h and between t and t0, and the lines h and t cut.
func (sc *scanned) above(h, t int) (cH, cT int) {
	if sc == nil {
		return 0, 0
	}
	c := sc.c
	end := h
	if h > 0 && c.text[h-1] != '\n' { // a byte cut of the first line
		end = c.firstLineEnd()
	}
	cH = sc.errorLines(sc.h0, min(end, sc.t0))
	start := t
	if t < c.n && t > 0 && c.text[t-1] != '\n' { // a byte cut of the last line
		start = c.lastLineStart()
	}
	cT = sc.total - sc.errorLines(max(start, sc.h0), sc.t0)
	return cH, max(cT, cH)
}

// firstLineEnd returns where the first line ends, found once: a single
// huge line is read once, not at every layout.
func (c *cutter) firstLineEnd() int {
	if c.firstEnd < 0 {
		c.firstEnd = c.n
		if i := strings.IndexByte(c.text, '\n'); i >= 0 {
			c.firstEnd = i + 1
		}
	}
	return c.firstEnd
}

// lastLineStart returns where the last line starts, found once.
func (c *cutter) lastLineStart() int {
	if c.lastStart < 0 {
		c.lastStart = strings.LastIndexByte(c.text[:c.n-1], '\n') + 1
	}
	return c.lastStart
}

// errorLines counts the error-like lines wholly within [a, b), a part of
// the scanned middle no longer than the budget, or the line a byte cut
// splits; the last two answers are kept, as layouts ask again.
func (sc *scanned) errorLines(a, b int) int {
	for _, m := range sc.memo {
		if m.ok && m.a == a && m.b == b {
			return m.n
		}
	}
	n := sc.count(a, b)
	sc.memo[1], sc.memo[0] = sc.memo[0], memo{a, b, n, true}
	return n
}

type memo struct {
	a, b, n int
	ok      bool
}

func (sc *scanned) count(a, b int) int {
	n := 0
	sc.c.eachLine(a, b, func(_, _ int, line string) {
		if sc.c.match(line) {
			n++
		}
	})
	return n
}

// trimEOL drops a line's "\n", then its "\r".
func trimEOL(s string) string {
	n := len(s)
	if n > 0 && s[n-1] == '\n' {
		n--
	}
	if n > 0 && s[n-1] == '\r' {
		n--
	}
	return s[:n]
}

// countLines counts s's lines: its "\n"s, and a last line without one.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && s[len(s)-1] != '\n' {
		n++
	}
	return n
}

// touched counts the lines of which [a, b) holds a byte (a < b).
func (c *cutter) touched(a, b int) int {
	return strings.Count(c.text[a:b-1], "\n") + 1
}
