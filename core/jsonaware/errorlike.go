package jsonaware

import (
	"bytes"
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// errorWords are the words of failure DefaultErrorPattern looks for,
// lower case.
var errorWords = []string{"error", "exception", "fail", "fatal", "panic", "traceback", "timeout", "timed out",
	"critical", "crash", "denied", "refused", "abort"}

// DefaultErrorPattern is the ErrorPattern of the zero Options: a word of
// failure (error, exception, fail, fatal, panic, traceback, timeout, timed
// out, critical, crash, denied, refused, abort) in any ASCII case,
// anywhere, inside a word too (so "TypeError", "NullPointerException" and
// "ERROR:" match); or an HTTP 5xx status written as text ("HTTP/1.1 503",
// "status: 502"; at most 8 bytes of version, 4 of separators). Shorten
// runs an equivalent hand-written matcher for it (Go's regexp with case
// folding is slow on it); FuzzDefaultMatcher holds the two to each other.
var DefaultErrorPattern = regexp.MustCompile(asciiFold(errorWords) + `|\b` + statusPattern)

// statusPattern is the 5xx part of DefaultErrorPattern, from its first
// letter on.
var statusPattern = `(?:` + asciiFold([]string{"http/"}) + `[0-9.]{1,8}|` + asciiFold([]string{"status"}) + `[ :=]{0,4}) ?5[0-9][0-9]\b`

// statusWords start statusPattern; statusRE matches it where one is, in a
// window of statusWindow bytes (one more than its longest match, so that
// its \b sees the byte after a match).
var (
	statusWords  = []string{"http/", "status"}
	statusRE     = regexp.MustCompile(`^` + statusPattern)
	statusWindow = len("http/") + 8 + 1 + 3 + 1
)

// asciiFold writes words as alternatives matched in any ASCII case: "ab"
// as [aA][bB] (the regexp flag (?i) folds Unicode too: K matches the
// Kelvin sign).
func asciiFold(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte('|')
		}
		for _, c := range []byte(w) {
			if c >= 'a' && c <= 'z' {
				b.WriteString("[" + string(c) + string(c-'a'+'A') + "]")
			} else {
				b.WriteString(regexp.QuoteMeta(string(c)))
			}
		}
	}
	return b.String()
}

// defaultMatcher matches what DefaultErrorPattern matches: one pass that
// tries, at each byte, the words starting with its letter.
type defaultMatcher struct{}

// byFirst lists errorWords (0) and statusWords (1) by their first letter.
var byFirst = func() (t [256][]struct {
	word   string
	status bool
}) {
	for _, w := range errorWords {
		t[w[0]] = append(t[w[0]], struct {
			word   string
			status bool
		}{w, false})
	}
	for _, w := range statusWords {
		t[w[0]] = append(t[w[0]], struct {
			word   string
			status bool
		}{w, true})
	}
	return t
}()

func (defaultMatcher) Match(b []byte) bool {
	for i := 0; i < len(b); i++ {
		for _, w := range byFirst[lower(b[i])] {
			if len(b)-i < len(w.word) || !equalFoldASCII(b[i:i+len(w.word)], w.word) {
				continue
			}
			if !w.status {
				return true
			}
			if (i == 0 || !isWordByte(b[i-1])) && statusRE.Match(b[i:min(len(b), i+statusWindow)]) {
				return true
			}
		}
	}
	return false
}

// isWordByte reports whether c is an ASCII word byte, as \b sees it.
func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// equalFoldASCII reports whether b is word (lower case) in any ASCII case.
func equalFoldASCII(b []byte, word string) bool {
	for i := 0; i < len(word); i++ {
		if lower(b[i]) != word[i] {
			return false
		}
	}
	return true
}

// Key classes: what an object member's key says of its value.
const (
	cNone   uint8 = iota
	cError        // error, errors, err, exception, exc, fault, failure, stacktrace, stack_trace, traceback
	cStatus       // status, status_code, statuscode, http_status, httpstatus, response_code, responsecode
	cLevel        // level, severity, loglevel, log_level, lvl, levelname
	cOK           // ok, success, succeeded
)

var keyClasses = map[string]uint8{
	"error": cError, "errors": cError, "err": cError, "exception": cError, "exc": cError, "fault": cError,
	"failure": cError, "stacktrace": cError, "stack_trace": cError, "traceback": cError,
	"status": cStatus, "status_code": cStatus, "statuscode": cStatus, "http_status": cStatus,
	"httpstatus": cStatus, "response_code": cStatus, "responsecode": cStatus,
	"level": cLevel, "severity": cLevel, "loglevel": cLevel, "log_level": cLevel, "lvl": cLevel, "levelname": cLevel,
	"ok": cOK, "success": cOK, "succeeded": cOK,
}

// errorLevels are the values of a level member that make it error-like
// (compared without case).
var errorLevels = []string{"err", "error", "crit", "critical", "alert", "emerg", "emergency", "fatal", "panic", "severe"}

// classify returns the class of a key as written (without its quotes);
// case does not matter, a key with an escape is of no class.
func classify(raw []byte) uint8 {
	if len(raw) > 16 || bytes.IndexByte(raw, '\\') >= 0 {
		return cNone
	}
	var lower [16]byte
	for i, c := range raw {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	return keyClasses[string(lower[:len(raw)])]
}

// memberErrorLike applies the member rules: an error member that holds
// something (not null, false, 0, "", [] or {}), a status from 500 to 599
// (a number, or a string of three digits), a level that names an error, an
// ok or success member that is false.
func memberErrorLike(class uint8, src []byte, n *node) bool {
	var raw []byte
	if n.kind != kObj && n.kind != kArr {
		raw = src[n.off:n.end]
	}
	switch class {
	case cError:
		switch n.kind {
		case kObj, kArr:
			return n.flags&fNonEmpty != 0
		case kLit:
			return string(raw) == "true"
		case kStr:
			return len(raw) > 2
		case kNum:
			f, err := strconv.ParseFloat(string(raw), 64)
			return err != nil || f != 0
		}
	case cStatus:
		if n.kind == kStr && len(raw) == 5 {
			raw = raw[1:4]
		} else if n.kind != kNum {
			return false
		}
		return len(raw) == 3 && raw[0] == '5' && isDigit(raw[1]) && isDigit(raw[2])
	case cLevel:
		if n.kind != kStr {
			return false
		}
		return slices.ContainsFunc(errorLevels, func(l string) bool { return bytes.EqualFold(raw[1:len(raw)-1], []byte(l)) })
	case cOK:
		return n.kind == kLit && string(raw) == "false"
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Outliers: a row of an array of at least minOutlierRows rows is an
// outlier when a number of it (the row itself, or a direct member of an
// object row) lies farther than outlierMADs scaled median absolute
// deviations (1.4826 x MAD, the standard deviation of a normal sample)
// from the median of that number over the rows that have it, for numbers
// present in at least minOutlierRows rows with a MAD above zero.
const (
	minOutlierRows = 8
	outlierMADs    = 3.0
	madScale       = 1.4826
)

// sample is one number of a row: its series (a key's path id, -1 for a row that
// is a number), its row's node and its value.
type sample struct {
	series int32
	row    int32
	v      float64
}

// findOutliers flags the outlier rows of the array at node arr, at most
// p.maxOutliers of them (the farthest; ties: the first). The samples of
// the rows are grouped by series with a counting sort; each series costs
// two sorts of its values.
func (p *parser) findOutliers(arr int32) {
	t := &p.t
	if t.arrays[t.nodes[arr].aux].rows < minOutlierRows || p.maxOutliers <= 0 {
		return
	}
	s := slices.Grow(p.samples[:0], int(t.arrays[t.nodes[arr].aux].rows))
	for r := arr + 1; r < t.nodes[arr].end; r = t.next(r) {
		switch n := &t.nodes[r]; n.kind {
		case kNum:
			s = appendSample(s, -1, r, t.src[n.off:n.end])
		case kObj:
			for k := r + 1; k < n.end; k = t.next(k + 1) {
				if v := &t.nodes[k+1]; v.kind == kNum {
					s = appendSample(s, t.nodes[k].aux, r, t.src[v.off:v.end])
				}
			}
		}
	}
	p.samples = s
	if len(s) < minOutlierRows {
		return
	}
	scores := p.scores[:0]
	for _, g := range p.bySeries(s) {
		scores = p.scoreSeries(g, scores)
	}
	p.scores = scores
	if len(scores) == 0 {
		return
	}
	slices.SortFunc(scores, func(a, b sample) int {
		if a.v != b.v {
			return cmp.Compare(b.v, a.v)
		}
		return cmp.Compare(a.row, b.row)
	})
	flagged := 0
	for _, sc := range scores {
		if flagged == p.maxOutliers {
			break
		}
		if t.nodes[sc.row].flags&fOutlier == 0 { // a row far out in two series counts once
			t.nodes[sc.row].flags |= fOutlier
			flagged++
		}
	}
}

// bySeries groups samples by series, keeping their order within a series
// (a counting sort): the groups are slices of p.grouped, in the order each
// series first appears.
func (p *parser) bySeries(s []sample) [][]sample {
	clear(p.seriesIdx)
	counts := p.counts[:0]
	for _, x := range s {
		i, ok := p.seriesIdx[x.series]
		if !ok {
			i = len(counts)
			p.seriesIdx[x.series] = i
			counts = append(counts, 0)
		}
		counts[i]++
	}
	groups := p.groups[:0]
	grouped := slices.Grow(p.grouped[:0], len(s))[:len(s)]
	at := 0
	for i, c := range counts {
		groups = append(groups, grouped[at:at:at+c])
		counts[i] = at
		at += c
	}
	for _, x := range s {
		i := p.seriesIdx[x.series]
		groups[i] = append(groups[i], x)
	}
	p.counts, p.groups, p.grouped = counts, groups, grouped
	return groups
}

// scoreSeries appends a sample (row, score) for each value of one series
// farther than outlierMADs scaled MADs from its median.
func (p *parser) scoreSeries(s []sample, scores []sample) []sample {
	if len(s) < minOutlierRows {
		return scores
	}
	vals := slices.Grow(p.devs[:0], len(s))
	for _, x := range s {
		vals = append(vals, x.v)
	}
	slices.Sort(vals)
	med := median(vals)
	for i, x := range s {
		vals[i] = math.Abs(x.v - med)
	}
	slices.Sort(vals)
	mad := madScale * median(vals)
	p.devs = vals
	if mad == 0 || math.IsInf(mad, 0) || math.IsNaN(mad) {
		return scores
	}
	for _, x := range s {
		if z := math.Abs(x.v-med) / mad; z > outlierMADs {
			scores = append(scores, sample{row: x.row, v: z})
		}
	}
	return scores
}

// median returns the median of sorted values.
func median(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return s[n/2-1]/2 + s[n/2]/2
}

// appendSample appends the number raw of a row when it is finite.
func appendSample(s []sample, series, row int32, raw []byte) []sample {
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return s
	}
	return append(s, sample{series, row, v})
}
