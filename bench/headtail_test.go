package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/headtail"
	"github.com/toolout/toolout/internal/hostile"
)

// headTailBudget is the budget of the head-tail benchmarks: tool_output's
// truncate default (core/extract's TruncateBytes, 16 KiB).
const headTailBudget = 16 << 10

// headTailInputs are the head-tail benchmarks' inputs, each a function of
// the size: a realistic log, and the shapes that would make Cut slow or
// super-linear (every line an error run for the selector; every line a
// candidate of the automaton that the pattern then rejects; lines the
// pattern must read in full; no line at all).
var headTailInputs = []struct {
	name string
	gen  func(size int) string
}{
	{"logs-traces", logsWithTraces},
	{"all-errors", func(n int) string { return repeatTo("ERROR job failed\n\tat com.acme.Job.run(Job.java:1)\n", n) }},
	{"near-miss", func(n int) string { return repeatTo("2026-11-25 INFO errors=0 stderr closed, no failing jobs\n", n) }},
	{"long-error-lines", func(n int) string { return repeatTo(strings.Repeat("x", 64<<10)+" ERROR\n", n) }},
	{"empty-lines", func(n int) string { return repeatTo("\n", n) }},
	{"one-line", func(n int) string { return repeatTo(`{"id":1,"ok":true},`, n) }},
}

// logsWithTraces returns about size bytes of log lines with a Java stack
// trace every 200 lines.
func logsWithTraces(size int) string {
	var b strings.Builder
	b.Grow(size + 512)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "2026-11-25T10:%02d:%02dZ INFO GET /api/orders/%d 200 %dms\n", i/60%60, i%60, i, i%97)
		if i%200 == 199 {
			fmt.Fprintf(&b, "2026-11-25T10:%02d:%02dZ ERROR request %d failed\njava.lang.IllegalStateException: pool exhausted\n"+
				"\tat com.acme.Pool.take(Pool.java:42)\n\tat com.acme.Handler.serve(Handler.java:17)\n\t... 12 more\n", i/60%60, i%60, i)
		}
	}
	return b.String()
}

// eachHeadTailInput runs fn as a sub-benchmark per input of headTailInputs
// at 1 MiB and 10 MiB (bench-linear's pairs), with the bytes set.
func eachHeadTailInput(b *testing.B, fn func(b *testing.B, text string)) {
	for _, in := range headTailInputs {
		for _, size := range []int{1 << 20, 10 << 20} {
			b.Run("input="+in.name+"/size="+hostile.SizeName(size), func(b *testing.B) {
				text := in.gen(size)
				b.SetBytes(int64(len(text)))
				fn(b, text)
			})
		}
	}
}

// BenchmarkHeadTailAdversarial measures headtail.Cut at 16 KiB on each
// input, reporting the bytes allocated per input byte (B/byte) and the
// error-like lines kept.
func BenchmarkHeadTailAdversarial(b *testing.B) {
	eachHeadTailInput(b, func(b *testing.B, text string) {
		var st headtail.Stats
		start := totalAlloc()
		for b.Loop() {
			_, st = headtail.Cut(text, headTailBudget, headtail.Options{})
		}
		reportPerByte(b, start, len(text))
		b.ReportMetric(float64(st.ErrorLinesKept), "errors-kept")
	})
}

// BenchmarkHeadTailAdversarialBaseline is the pass over the text every cut
// makes first, counting its lines (strings.Count of "\n"), on the same
// inputs: bench-linear's baseline for the pairs read at memory speed, whose
// 10 MiB working set leaves the cache the 1 MiB one fits in.
func BenchmarkHeadTailAdversarialBaseline(b *testing.B) {
	eachHeadTailInput(b, func(b *testing.B, text string) {
		for b.Loop() {
			strings.Count(text, "\n")
		}
	})
}

// BenchmarkHeadTailTruncate is core/extract.Truncate, the byte head and
// tail tool_output falls back to, on the same inputs and budget: the cost
// of a cut that reads nothing but the bytes it keeps.
func BenchmarkHeadTailTruncate(b *testing.B) {
	eachHeadTailInput(b, func(b *testing.B, text string) {
		for b.Loop() {
			extract.Truncate(text, headTailBudget)
		}
	})
}

// BenchmarkHeadTailOneLine is the 5 MB single line of the strategy corpus (a
// JSON document with no newline): a byte head and a byte tail.
func BenchmarkHeadTailOneLine(b *testing.B) {
	text := repeatTo(`{"id":1,"ok":true},`, 5_000_000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		headtail.Cut(text, headTailBudget, headtail.Options{})
	}
}
