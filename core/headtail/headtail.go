package headtail

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Defaults of [Options]' zero values.
const (
	// DefaultHeadRatio is the head's share of the head and tail bytes
	// (Gemini CLI's 20% head, 80% tail).
	DefaultHeadRatio = 0.2
	// DefaultMaxErrorShare is the most of the budget the error-like lines of
	// the middle, their context lines and their markers may take.
	DefaultMaxErrorShare = 0.3
	// DefaultContext is the most continuation lines kept after an error-like
	// line of the middle.
	DefaultContext = 10
)

// DefaultErrorPattern is the error-like line pattern of a zero
// Options.ErrorPattern; a line matches when the pattern matches somewhere in
// it (its line ending excluded). Case rules: the severity and failure words
// match in any case, as whole words ("error", "ERROR" and "Error" do;
// "errors", "stderr" and "error_count" do not); class names ending in Error
// or Exception match with their capital ("TypeError:",
// "java.lang.NullPointerException"); npm's "ERR!" and klog's "E1126
// 10:00:00" / "F1126 10:00:00" prefixes match as written. Warnings are not
// errors.
var DefaultErrorPattern = defaultPattern

// defaultPattern is DefaultErrorPattern as shipped: Cut matches it by hand
// (match.go), and only it, should a caller assign DefaultErrorPattern.
var defaultPattern = regexp.MustCompile(
	`(?i:\b(?:error|fatal|panic|exception|traceback|critical|fail(?:ed|ure)?|timeout|timed out|abort(?:ed)?|segfault|segmentation fault|out of memory|oom|denied|refused|unhandled|uncaught)\b)` +
		`|[A-Za-z](?:Error|Exception)\b|\bERR!|^[EF]\d{4} \d\d:\d\d:\d\d`)

// Options tunes [Cut]. The zero value means the defaults.
type Options struct {
	// HeadRatio is the head's share of the bytes left for the head and the
	// tail; 0 (or NaN) means DefaultHeadRatio, a negative value no head, a
	// value above 1 all head.
	HeadRatio float64
	// ErrorPattern marks the error-like lines of the middle; nil means
	// DefaultErrorPattern. It is matched against each line alone, without
	// its line ending.
	ErrorPattern *regexp.Regexp
	// MaxErrorShare is the most of the budget the kept error-like lines,
	// their context lines and their markers may take; 0 (or NaN) means
	// DefaultMaxErrorShare, a negative value none (error-like lines are
	// still counted in the markers), a value above 1 the whole budget.
	MaxErrorShare float64
	// Context is the most continuation lines kept after an error-like line
	// of the middle; 0 means DefaultContext, a negative value none.
	Context int
	// Continuation says whether a line (without its line ending) continues
	// the error-like line above it; nil means [IsContinuation].
	Continuation func(line string) bool
}

// Stats counts what [Cut] kept and cut. Lines are counted as in the input:
// a line ends after its "\n", and a last line without one counts too. A line
// of which any byte is cut counts as cut. So LinesKept + LinesCut == Lines,
// BytesKept + BytesCut == len(text) and len(out) == BytesKept + MarkerBytes.
type Stats struct {
	Lines     int // lines of the input
	LinesKept int // lines kept whole
	LinesCut  int // lines of which some or all bytes were cut
	BytesKept int // input bytes in the output
	BytesCut  int // input bytes not in the output
	// ErrorLinesKept and ErrorLinesDropped count the error-like lines that
	// lie wholly between the head and the tail (the middle): those kept and
	// those cut. Lines of the head and the tail are not matched.
	ErrorLinesKept    int
	ErrorLinesDropped int
	HeadBytes         int // bytes of the head (a prefix of the input)
	TailBytes         int // bytes of the tail (a suffix of the input)
	Markers           int // marker lines in the output
	MarkerBytes       int // bytes of the markers, their line endings included
}

// Gap is what one marker stands for: a run of cut input.
type Gap struct {
	Lines      int // lines of which some or all bytes were cut
	Bytes      int // bytes cut
	ErrorLines int // error-like lines among the lines cut wholly
	// KeptBelow, on the first marker only, is the number of error-like
	// lines of the middle kept below it; 0 elsewhere.
	KeptBelow int
}

// Marker is the text of the marker line for g, without its line ending:
//
//	[... 1234 lines (56789 bytes) cut ...]
//	[... 1234 lines (56789 bytes) cut, 7 error-like lines among them ...]
//	[... 1234 lines (56789 bytes) cut; 12 error-like lines kept below ...]
//	[... 1234 lines (56789 bytes) cut, 7 error-like lines among them; 12 error-like lines kept below ...]
//
// with "1 line" and "1 error-like line" in the singular.
func Marker(g Gap) string {
	var b strings.Builder
	b.WriteString("[... ")
	count(&b, g.Lines, "line")
	b.WriteString(" (")
	b.WriteString(strconv.Itoa(g.Bytes))
	b.WriteString(" bytes) cut")
	if g.ErrorLines > 0 {
		b.WriteString(", ")
		count(&b, g.ErrorLines, "error-like line")
		b.WriteString(" among them")
	}
	if g.KeptBelow > 0 {
		b.WriteString("; ")
		count(&b, g.KeptBelow, "error-like line")
		b.WriteString(" kept below")
	}
	b.WriteString(" ...]")
	return b.String()
}

// MarkerPattern matches a marker line (without its line ending) and nothing
// else [Marker] does not write; its groups are the counts of [Gap] in order,
// the last two empty when absent.
var MarkerPattern = regexp.MustCompile(`^\[\.\.\. (\d+) lines? \((\d+) bytes\) cut(?:, (\d+) error-like lines? among them)?(?:; (\d+) error-like lines? kept below)? \.\.\.\]$`)

func count(b *strings.Builder, n int, noun string) {
	b.WriteString(strconv.Itoa(n))
	b.WriteByte(' ')
	b.WriteString(noun)
	if n != 1 {
		b.WriteByte('s')
	}
}

// IsContinuation is the default Options.Continuation: a line continues the
// error-like line above it (a stack frame, a chained cause, a source excerpt)
// when it is empty, starts with a space or a tab (Java's "\tat ...",
// Python's "  File ...", Go's "\t/src/x.go:12 +0x1d", Node's "    at ..."),
// starts with "at ", "Caused by", "... " (Java's "... 5 more"), "goroutine "
// or "created by " (Go), or looks like a Go frame's function line (no space
// before its first "(", and ending with ")").
func IsContinuation(line string) bool {
	if line == "" || line[0] == ' ' || line[0] == '\t' {
		return true
	}
	for _, p := range [...]string{"at ", "Caused by", "... ", "goroutine ", "created by "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	i := strings.IndexAny(line, " (")
	return i > 0 && line[i] == '(' && line[len(line)-1] == ')'
}

// withDefaults resolves the zero values and clamps the shares to [0, 1].
func (o Options) withDefaults() Options {
	o.HeadRatio = share(o.HeadRatio, DefaultHeadRatio)
	o.MaxErrorShare = share(o.MaxErrorShare, DefaultMaxErrorShare)
	if o.ErrorPattern == nil {
		o.ErrorPattern = DefaultErrorPattern
	}
	if o.Context == 0 {
		o.Context = DefaultContext
	}
	o.Context = max(o.Context, 0)
	if o.Continuation == nil {
		o.Continuation = IsContinuation
	}
	return o
}

func share(v, def float64) float64 {
	switch {
	case v == 0 || math.IsNaN(v):
		return def
	case v < 0:
		return 0
	case v > 1:
		return 1
	}
	return v
}

// part returns floor(r × n) within [0, n].
func part(r float64, n int) int {
	return min(max(int(r*float64(n)), 0), n)
}

// markerLen is len(Marker(g)), without writing it.
func markerLen(g Gap) int {
	n := len("[... ") + digits(g.Lines) + len(" line") + plural(g.Lines) + len(" (") + digits(g.Bytes) + len(" bytes) cut") + len(" ...]")
	if g.ErrorLines > 0 {
		n += len(", ") + digits(g.ErrorLines) + len(" error-like line") + plural(g.ErrorLines) + len(" among them")
	}
	if g.KeptBelow > 0 {
		n += len("; ") + digits(g.KeptBelow) + len(" error-like line") + plural(g.KeptBelow) + len(" kept below")
	}
	return n
}

func digits(n int) int {
	d := 1
	if n < 0 {
		d, n = 2, -n
	}
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

func plural(n int) int {
	if n == 1 {
		return 0
	}
	return 1
}
