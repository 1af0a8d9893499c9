package leaked

import "strings"

// wrappers in matching order: a longer name before its prefix. A wrapper is
// an index into it; bare is no wrapper (an XML-parameter call on its own).
var wrappers = []string{"tool_calls", "tool_call", "tools", "function_call", "function", "minimax:tool_call",
	"seed:tool_call", "toolcall"}

const bare = -1

var (
	openTags  = tagsOf("<", ">")  // the patterns: "<tool_calls>", ...
	closeTags = tagsOf("</", ">") // "</tool_calls>", ...
)

func tagsOf(before, after string) []string {
	out := make([]string, len(wrappers))
	for k, w := range wrappers {
		out[k] = before + w + after
	}
	return out
}

// openTag reports whether an opening wrapper tag starts at s[i] and returns
// the wrapper and the index after the tag's '>'. The name must end at '>' or
// white space; attributes run to the first '>' and hold no '<'.
func (sc *scanner) openTag(i int) (w int, after int, ok bool) {
	s := sc.s
	if i >= len(s) || s[i] != '<' {
		return bare, 0, false
	}
	for k, name := range wrappers {
		if !hasPrefixFold(s[i+1:], name) {
			continue
		}
		j := i + 1 + len(name)
		if j >= len(s) {
			return bare, 0, false
		}
		if s[j] != '>' && !isSpace(s[j]) {
			continue // e.g. <tool_call_result>, or <tools> checked after <tool_call>
		}
		gt := sc.nextByte(&sc.gt, '>', j)
		if gt >= len(s) || sc.nextByte(&sc.lt, '<', j) < gt {
			return bare, 0, false
		}
		return k, gt + 1, true
	}
	return bare, 0, false
}

// isOpener reports whether a block starts at s[j]: an opening wrapper tag or
// a bare XML-parameter form.
func (sc *scanner) isOpener(j int) bool {
	if _, _, ok := sc.openTag(j); ok {
		return true
	}
	_, ok := sc.formAt(j)
	return ok
}

// nextOpen returns the start of the next block opener at or after j, or len(s).
func (sc *scanner) nextOpen(j int) int {
	s := sc.s
	if j >= len(s) {
		return sc.reached(len(s))
	}
	return sc.reached(sc.opener.next(j, len(s), func(j, limit int) int {
		for j < limit {
			k := strings.IndexByte(s[j:limit], '<')
			if k < 0 {
				return -1
			}
			j += k
			if sc.isOpener(j) {
				return j
			}
			j++
		}
		return -1
	}))
}

// isClosePrefix reports whether rest is a proper prefix of the closing tag,
// i.e. a closing tag cut off by the end of input.
func isClosePrefix(rest, closeTag string) bool {
	return len(rest) < len(closeTag) && equalFold(rest, closeTag[:len(rest)])
}

// maxDepth bounds the containers open at once.
const maxDepth = 1000

// container is an opening wrapper tag followed directly by another block, as
// <tool_calls> around <tool_call> blocks. Its tags are removed only when a
// block inside it is removed (it is then productive).
type container struct {
	w          int
	start, end int // the opening tag and the white space after it; empty when already removed
	productive bool
}

// enter is called before a block inside the current containers is removed:
// each container becomes productive and its opening tag is removed.
func (sc *scanner) enter() {
	for k := range sc.stack {
		c := &sc.stack[k]
		if c.productive {
			continue
		}
		c.productive = true
		sc.seen(openTags[c.w])
		sc.remove(c.start, c.end)
	}
}

// flush forgets the containers: the text goes on with something that is not
// a block or a closing tag. An unproductive container stays text; a
// productive one has lost its opening tag and keeps no closing tag.
func (sc *scanner) flush() { sc.stack = sc.stack[:0] }

// closers runs after a block that ends at p: white space, then closing tags
// of the enclosing containers (each removed when the container is
// productive), until a block opener (the containers go on) or anything else
// (they end). It returns where scanning resumes.
func (sc *scanner) closers(p int) int {
	s := sc.s
	for len(sc.stack) > 0 {
		q := sc.skip(p)
		k, end := sc.closerAt(q)
		switch {
		case k >= 0:
			c := sc.stack[k]
			sc.stack = sc.stack[:k]
			if c.productive {
				sc.remove(p, end) // with the white space before it
			}
			p = end
		case q < len(s) && sc.isOpener(q):
			return p
		default:
			sc.flush()
		}
	}
	return p
}

// closerAt reports which container (index into the stack, the innermost of
// its wrapper) the closing tag at s[q] closes, and where the tag ends; a
// closing tag cut off by the end of input counts. It returns -1 when there
// is none.
func (sc *scanner) closerAt(q int) (int, int) {
	s := sc.s
	if !strings.HasPrefix(s[q:], "</") {
		return -1, 0
	}
	for w, tag := range closeTags {
		end := 0
		switch {
		case hasPrefixFold(s[q:], tag):
			end = q + len(tag)
		case isClosePrefix(s[q:], tag):
			end = len(s)
		default:
			continue
		}
		for k := len(sc.stack) - 1; k >= 0; k-- {
			if sc.stack[k].w == w {
				return k, end
			}
		}
	}
	return -1, 0
}

// remove records that s[start:end] is cut out of the content.
func (sc *scanner) remove(start, end int) {
	if end > start {
		sc.spans = append(more(sc.spans), Span{Offset: start, Length: end - start})
	}
}

// seen records a pattern in order of first appearance.
func (sc *scanner) seen(patterns ...string) {
	for _, p := range patterns {
		if !contains(sc.patterns, p) {
			sc.patterns = append(sc.patterns, p)
		}
	}
}

func (sc *scanner) drop(pattern string, offset int, raw, reason string) {
	sc.dropped = append(more(sc.dropped), Dropped{Pattern: pattern, Offset: offset, Raw: raw, Reason: reason})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
