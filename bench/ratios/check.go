package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Metric is one column of a benchmark's lines: Unit ("ns/op", "MB/s",
// "B/op", or a metric the benchmark reports) of the benchmark named Bench,
// in full with its sub-benchmarks and without the GOMAXPROCS suffix.
type Metric struct{ Bench, Unit string }

// Cmp is how a figure is held against its goal's limit.
type Cmp int

const (
	Info    Cmp = iota // no goal: the figure is printed only
	AtMost             // figure <= limit
	Under              // figure < limit
	AtLeast            // figure >= limit
)

// Goal is one figure of the table and its goal. The figure is the median of
// Of, or when Per.Bench is set the median over the rounds of Of divided by
// Per in the same round (the ratio of the medians when their runs differ in
// number), times Scale. A figure and its baseline run a few seconds apart in
// a round, and rounds minutes apart: on a shared machine the speed of both
// drifts by a tenth between rounds, which pairing cancels (ratios of medians
// of the same runs read 1.03x to 1.11x for one pair of programs).
type Goal struct {
	Row   string // the goals table's row, as written there
	Label string // what the figure is, at the start of its line
	Of    Metric
	Per   Metric
	// Less, when set (and Per is not), is subtracted from Of: the figure
	// is the median over the rounds of Of minus Less in the same round.
	Less  Metric
	Scale float64 // 0 means 1
	// Floor: medians under it count as Floor, so that a ratio of small
	// amounts (B/op of a fixed scratch) does not swing on a few bytes.
	Floor float64
	Unit  string // printed after the figure
	Cmp   Cmp
	Limit float64
	// Same, when set, is a metric that must be equal in Of.Bench and
	// SameAs (the token count of ours and of the peer); a difference fails.
	Same   string
	SameAs string
	// IDs, with SameAs: the idhash of both (a hash of the token ids,
	// bench.idHash) must be equal, and the line's note shows it.
	IDs bool
}

// Results holds every value of each benchmark's metrics: Results[bench][unit]
// lists one value per run (-count).
type Results map[string]map[string][]float64

var procs = regexp.MustCompile(`-[0-9]+$`)

// Parse reads `go test -bench` output: each line "BenchmarkName-P  N  v unit
// v unit ..." adds its values to the results; other lines are skipped.
func Parse(r io.Reader) (Results, error) {
	res := Results{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || len(f)%2 != 0 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.ParseInt(f[1], 10, 64); err != nil {
			continue
		}
		name := procs.ReplaceAllString(f[0], "")
		if res[name] == nil {
			res[name] = map[string][]float64{}
		}
		for i := 2; i < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: value %q of %s is not a number", name, f[i], f[i+1])
			}
			res[name][f[i+1]] = append(res[name][f[i+1]], v)
		}
	}
	return res, sc.Err()
}

// Median returns the median of m's values, or false when there is none.
func (r Results) Median(m Metric) (float64, bool) {
	vs := slices.Clone(r[m.Bench][m.Unit])
	if len(vs) == 0 {
		return 0, false
	}
	slices.Sort(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2], true
	}
	return (vs[n/2-1] + vs[n/2]) / 2, true
}

// ratio is g's Of over its Per: the median of the ratios of their runs
// taken in the same order (round by round), or of their medians of and per
// when the runs differ in number; values under g.Floor count as g.Floor.
func (r Results) ratio(g Goal, of, per float64) float64 {
	return r.paired(g.Of, g.Per, of, per, func(a, b float64) float64 { return max(a, g.Floor) / max(b, g.Floor) })
}

// paired is op of a's and b's runs taken in the same order (round by
// round), the median of those; or op of their medians ma and mb when the
// runs differ in number.
func (r Results) paired(a, b Metric, ma, mb float64, op func(a, b float64) float64) float64 {
	as, bs := r[a.Bench][a.Unit], r[b.Bench][b.Unit]
	if len(as) != len(bs) {
		return op(ma, mb)
	}
	vs := make([]float64, len(as))
	for i := range as {
		vs[i] = op(as[i], bs[i])
	}
	m, _ := Results{"": {"": vs}}.Median(Metric{})
	return m
}

// Line is one goal's outcome.
type Line struct {
	Goal   Goal
	Figure float64
	// Verdict is OK, OVER (outside the goal), info (no goal), MISSING (a
	// benchmark line is absent) or MISMATCH (Same differs).
	Verdict string
	Note    string
}

// Failed says whether the line fails the run.
func (l Line) Failed() bool { return l.Verdict != "OK" && l.Verdict != "info" }

// Evaluate computes each goal's figure from the results.
func Evaluate(res Results, goals []Goal) []Line {
	lines := make([]Line, 0, len(goals))
	for _, g := range goals {
		lines = append(lines, evaluate(res, g))
	}
	return lines
}

func evaluate(res Results, g Goal) Line {
	l := Line{Goal: g}
	of, ok := res.Median(g.Of)
	if !ok {
		return missing(l, g.Of)
	}
	l.Figure = max(of, g.Floor)
	if g.Per.Bench != "" {
		per, ok := res.Median(g.Per)
		if !ok {
			return missing(l, g.Per)
		}
		l.Figure = res.ratio(g, of, per)
	} else if g.Less.Bench != "" {
		less, ok := res.Median(g.Less)
		if !ok {
			return missing(l, g.Less)
		}
		l.Figure = res.paired(g.Of, g.Less, of, less, func(a, b float64) float64 { return a - b })
	}
	if g.Scale != 0 {
		l.Figure *= g.Scale
	}
	if g.Same != "" {
		a, okA := res.Median(Metric{g.Of.Bench, g.Same})
		b, okB := res.Median(Metric{g.SameAs, g.Same})
		switch {
		case !okA:
			return missing(l, Metric{g.Of.Bench, g.Same})
		case !okB:
			return missing(l, Metric{g.SameAs, g.Same})
		case a != b:
			l.Verdict, l.Note = "MISMATCH", fmt.Sprintf("%s %s, %s %s", g.Same, num(a), trim(g.SameAs), num(b))
			return l
		}
	}
	if g.IDs {
		a, okA := res.Median(Metric{g.Of.Bench, "idhash"})
		b, okB := res.Median(Metric{g.SameAs, "idhash"})
		switch {
		case !okA:
			return missing(l, Metric{g.Of.Bench, "idhash"})
		case !okB:
			return missing(l, Metric{g.SameAs, "idhash"})
		case a != b:
			l.Verdict, l.Note = "MISMATCH", fmt.Sprintf("ids %012x, %s's %012x", uint64(a), trim(g.SameAs), uint64(b))
			return l
		}
		l.Note = fmt.Sprintf("ids %012x, identical", uint64(a))
	}
	pass := true
	switch g.Cmp {
	case Info:
		l.Verdict = "info"
		return l
	case AtMost:
		pass = l.Figure <= g.Limit
	case Under:
		pass = l.Figure < g.Limit
	case AtLeast:
		pass = l.Figure >= g.Limit
	}
	l.Verdict = map[bool]string{true: "OK", false: "OVER"}[pass]
	return l
}

func missing(l Line, m Metric) Line {
	l.Verdict, l.Note = "MISSING", m.Unit+" of "+m.Bench
	return l
}

// trim drops the "Benchmark" prefix of a name.
func trim(bench string) string { return strings.TrimPrefix(bench, "Benchmark") }

// num formats a figure with three significant digits, without exponent up
// to 1e6.
func num(v float64) string {
	if math.Abs(v) >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// goalText is the goal as the table words it, e.g. "at most 1.1x".
func goalText(g Goal) string {
	unit := g.Unit
	if unit != "x" {
		unit = " " + unit
	}
	switch g.Cmp {
	case AtMost:
		return "at most " + num(g.Limit) + unit
	case Under:
		return "under " + num(g.Limit) + unit
	case AtLeast:
		return "at least " + num(g.Limit) + unit
	}
	return "(a figure, no goal)"
}

// Write prints the lines, a heading before each row of the table, and a
// summary; it returns how many lines failed.
func Write(w io.Writer, lines []Line) int {
	failed, row := 0, ""
	for _, l := range lines {
		if l.Goal.Row != row {
			row = l.Goal.Row
			fmt.Fprintf(w, "%s\n", row)
		}
		figure := ""
		if l.Verdict != "MISSING" && l.Verdict != "MISMATCH" {
			figure = num(l.Figure)
			if l.Goal.Unit != "x" {
				figure += " "
			}
			figure += l.Goal.Unit
		}
		fmt.Fprintf(w, "  %-44s %14s  %-20s %s", l.Goal.Label, figure, goalText(l.Goal), l.Verdict)
		if l.Note != "" {
			fmt.Fprintf(w, "  (%s)", l.Note)
		}
		fmt.Fprintln(w)
		if l.Failed() {
			failed++
		}
	}
	fmt.Fprintf(w, "bench-ratios: %d figures, %d outside their goal\n", len(lines), failed)
	return failed
}
