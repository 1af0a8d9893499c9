package headtail_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolout/toolout/core/headtail"
)

// checkCut checks every property of Cut's contract on one call, black-box:
//   - text within the budget comes back unchanged, with all-kept stats;
//   - the output is within the budget, and valid UTF-8 when the text is;
//   - the stats add up (kept + cut = input; output = kept + markers);
//   - reading the output back, markers (MarkerPattern) and kept runs
//     alternate, every kept run is the text at its place, in order, and each
//     marker's counts are exact for the bytes it stands for: their bytes,
//     the lines they touch, the error-like lines wholly inside them (zero
//     when the budget is too small for error counts);
//   - gaps start at a line start or in the first line, end at a line start
//     or in the last line; the head is a prefix of HeadBytes bytes, the
//     tail a suffix of TailBytes bytes;
//   - the error-like lines wholly between head and tail are the kept plus
//     the dropped ones, and the first marker's "kept below" count is right;
//   - Cut is deterministic.
//
// A text with a marker-like line of its own is read back only as far as the
// stats go (the reading would be ambiguous).
func checkCut(text string, budget int, o headtail.Options) error {
	out, st := headtail.Cut(text, budget, o)
	if out2, st2 := headtail.Cut(text, budget, o); out2 != out || st2 != st {
		return errors.New("not deterministic")
	}
	lines := countLines(text)
	if len(text) <= budget {
		if out != text || st != (headtail.Stats{Lines: lines, LinesKept: lines, BytesKept: len(text)}) {
			return fmt.Errorf("within budget but changed: %+v", st)
		}
		return nil
	}
	switch {
	case len(out) > max(budget, 0):
		return fmt.Errorf("output %d bytes over budget %d", len(out), budget)
	case utf8.ValidString(text) && !utf8.ValidString(out):
		return errors.New("output is not valid UTF-8")
	case st.Lines != lines || st.LinesKept+st.LinesCut != lines || st.LinesKept < 0:
		return fmt.Errorf("lines do not add up to %d: %+v", lines, st)
	case st.BytesKept+st.BytesCut != len(text) || st.BytesCut <= 0 || len(out) != st.BytesKept+st.MarkerBytes:
		return fmt.Errorf("bytes do not add up to %d (output %d): %+v", len(text), len(out), st)
	case out[:st.HeadBytes] != text[:st.HeadBytes] || !strings.HasSuffix(out, text[len(text)-st.TailBytes:]):
		return fmt.Errorf("head %d / tail %d are not the text's", st.HeadBytes, st.TailBytes)
	case st.Markers == 0:
		if budget >= widest(text) || !strings.HasPrefix(text, out) || st.BytesKept != len(out) {
			return fmt.Errorf("no marker at budget %d: %+v", budget, st)
		}
		return nil
	case strings.Contains(text, "[... "):
		return nil
	}
	return readBack(text, budget, o, out, st)
}

// readBack walks the output, matching kept runs against the text and
// checking each marker's counts against the bytes it stands for.
func readBack(text string, budget int, o headtail.Options, out string, st headtail.Stats) error {
	match := matcher(o)
	counted := budget >= widest(text)
	h, t := st.HeadBytes, len(text)-st.TailBytes
	var gaps [][2]int
	keptBelow, markers, markerBytes, dropped := -1, 0, 0, 0
	p, q := h, h // in out, in text: after the head, checked above
	for p < len(out) {
		line := out[p:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		if g, size, ok := markerAt(out, p); ok {
			if err := checkGap(text, q, g, match, counted); err != nil {
				return fmt.Errorf("marker %d %q: %w", markers+1, out[p:p+size], err)
			}
			if markers == 0 {
				keptBelow = g.KeptBelow
			} else if g.KeptBelow != 0 {
				return fmt.Errorf("marker %d says kept below", markers+1)
			}
			gaps = append(gaps, [2]int{q, q + g.Bytes})
			markers, markerBytes, dropped = markers+1, markerBytes+size, dropped+g.ErrorLines
			p, q = p+size, q+g.Bytes
			continue
		}
		if !strings.HasPrefix(text[q:], line) {
			// a byte-cut run, then a marker after a line ending of its own
			line = strings.TrimSuffix(line, "\n")
			if _, _, ok := markerAt(out, p+len(line)); !ok || !strings.HasPrefix(text[q:], line) {
				return fmt.Errorf("output byte %d: %q is not the text at byte %d", p, line, q)
			}
		}
		p, q = p+len(line), q+len(line)
	}
	switch {
	case q != len(text):
		return fmt.Errorf("output reads back to text byte %d of %d", q, len(text))
	case markers != st.Markers || markerBytes != st.MarkerBytes || markers == 0:
		return fmt.Errorf("%d markers of %d bytes read back, stats say %d of %d", markers, markerBytes, st.Markers, st.MarkerBytes)
	case dropped != st.ErrorLinesDropped:
		return fmt.Errorf("markers count %d error-like lines, stats %d", dropped, st.ErrorLinesDropped)
	}
	if !counted {
		if st.ErrorLinesKept != 0 || st.ErrorLinesDropped != 0 {
			return fmt.Errorf("error lines counted under a small budget: %+v", st)
		}
		return nil
	}
	kept, above := 0, 0
	eachWholeLine(text, h, t, func(a, b int, line string) {
		if !match(line) || inGaps(gaps, a) {
			return
		}
		kept++
		if a < gaps[0][0] {
			above++
		}
	})
	if kept != st.ErrorLinesKept || keptBelow != kept-above {
		return fmt.Errorf("%d error-like lines kept in the middle (%d above the first marker), stats %d, first marker %d", kept, above, st.ErrorLinesKept, keptBelow)
	}
	return nil
}

// markerAt reads a marker line at out[p:], with the line ending the text
// above it lacks, and returns its counts and size.
func markerAt(out string, p int) (headtail.Gap, int, bool) {
	start := p
	if p > 0 && out[p-1] != '\n' {
		switch {
		case strings.HasPrefix(out[p:], "\r\n"):
			p += 2
		case strings.HasPrefix(out[p:], "\n"):
			p++
		default:
			return headtail.Gap{}, 0, false
		}
	}
	i := strings.IndexByte(out[p:], '\n')
	if i < 0 {
		return headtail.Gap{}, 0, false
	}
	m := headtail.MarkerPattern.FindStringSubmatch(strings.TrimSuffix(out[p:p+i], "\r"))
	if m == nil {
		return headtail.Gap{}, 0, false
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	return headtail.Gap{Lines: n(m[1]), Bytes: n(m[2]), ErrorLines: n(m[3]), KeptBelow: n(m[4])}, p + i + 1 - start, true
}

// checkGap checks a marker's counts against text[q:q+g.Bytes], and where the
// gap may start and end.
func checkGap(text string, q int, g headtail.Gap, match func(string) bool, counted bool) error {
	end := q + g.Bytes
	switch {
	case g.Bytes <= 0 || end > len(text):
		return fmt.Errorf("%d bytes from %d of %d", g.Bytes, q, len(text))
	case q > 0 && text[q-1] != '\n' && strings.Contains(text[:q], "\n"):
		return fmt.Errorf("starts at %d, mid-line after the first line", q)
	case end < len(text) && text[end-1] != '\n' && strings.Contains(text[end:len(text)-1], "\n"):
		return fmt.Errorf("ends at %d, mid-line before the last line", end)
	case g.Lines != strings.Count(text[q:end-1], "\n")+1:
		return fmt.Errorf("%d lines, the bytes touch %d", g.Lines, strings.Count(text[q:end-1], "\n")+1)
	}
	errs := 0
	if counted {
		eachWholeLine(text, q, end, func(_, _ int, line string) {
			if match(line) {
				errs++
			}
		})
	}
	if errs != g.ErrorLines {
		return fmt.Errorf("%d error-like lines, the bytes hold %d", g.ErrorLines, errs)
	}
	return nil
}

// eachWholeLine calls fn with each line wholly within text[a:b], without its
// line ending.
func eachWholeLine(text string, a, b int, fn func(start, end int, line string)) {
	lines := strings.SplitAfter(text[a:b], "\n")
	if a > 0 && text[a-1] != '\n' {
		a += len(lines[0])
		lines = lines[1:]
	}
	for _, line := range lines {
		end := a + len(line)
		if line != "" && (strings.HasSuffix(line, "\n") || end == len(text)) {
			fn(a, end, strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"))
		}
		a = end
	}
}

func inGaps(gaps [][2]int, at int) bool {
	for _, g := range gaps {
		if at >= g[0] && at < g[1] {
			return true
		}
	}
	return false
}

// matcher is the error-like test of o: its pattern, or the default one
// behind its automaton (FuzzCut checks that the automaton changes none of
// the pattern's answers; the pattern alone is slow).
func matcher(o headtail.Options) func(string) bool {
	if o.ErrorPattern != nil {
		return o.ErrorPattern.MatchString
	}
	return headtail.MatchDefault
}

// widest is the smallest budget at which Cut counts error-like lines: the
// widest marker's text with a leading and a trailing line ending.
func widest(text string) int {
	eol := "\n"
	if i := strings.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		eol = "\r\n"
	}
	n := countLines(text)
	return 2*len(eol) + len(headtail.Marker(headtail.Gap{Lines: n, Bytes: len(text), ErrorLines: n, KeptBelow: n}))
}

func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
