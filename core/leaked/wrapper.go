package leaked

import (
	"strings"
)

// openTag reports whether an opening wrapper tag starts at s[i] and returns
// the wrapper's name and the index after the tag's '>'.
func (sc *scanner) openTag(i int) (name string, after int, ok bool) {
	s := sc.s
	for _, w := range wrappers {
		if !hasPrefixFold(s[i+1:], w) {
			continue
		}
		j := i + 1 + len(w)
		if j >= len(s) {
			return "", 0, false
		}
		if s[j] != '>' && !isSpace(s[j]) {
			continue // e.g. <tool_call_result>, or <tools> checked after <tool_call>
		}
		gt := sc.nextGT(j)
		if gt < 0 {
			return "", 0, false
		}
		return w, gt + 1, true
	}
	return "", 0, false
}

// nextGT returns the index of the first '>' at or after j, or -1; it caches
// the answer so that many unclosed tags cost linear time in all.
func (sc *scanner) nextGT(j int) int {
	if sc.gtFrom >= 0 && j >= sc.gtFrom && (sc.gtAt < 0 || j <= sc.gtAt) {
		return sc.gtAt
	}
	sc.gtFrom = j
	if k := strings.IndexByte(sc.s[j:], '>'); k >= 0 {
		sc.gtAt = j + k
	} else {
		sc.gtAt = -1
	}
	return sc.gtAt
}

// closeTag returns the index of the first closing tag of the wrapper at or
// after j (case-insensitive), or -1, with the same caching as nextGT.
func (sc *scanner) closeTag(name string, j int) int {
	from, seen := sc.fromAt[name]
	at := sc.closeAt[name]
	if seen && j >= from && (at < 0 || j <= at) {
		return at
	}
	sc.fromAt[name] = j
	at = indexFold(sc.s[j:], "</"+name+">")
	if at >= 0 {
		at += j
	}
	sc.closeAt[name] = at
	return at
}

// indexFold is a case-insensitive strings.Index for an ASCII needle.
func indexFold(s, needle string) int {
	first := needle[0]
	for i := 0; i+len(needle) <= len(s); {
		k := strings.IndexByte(s[i:], first)
		if k < 0 {
			return -1
		}
		i += k
		if i+len(needle) <= len(s) && strings.EqualFold(s[i:i+len(needle)], needle) {
			return i
		}
		i++
	}
	return -1
}

// wrapper handles a wrapper opening at s[i]. It returns the index where
// scanning resumes and false when no wrapper starts there.
func (sc *scanner) wrapper(i int) (int, bool) {
	name, bodyStart, ok := sc.openTag(i)
	if !ok {
		return 0, false
	}
	s := sc.s
	pattern := "<" + name + ">"
	if !contains(sc.patterns, pattern) {
		sc.patterns = append(sc.patterns, pattern)
	}
	closeTag := "</" + name + ">"
	blk := block{sc: sc, pattern: pattern, offset: i}

	j := skipSpace(s, bodyStart)
	fenced := false
	if strings.HasPrefix(s[j:], "```") {
		fenced = true
		j = skipSpace(s, lineEnd(s, j))
	}
	var values []string
	var jsonErr error
	var repairs []string
	for j < len(s) && (s[j] == '{' || s[j] == '[') {
		end, fixed, reps, err := scanJSON(s, j)
		if err != nil {
			jsonErr = err
			break
		}
		text := s[j:end]
		if fixed != nil {
			text = string(fixed)
		}
		values = append(values, text)
		for _, r := range reps {
			if !contains(repairs, r) {
				repairs = append(repairs, r)
			}
		}
		j = skipSpace(s, end)
	}
	if fenced && jsonErr == nil && len(values) > 0 {
		if strings.HasPrefix(s[j:], "```") {
			j = skipSpace(s, j+3)
		}
		repairs = append([]string{RepairCodeFence}, repairs...)
	}
	closed := hasPrefixFold(s[j:], closeTag)

	switch {
	case jsonErr == nil && len(values) > 0 && closed:
		end := j + len(closeTag)
		blk.finish(values, repairs, i, end)
		return end, true
	case jsonErr == nil && len(values) > 0 && (j == len(s) || isClosePrefix(s[j:], closeTag)):
		// Missing closing tag (servers often strip it as a special token), or
		// a closing tag cut at the end of input: the span ends there.
		blk.finish(values, repairs, i, len(s))
		return len(s), true
	case jsonErr == nil && len(values) > 0:
		// Complete JSON followed by other text. When the closing tag comes
		// before any other wrapper, the text in between is inside the wrapper:
		// the span runs to the closing tag and the text is reported as dropped.
		if c := sc.closeTag(name, j); c >= 0 {
			if n := sc.nextOpen(j); n < 0 || c < n {
				end := c + len(closeTag)
				blk.finish(values, repairs, i, end)
				sc.drop(pattern, i, s[j:c], "text after the JSON inside the wrapper")
				return end, true
			}
		}
		// Otherwise the wrapper is unclosed: the span ends after the JSON and
		// the text stays.
		end := j
		for end > bodyStart && isSpace(s[end-1]) {
			end--
		}
		blk.finish(values, repairs, i, end)
		return end, true
	}
	// No usable JSON: drop the block up to its closing tag when there is one,
	// else up to the next wrapper or the end of input.
	reason := "no JSON object or array"
	switch {
	case jsonErr != nil:
		reason = "invalid JSON: " + jsonErr.Error()
	case skipSpace(s, bodyStart) == len(s) || hasPrefixFold(s[skipSpace(s, bodyStart):], closeTag):
		reason = "empty wrapper"
	}
	end := len(s)
	if c := sc.closeTag(name, bodyStart); c >= 0 {
		end = c + len(closeTag)
	} else if n := sc.nextOpen(bodyStart); n >= 0 {
		end = n
	}
	sc.drop(pattern, i, s[i:end], reason)
	sc.spans = append(sc.spans, [2]int{i, end})
	return end, true
}

// nextOpen returns the start of the next opening wrapper tag at or after j, or -1.
func (sc *scanner) nextOpen(j int) int {
	for {
		k := strings.IndexByte(sc.s[j:], '<')
		if k < 0 {
			return -1
		}
		j += k
		if _, _, ok := sc.openTag(j); ok {
			return j
		}
		j++
	}
}

// isClosePrefix reports whether rest is a proper prefix of the closing tag,
// i.e. a closing tag cut off by the end of input.
func isClosePrefix(rest, closeTag string) bool {
	return len(rest) < len(closeTag) && strings.EqualFold(rest, closeTag[:len(rest)])
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

func (sc *scanner) drop(pattern string, offset int, raw, reason string) {
	sc.dropped = append(sc.dropped, Dropped{Pattern: pattern, Offset: offset, Raw: raw, Reason: reason})
}

// block collects the calls of one wrapper.
type block struct {
	sc      *scanner
	pattern string
	offset  int
}

func (b block) finish(values, repairs []string, start, end int) {
	sc := b.sc
	sc.spans = append(sc.spans, [2]int{start, end})
	for _, r := range repairs {
		sc.repairs = append(sc.repairs, Repair{Pattern: b.pattern, Offset: b.offset, Kind: r})
	}
	for _, v := range values {
		for _, c := range decodeCalls(v) {
			if c.reason != "" {
				sc.drop(b.pattern, b.offset, c.raw, c.reason)
				continue
			}
			sc.calls = append(sc.calls, Call{ID: sc.opts.Sources.ID(), Name: c.name, Arguments: c.args})
		}
	}
}
