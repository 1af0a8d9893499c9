package headtail

import "strings"

// group is an error-like line and its continuation lines: bytes [start,
// end) of the text, the error-like line [start, errEnd). before counts the
// error-like lines of the scanned middle above it.
type group struct {
	start, errEnd, end int
	before             int
	reserve            int // bytes reserved for the marker of the gap above it
}

// selector picks the groups to keep within a byte budget, each costing its
// bytes plus the reserve for the marker above it, as they stream by in order: the first
// groups while they fit in half the budget (the root cause), then the last
// groups that fit in what the first left (the final error), newest first,
// the oldest of those losing continuation lines from its end, then its
// place, until they fit. All groups are kept when they fit together. Memory
// is bounded by the budget, time linear in the bytes seen.
type selector struct {
	text      string
	budget, m int
	front     []group
	frontUsed int
	frontDone bool
	back      []group // back[q:] is the queue of the last groups
	q         int
	backUsed  int
	errors    int // error-like lines seen
}

func newSelector(text string, budget int) *selector {
	return &selector{text: text, budget: budget}
}

func (s *selector) add(g group) {
	cost := g.end - g.start + g.reserve
	if !s.frontDone {
		if s.frontUsed+cost <= s.budget/2 {
			s.front = append(s.front, g)
			s.frontUsed += cost
			return
		}
		s.frontDone = true
	}
	s.back = append(s.back, g)
	s.backUsed += cost
	room := s.budget - s.frontUsed
	for s.backUsed > room && s.q < len(s.back) {
		o := &s.back[s.q]
		if o.end > o.errEnd {
			end := o.errEnd
			if i := strings.LastIndexByte(s.text[o.errEnd:o.end-1], '\n'); i >= 0 {
				end = o.errEnd + i + 1
			}
			s.backUsed -= o.end - end
			o.end = end
			continue
		}
		s.backUsed -= o.end - o.start + o.reserve
		s.q++
	}
	if s.q > 64 && s.q > len(s.back)/2 {
		s.back = append(s.back[:0], s.back[s.q:]...)
		s.q = 0
	}
}

// result returns the groups kept, in text order, and the bytes they cost.
func (s *selector) result() ([]group, int) {
	return append(s.front, s.back[s.q:]...), s.frontUsed + s.backUsed
}
