package leaked

import (
	"strings"
)

// scanner walks the text once, from left to right, and records what it
// removes and recovers. Every search for a byte or a tag goes through a memo,
// so that many unclosed tags do not make the walk quadratic.
type scanner struct {
	s    string
	opts Options

	spans    []Span // removed byte ranges, in order
	empties  []Span // empty wrappers, removed only when spans is not empty
	calls    []Call
	dropped  []Dropped
	repairs  []Repair
	patterns []string
	stack    []container // the containers around the current position

	reach int    // how far the current step read (reached), for the stream
	gen   uint32 // the text's generation: the stream's text grows (forget)

	gt, lt, nl, dq, sq memo               // next '>', '<', '\n', '"', '\''
	needles            map[string]*memo   // next occurrence of a tag (case-insensitive)
	exact              map[string]*memo   // next occurrence of a string (case matters)
	fam                [len(anchors)]memo // next start of a family's needle, by anchor
	opener, param      memo               // next block opener, next parameter tag
	inline             inlineState

	json   strict    // the parser of the values inside wrappers
	kept   []decoded // jsonBlock's decoded values, reused from block to block
	arena  arena     // the bytes of the calls' arguments
	params params    // the parameters of the XML-parameter call being read
	py     pyState   // the pythonic parser's buffers
}

// memo remembers the answer of one forward search, "the first match at or
// after from is at at" (len(s) when there is none), so that searches from
// nearby positions cost about one pass over the text in all.
type memo struct {
	from, at int
	ok       bool
	gen      uint32 // a memo of the needles' maps holds for the text of scanner.gen only
}

// next returns the first match at or after j, or n when there is none.
// find(j, limit) returns the first match that starts in [j, limit), or -1.
func (m *memo) next(j, n int, find func(j, limit int) int) int {
	switch {
	case m.ok && j >= m.from && j <= m.at:
		return m.at
	case m.ok && j < m.from:
		if k := find(j, m.from); k >= 0 {
			m.from, m.at = j, k
			return k
		}
		m.from = j
		return m.at
	}
	k := find(j, n)
	if k < 0 {
		k = n
	}
	m.from, m.at, m.ok = j, k, true
	return k
}

// nextByte returns the index of the first c at or after j, or len(s). It
// is memo.next written out for a byte: the scan asks it for the end of a
// line or the next '>' at every inline code span and tag.
func (sc *scanner) nextByte(m *memo, c byte, j int) int {
	return sc.reached(sc.byteMemo(m, c, j))
}

func (sc *scanner) byteMemo(m *memo, c byte, j int) int {
	s := sc.s
	switch {
	case j >= len(s):
		return len(s)
	case m.ok && j >= m.from && j <= m.at:
		return m.at
	case m.ok && j < m.from:
		if k := strings.IndexByte(s[j:m.from], c); k >= 0 {
			m.from, m.at = j, j+k
			return j + k
		}
		m.from = j
		return m.at
	}
	k := indexFrom(s, j, c)
	m.from, m.at, m.ok = j, k, true
	return k
}

// reached records that the current step of the scan read s up to k (the
// answer of a search, the end of white space or of a JSON value; len(s)
// when it ran to the end of the text), for the streaming parser, which
// keeps a step only when all it read is there (stream.go). It returns k.
func (sc *scanner) reached(k int) int {
	if k > sc.reach {
		sc.reach = k
	}
	return k
}

// find returns the index of the first occurrence of needle (ASCII,
// case-insensitive) at or after j, or len(s).
func (sc *scanner) find(needle string, j int) int {
	s := sc.s
	if j >= len(s) {
		return sc.reached(len(s))
	}
	m := sc.needles[needle]
	if m == nil {
		m = &memo{gen: sc.gen}
		sc.needles[needle] = m
	} else if m.gen != sc.gen {
		*m = memo{gen: sc.gen}
	}
	return sc.reached(m.next(j, len(s), func(j, limit int) int {
		if k := indexFold(s[j:min(limit+len(needle)-1, len(s))], needle); k >= 0 {
			return j + k
		}
		return -1
	}))
}

func (sc *scanner) lineEnd(j int) int { return sc.nextByte(&sc.nl, '\n', j) }

func (sc *scanner) run() {
	c := newCursor()
	for i := sc.begin(); ; {
		if i = sc.trigger(&c, i); i >= len(sc.s) {
			return
		}
		i = sc.step(i)
	}
}

// begin looks for a message that is only JSON calls (Llama 3 or Mistral
// with their special tokens stripped) and returns where the scan starts.
func (sc *scanner) begin() int {
	s := sc.s
	if j := sc.skip(0); j < len(s) && (s[j] == '{' || s[j] == '[') {
		if next, ok := sc.bareJSON(j); ok {
			return next
		}
	}
	return 0
}

// cursor holds the next '<', '`', '~' and family needle at or after the
// scan's position (len(s) when there is none; -1 before the first search).
type cursor struct{ lt, bt, tl, ft int }

func newCursor() cursor { return cursor{-1, -1, -1, -1} }

// trigger returns the first position at or after i where something may
// start, or len(s). Only '<', '`', '~' and the families' needles can start
// something; the scan jumps between them with IndexByte and memoized
// searches, so text without them runs at the speed of IndexByte.
func (sc *scanner) trigger(c *cursor, i int) int {
	s := sc.s
	if i >= len(s) {
		return len(s)
	}
	if c.lt < i {
		c.lt = indexFrom(s, i, '<')
	}
	if c.bt < i {
		c.bt = indexFrom(s, i, '`')
	}
	if c.tl < i {
		c.tl = indexFrom(s, i, '~')
	}
	if c.ft < i {
		c.ft = sc.nextFamily(i)
	}
	return min(c.lt, c.bt, c.tl, c.ft)
}

// step handles what may start at the trigger s[i] and returns where the
// scan resumes. No needle starts with '<', '`' or '~', so any other byte
// is a needle's.
func (sc *scanner) step(i int) int {
	s := sc.s
	switch {
	case s[i] == '`' || s[i] == '~':
		return sc.code(i)
	case s[i] != '<':
		if next, ok := sc.familyAt(i); ok {
			return next
		}
		return i + 1
	case !mayOpen(s, i):
		return i + 1 // "a < b", "</div>": no tag of ours
	case hasPrefixFold(s[i:], "<think>"):
		sc.flush()
		end := sc.find("</think>", i+len("<think>"))
		return min(end+len("</think>"), len(s)) // unclosed: the rest is thinking
	case hasPrefixFold(s[i:], seedThink):
		return sc.seedThinking(i)
	}
	if next, ok := sc.block(i); ok {
		return next
	}
	return i + 1
}

// mayOpen reports whether the '<' at s[i] may open a tag the scanner reads:
// <think>, a wrapper (<tool_call…>, <tools>, <function…>,
// <minimax:tool_call>, <seed:tool_call>, <TOOLCALL>), a form (<function=…>,
// <invoke …>) or a family's special-token tag (<|…, <｜…). Most '<' of
// prose and markup are followed by none of their first letters.
func mayOpen(s string, i int) bool {
	if i+1 >= len(s) {
		return false
	}
	switch s[i+1] | 0x20 { // lower-case for letters; no other byte becomes one of these
	case 't', 'f', 'm', 'i', 's', '|': // '|' | 0x20 is '|'
		return true
	}
	if s[i+1] == 0xEF { // '｜' (U+FF5C) of DeepSeek's tokens
		return true
	}
	return false
}

// indexFrom returns the index of the first c at or after i, or len(s).
func indexFrom(s string, i int, c byte) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s)
}

// runLen returns the length of the run of c starting at s[i], stopping at limit.
func runLen(s string, i, limit int, c byte) int {
	n := 0
	for i+n < limit && s[i+n] == c {
		n++
	}
	return n
}

// code handles a run of backticks or tildes at s[i]: a fenced code block, an
// inline code span, or plain text. It returns where scanning resumes.
func (sc *scanner) code(i int) int {
	c, n, fence := sc.fence(i)
	switch {
	case fence && sc.opts.ScanFences:
		sc.flush()
		return sc.lineEnd(i + n) // step over the fence line itself
	case fence:
		return sc.skipFence(i, c, n)
	case c == '~':
		return i + n
	}
	return sc.inlineCode(i, n)
}

// fence reads the run of c (a backtick or a tilde) at s[i], n long, and
// reports whether it opens a fenced code block.
func (sc *scanner) fence(i int) (c byte, n int, ok bool) {
	s := sc.s
	c = s[i]
	n = runLen(s, i, len(s), c)
	sc.reached(i + n)
	if n >= 3 && atLineStart(s, i) {
		end := sc.lineEnd(i + n)
		// A backtick fence's info string holds no backtick (else the line
		// opens inline code), as in CommonMark.
		return c, n, c == '~' || strings.IndexByte(s[i+n:end], '`') < 0
	}
	return c, n, false
}

// atLineStart reports whether only up to three spaces stand between s[i] and
// the start of its line, as for a fence.
func atLineStart(s string, i int) bool {
	for k := 1; k <= 4; k++ {
		switch {
		case i-k < 0 || s[i-k] == '\n':
			return true
		case s[i-k] != ' ' || k == 4:
			return false
		}
	}
	return false
}

// skipFence returns the index after the fenced block that opens at s[i] with
// n fence characters c: the end of its closing fence line (up to three
// spaces, at least n times c, then only white space), or the end of input.
// It visits only the runs of c (a closing fence line starts with one), not
// every line.
func (sc *scanner) skipFence(i int, c byte, n int) int {
	s := sc.s
	sc.flush()
	for j := sc.lineEnd(i) + 1; j < len(s); {
		k := strings.IndexByte(s[j:], c)
		if k < 0 {
			break
		}
		j += k // a run of c starts here: s[j-1] is not c
		m := runLen(s, j, len(s), c)
		if m >= n && atLineStart(s, j) {
			end := sc.lineEnd(j)
			if strings.TrimSpace(s[j+m:end]) == "" {
				return end
			}
		}
		j += m
	}
	return len(s)
}

// inlineState remembers, for the current line, the last start of a backtick
// run of each length, once a search for a closing run has reached the end of
// the line. A run of length n then has no closing run when the last run of
// length n starts at or before it, and every search either succeeds (and the
// scan moves past what it searched) or is the one failed search of the line.
type inlineState struct {
	lineEnd int
	scanned bool
	last    runStarts
}

// runStarts maps a run length to where the last run of that length starts:
// short runs in an array, so that a line costs no allocation, longer ones
// in a map made for the line that has them.
type runStarts struct {
	short [8]int // index n-1: 1 + the start of the last run of n, 0 for none
	long  map[int]int
}

func (r *runStarts) get(n int) (int, bool) {
	if n <= len(r.short) {
		return r.short[n-1] - 1, r.short[n-1] > 0
	}
	at, ok := r.long[n]
	return at, ok
}

func (r *runStarts) set(n, at int) {
	if n <= len(r.short) {
		r.short[n-1] = at + 1
		return
	}
	if r.long == nil {
		r.long = map[int]int{}
	}
	r.long[n] = at
}

// reset forgets every run. Not clear(): a map that once grew would make
// every line cost its size.
func (r *runStarts) reset() {
	r.short = [len(r.short)]int{}
	r.long = nil
}

// inlineCode returns the index after the inline code span opening at s[i]
// with a run of n backticks, or i+n when no run of n backticks closes it on
// its line.
func (sc *scanner) inlineCode(i, n int) int {
	s := sc.s
	st := &sc.inline
	end := sc.lineEnd(i)
	if st.lineEnd != end {
		st.lineEnd, st.scanned = end, false
		st.last.reset()
	}
	if last, seen := st.last.get(n); st.scanned && (!seen || last <= i) {
		return i + n
	}
	for j := i + n; j < end; {
		k := strings.IndexByte(s[j:end], '`')
		if k < 0 {
			break
		}
		j += k
		m := runLen(s, j, end, '`')
		if last, seen := st.last.get(m); !seen || last < j {
			st.last.set(m, j)
		}
		if m == n {
			return j + m
		}
		j += m
	}
	st.scanned = true
	return i + n
}

// hasPrefixFold reports whether s starts with prefix, a lower-case ASCII
// tag, case-insensitively.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && equalFold(s[:len(prefix)], prefix)
}

// equalFold is strings.EqualFold for a lower-case ASCII lower of the same
// length as s, without its Unicode machinery (an eighth of the scan of
// LLM-like markdown went to it). The two agree: a non-ASCII character
// takes two bytes or more and folds to one ASCII letter at most (K, ſ), so
// an s of the same length holding one has fewer characters than lower, and
// strings.EqualFold says no as well.
func equalFold(s, lower string) bool {
	for k := 0; k < len(lower); k++ {
		if c := s[k]; c != lower[k] && (c < 'A' || c > 'Z' || c+('a'-'A') != lower[k]) {
			return false
		}
	}
	return true
}

// indexFold is a case-insensitive strings.Index for a lower-case ASCII needle.
func indexFold(s, needle string) int {
	first := needle[0]
	for i := 0; i+len(needle) <= len(s); {
		k := strings.IndexByte(s[i:], first)
		if k < 0 {
			return -1
		}
		i += k
		if i+len(needle) <= len(s) && equalFold(s[i:i+len(needle)], needle) {
			return i
		}
		i++
	}
	return -1
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
