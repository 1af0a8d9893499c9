package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// benchName prefixes every line this program writes.
const benchName = "BenchmarkGatewayFloor"

// value is one metric of a line: a figure and its unit.
type value struct {
	V    float64
	Unit string
}

// line is one measurement in the Go benchmark line format: the name of
// the figure (under benchName), N the requests it took, and its values.
type line struct {
	Name   string
	N      int
	Values []value
}

// String formats l as `go test -bench` does, so that bench/ratios (and
// benchstat) read it: "BenchmarkGatewayFloor/NAME N v unit v unit ...".
// A unit holds no space; a value is written with up to 6 significant
// digits.
func (l line) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s\t%d", benchName, l.Name, l.N)
	for _, v := range l.Values {
		b.WriteString("\t")
		b.WriteString(strconv.FormatFloat(v.V, 'g', 6, 64))
		b.WriteString(" ")
		b.WriteString(strings.ReplaceAll(v.Unit, " ", "_"))
	}
	return b.String()
}

// writeLines writes each line and a final newline after each.
func writeLines(w io.Writer, ls []line) error {
	for _, l := range ls {
		if _, err := fmt.Fprintln(w, l.String()); err != nil {
			return err
		}
	}
	return nil
}

// percentile returns the p-th percentile (0 < p <= 100) of ds by the
// nearest rank, or 0 for none; ds is sorted in place.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	rank := int(math.Ceil(p / 100 * float64(len(ds))))
	return ds[min(max(rank, 1), len(ds))-1]
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// perRequest is the CPU time cpu spent over n requests, in ms per request.
func perRequest(cpu time.Duration, n int) float64 {
	if n <= 0 {
		return 0
	}
	return ms(cpu) / float64(n)
}
