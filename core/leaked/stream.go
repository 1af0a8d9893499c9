package leaked

import (
	"maps"
	"strings"
)

// Event is what a Stream makes final: a piece of kept text, safe to show
// now (it stays in the content whatever follows), or a complete call.
// Exactly one of Text and Call is set.
type Event struct {
	Text string
	Call *Call
}

// Stream is the streaming parser: the text comes in deltas (Write), and
// each delta returns the text and the calls that became final. Over any
// split of a text, the events and the Result of Close are what Extract
// returns for the whole text: the text events, joined, are the text with
// Result.Removed cut out, the call events are Result.Calls, in order and
// with the same IDs when Options.Sources is deterministic, and the Result
// deep-equals Extract's. It runs the scanner of Extract on the text
// received so far, one step at a time, and keeps a step only when all the
// step read is there (see the package documentation, Streaming). It keeps
// the whole text, as Extract's result refers to it (the content, the raw
// text of dropped blocks). A Stream is not safe for concurrent use.
type Stream struct {
	sc     *scanner
	buf    strings.Builder
	state  streamState
	closed bool

	pos     int    // where the scan resumes: a trigger, or a step that waits
	cur     cursor // the scan's next triggers, for the text it last read
	waits   bool   // the scan needs more text
	redo    int    // where the next attempt reads again from (a waiting step, a fence's run)
	tried   int    // the length of the text at the last attempt
	from    int    // think and fence: where the search for their end resumes
	endTag  string // think: the tag that ends it
	blank   int    // where the white space that ends the text starts
	fc      byte   // fence: its character and length
	fn      int
	emitted int // the text up to here is emitted or cut out
	span    int // sc.spans[:span] lie before emitted
	empty   int // sc.empties[:empty] lie before emitted
	final   bool
	ncalls  int // sc.calls[:ncalls] are emitted, with their IDs
	saved   snapshot
	pieces  []string
}

type streamState uint8

const (
	stateBegin streamState = iota // the message may be only JSON calls
	stateScan
	stateThink // inside <think>: kept text up to </think>
	stateFence // inside a fenced code block: kept text up to its end
)

// margin is how far past the furthest position a step reached its bounded
// local checks may read (the longest tag or needle a check compares); a
// step at a '<' or a needle is final only when that much text follows.
const margin = 64

// NewStream returns a streaming parser with the options of Extract.
func NewStream(opts Options) *Stream {
	return &Stream{sc: &scanner{opts: opts, needles: map[string]*memo{}}}
}

// Write adds delta to the text and returns the events that became final,
// in document order. Text that may still be part of a block is held back
// until it is decided (Close decides all of it). It panics after Close.
func (st *Stream) Write(delta string) []Event {
	if st.closed {
		panic("leaked: Stream.Write after Close")
	}
	n := st.buf.Len()
	k := len(delta) - 1
	for k >= 0 && isSpace(delta[k]) {
		k--
	}
	// The first step waits on a text of white space alone for what comes
	// after it; the first other byte decides it, whatever its length.
	decides := st.state == stateBegin && st.blank == 0 && k >= 0
	if k >= 0 {
		st.blank = n + k + 1
	}
	st.buf.WriteString(delta)
	n += len(delta)
	// A step that waits is tried again once the new text is an eighth of
	// the text it reads again, so that its retries cost linear time in all.
	if st.waits && !decides && 8*(n-st.tried) < n-st.redo {
		if st.state != stateFence {
			return nil
		}
		// Inside a fence all the text is kept, whatever ends it.
		st.sc.s = st.buf.String()
		st.sc.forget()
		st.cur = newCursor()
		return st.text(nil, st.frontier())
	}
	return st.advance(false)
}

// Close ends the text: it returns the last events and the Result, which
// deep-equals Extract's for the whole text.
func (st *Stream) Close() ([]Event, Result) {
	if st.closed {
		panic("leaked: Stream.Close twice")
	}
	st.final = true
	ev := st.advance(true)
	st.closed = true
	return ev, st.sc.result()
}

// advance runs the scan as far as the text received decides it (all of it
// when final) and returns the events that became final.
func (st *Stream) advance(final bool) []Event {
	sc := st.sc
	if s := st.buf.String(); len(s) != len(sc.s) || final {
		sc.s = s
		sc.forget()
		st.cur = newCursor()
	}
	st.tried, st.waits = len(sc.s), false
	var ev []Event
	for !st.waits && (st.pos < len(sc.s) || st.state != stateScan) {
		switch st.state {
		case stateBegin:
			st.begin(final)
			ev = st.newCalls(ev)
		case stateThink:
			st.think(final)
		case stateFence:
			st.fence(final)
		default:
			ev = st.scan(ev, final)
		}
	}
	return st.text(ev, st.frontier())
}

// scan finds the next trigger and runs its step.
func (st *Stream) scan(ev []Event, final bool) []Event {
	sc := st.sc
	s := sc.s
	t := sc.trigger(&st.cur, st.pos)
	if t >= len(s) {
		held := 0
		if !final {
			held = sc.needlePrefix(st.pos)
			st.wait(len(s)) // until more text comes
		}
		st.pos = len(s) - held
		return ev
	}
	st.pos = t
	ev = st.text(ev, min(t, st.frontier()))
	if next, ok := st.step(t, final); ok {
		st.pos = next
		return st.newCalls(ev)
	}
	st.wait(t)
	return ev
}

// step runs the scanner's step at the trigger s[t] and reports whether it
// is final: all it read is there, margin past it for the steps that
// compare tags. A step that is not final is undone.
func (st *Stream) step(t int, final bool) (int, bool) {
	sc := st.sc
	s := sc.s
	sc.reach = t
	st.save()
	need := 0 // the margin this step needs
	var next int
	switch {
	case s[t] == '`' || s[t] == '~':
		if c, n, fence := sc.fence(t); fence && !sc.opts.ScanFences {
			if !final && sc.reach >= len(s) {
				return 0, false
			}
			// The fenced block is kept text, whatever follows.
			sc.flush()
			st.state, st.fc, st.fn, st.from = stateFence, c, n, sc.lineEnd(t)+1
			return t, true
		}
		next = sc.code(t)
	case s[t] == '<' && sc.reached(t+1) < len(s) && (!mayOpen(s, t) || !mayTag(s[t:])):
		next = t + 1
	case s[t] == '<' && t+1 < len(s) && hasPrefixFold(s[t:], "<think>"):
		return st.thinking(t, "<think>", "</think>"), true
	case s[t] == '<' && t+1 < len(s) && hasPrefixFold(s[t:], seedThink):
		return st.thinking(t, seedThink, seedThinkEnd), true
	default:
		need = margin
		next = sc.step(t)
	}
	if !final && !st.read(need) {
		st.restore()
		return 0, false
	}
	return next, true
}

// read reports whether the text holds all that the last step read: the
// furthest position it reached, need more bytes for its local checks, and,
// for a step that needs them, not only white space after that (a handler
// that skipped white space without sc.skip may have run to the end).
func (st *Stream) read(need int) bool {
	r, n := st.sc.reach, len(st.sc.s)
	return r < n && r+need <= n && (need == 0 || st.blank > r+need)
}

// thinking starts the thinking that opens at s[t] with the tag open: kept
// text, whatever follows, up to the tag end.
func (st *Stream) thinking(t int, open, end string) int {
	st.sc.flush()
	st.state, st.from, st.endTag = stateThink, t+len(open), end
	return t
}

// begin runs the scan's first step: a message that is only JSON calls.
func (st *Stream) begin(final bool) {
	sc := st.sc
	s := sc.s
	sc.reach = 0
	st.save()
	need := 0
	if j := sc.skip(0); j < len(s) && (s[j] == '{' || s[j] == '[') {
		need = margin
	}
	next := sc.begin()
	if !final && !st.read(need) {
		st.restore()
		st.wait(0)
		return
	}
	st.state, st.pos = stateScan, next
}

// think looks for the tag that ends the thinking opened before from.
func (st *Stream) think(final bool) {
	s := st.sc.s
	end := st.endTag
	switch k := indexFold(s[st.from:], end); {
	case k >= 0:
		st.state, st.pos = stateScan, st.from+k+len(end)
	case final:
		st.state, st.pos = stateScan, len(s)
	default:
		st.from = max(st.from, len(s)-len(end)+1)
		st.wait(len(s))
	}
}

// fence looks for the line that closes the fenced block, as skipFence
// does, from where the last search stopped.
func (st *Stream) fence(final bool) {
	s := st.sc.s
	c, n := st.fc, st.fn
	for j := st.from; ; {
		k := -1
		if j < len(s) {
			k = strings.IndexByte(s[j:], c)
		}
		if k < 0 {
			st.from = max(j, st.from)
			st.end(final)
			return
		}
		j += k
		m := runLen(s, j, len(s), c)
		if j+m == len(s) && !final {
			st.from = j
			st.wait(j) // the run may go on
			return
		}
		if m >= n && atLineStart(s, j) {
			end := indexFrom(s, j, '\n')
			if end == len(s) && !final {
				st.from = j
				st.wait(j) // the line may go on
				return
			}
			if strings.TrimSpace(s[j+m:end]) == "" {
				st.state, st.pos = stateScan, end
				return
			}
		}
		j += m
	}
}

// end ends a think or fence that runs to the end of the text so far: at
// the end of the text when final, else it waits.
func (st *Stream) end(final bool) {
	if final {
		st.state, st.pos = stateScan, len(st.sc.s)
		return
	}
	st.wait(len(st.sc.s))
}

// wait stops the attempt until more text comes; the next attempt reads
// the text again from redo.
func (st *Stream) wait(redo int) { st.waits, st.redo = true, redo }

// frontier returns where the text that is final ends: the scan's position,
// or the whole text inside a think or a fence; but not past the opening tag
// of a container that a later block may still remove.
func (st *Stream) frontier() int {
	sc := st.sc
	f := st.pos
	switch st.state {
	case stateThink, stateFence:
		f = len(sc.s)
	case stateBegin:
		f = 0
	}
	if st.empty < len(sc.empties) && len(sc.spans) == 0 && !(st.final && st.pos >= len(sc.s)) {
		// An empty wrapper goes only when something else is removed: the
		// text from it on waits for that, or for the end of the scan at
		// Close.
		f = min(f, sc.empties[st.empty].Offset)
	}
	for _, c := range sc.stack {
		if !c.productive {
			return min(f, c.start)
		}
	}
	return f
}

// nextCut returns the next span cut out at or after the text emitted and
// before f, and advances past it: a removed span, or an empty wrapper when
// something else was removed; false when there is none.
func (st *Stream) nextCut(f int) (Span, bool) {
	sc := st.sc
	sp, ok := Span{}, false
	if st.span < len(sc.spans) && sc.spans[st.span].Offset < f {
		sp, ok = sc.spans[st.span], true
	}
	if st.empty < len(sc.empties) && len(sc.spans) > 0 && sc.empties[st.empty].Offset < f &&
		(!ok || sc.empties[st.empty].Offset < sp.Offset) {
		st.empty++
		return sc.empties[st.empty-1], true
	}
	if ok {
		st.span++
	}
	return sp, ok
}

// text appends an event with the kept text from emitted up to f.
func (st *Stream) text(ev []Event, f int) []Event {
	sc := st.sc
	st.pieces = st.pieces[:0]
	for st.emitted < f {
		if sp, ok := st.nextCut(f); ok {
			if sp.Offset > st.emitted {
				st.pieces = append(st.pieces, sc.s[st.emitted:sp.Offset])
			}
			st.emitted = max(st.emitted, sp.Offset+sp.Length)
			continue
		}
		st.pieces = append(st.pieces, sc.s[st.emitted:f])
		st.emitted = f
	}
	switch len(st.pieces) {
	case 0:
		return ev
	case 1:
		return append(ev, Event{Text: st.pieces[0]})
	}
	return append(ev, Event{Text: strings.Join(st.pieces, "")})
}

// newCalls appends an event for each call the last step found, with its ID.
func (st *Stream) newCalls(ev []Event) []Event {
	sc := st.sc
	for ; st.ncalls < len(sc.calls); st.ncalls++ {
		c := &sc.calls[st.ncalls]
		c.ID = sc.opts.Sources.ID()
		call := *c
		ev = append(ev, Event{Call: &call})
	}
	return ev
}

// snapshot is the scanner's state before a step, to undo it.
type snapshot struct {
	spans, empties, calls, dropped, repairs, patterns int
	stack                                             []container
	inline                                            inlineState
}

func (st *Stream) save() {
	sc := st.sc
	st.saved = snapshot{spans: len(sc.spans), empties: len(sc.empties), calls: len(sc.calls), dropped: len(sc.dropped),
		repairs: len(sc.repairs), patterns: len(sc.patterns), stack: append(st.saved.stack[:0], sc.stack...),
		inline: sc.inline}
	st.saved.inline.last.long = maps.Clone(sc.inline.last.long)
}

func (st *Stream) restore() {
	sc := st.sc
	v := &st.saved
	clear(sc.calls[v.calls:])
	clear(sc.dropped[v.dropped:])
	sc.spans, sc.calls, sc.dropped = sc.spans[:v.spans], sc.calls[:v.calls], sc.dropped[:v.dropped]
	sc.empties = sc.empties[:v.empties]
	sc.repairs, sc.patterns = sc.repairs[:v.repairs], sc.patterns[:v.patterns]
	sc.stack = append(sc.stack[:0], v.stack...)
	sc.inline = v.inline
}

// forget resets the memos: their answers hold for the text they searched,
// and "none" no longer does once the text grows.
func (sc *scanner) forget() {
	sc.gt, sc.lt, sc.nl, sc.dq, sc.sq, sc.opener, sc.param = memo{}, memo{}, memo{}, memo{}, memo{}, memo{}, memo{}
	sc.fam = [len(anchors)]memo{}
	sc.gen++ // the memos of the needles' maps, when next used
}

// letterTags are the tags that a '<' and a letter may open: the wrappers,
// the thinking, the XML-parameter forms (also Llama 3.1's <function=).
// The families' special tokens start "<|" or "<｜" instead.
var letterTags = append(tagsOf("<", ""), "<think>", seedThink, "<function=", "<invoke")

// mayTag reports whether rest, which starts with a '<' that mayOpen lets
// through, may still become one of letterTags or a family's token: when
// it may not, its step finds no block whatever follows ("<span>", "<img"),
// and the stream emits it without waiting for the margin.
func mayTag(rest string) bool {
	if rest[1] == '|' || rest[1] == 0xEF {
		return true
	}
	for _, tag := range letterTags {
		if n := min(len(rest), len(tag)); equalFold(rest[:n], tag[:n]) {
			return true
		}
	}
	return false
}

// needleFirst marks the first bytes of the needles.
var needleFirst = func() (out [256]bool) {
	for _, n := range needles {
		out[n[0]] = true
	}
	return out
}()

// needlePrefix returns the length of the longest suffix of s[from:] that
// is a proper prefix of a needle: a needle the next text may complete.
func (sc *scanner) needlePrefix(from int) int {
	s := sc.s
	for p := max(from, len(s)-maxNeedle+1); p < len(s); p++ {
		if !needleFirst[s[p]] {
			continue
		}
		for _, n := range needles[:sc.activeNeedles()] {
			if len(n) > len(s)-p && strings.HasPrefix(n, s[p:]) {
				return len(s) - p
			}
		}
	}
	return 0
}
