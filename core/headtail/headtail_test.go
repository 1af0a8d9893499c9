package headtail_test

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/headtail"
)

// lineLen is the length of an info line.
var lineLen = len(info(0, 1))

// info returns n log lines "2026-11-25T10:00:00Z INFO request i done\n",
// numbered from first.
func info(first, n int) string {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, "2026-11-25T10:%02d:%02dZ INFO request %05d done\n", i/60%60, i%60, i)
	}
	return b.String()
}

const javaTrace = "2026-11-25T10:05:00Z ERROR request failed\n" +
	"java.lang.IllegalStateException: pool exhausted\n" +
	"\tat com.acme.Pool.take(Pool.java:42)\n" +
	"\tat com.acme.Handler.serve(Handler.java:17)\n" +
	"\t... 12 more\n"

// javaLog returns n info lines with javaTrace after line errAt.
func javaLog(n, errAt int) string {
	return info(0, errAt) + javaTrace + info(errAt, n-errAt)
}

var _ = Describe("Cut", func() {
	It("returns a text within the budget unchanged", func() {
		for _, text := range []string{"", "a", "one\ntwo\n", javaLog(30, 10)} {
			out, st := headtail.Cut(text, len(text), headtail.Options{})
			Expect(out).To(Equal(text))
			Expect(st).To(Equal(headtail.Stats{Lines: countLines(text), LinesKept: countLines(text), BytesKept: len(text)}))
			out, _ = headtail.Cut(text, len(text)+100, headtail.Options{})
			Expect(out).To(Equal(text))
		}
	})

	It("keeps 20% head and 80% tail by default, cut on line boundaries", func() {
		text := info(0, 2000)
		out, st := headtail.Cut(text, 10000, headtail.Options{})
		Expect(len(out)).To(BeNumerically("<=", 10000))
		Expect(len(out)).To(BeNumerically(">", 10000-lineLen))
		Expect(float64(st.HeadBytes) / float64(st.HeadBytes+st.TailBytes)).To(BeNumerically("~", 0.2, 0.01))
		Expect(st.HeadBytes % lineLen).To(BeZero())
		Expect(st.TailBytes % lineLen).To(BeZero())
		Expect(st.Markers).To(Equal(1))
		Expect(out).To(HavePrefix(info(0, st.HeadBytes/lineLen)))
		Expect(out).To(HaveSuffix(info(2000-st.TailBytes/lineLen, st.TailBytes/lineLen)))
		cut := 2000 - st.HeadBytes/lineLen - st.TailBytes/lineLen
		Expect(out).To(ContainSubstring(fmt.Sprintf("\n[... %d lines (%d bytes) cut ...]\n", cut, cut*lineLen)))
		Expect(checkCut(text, 10000, headtail.Options{})).To(Succeed())
	})

	DescribeTable("splits head and tail by HeadRatio",
		func(ratio, want float64) {
			text := info(0, 2000)
			_, st := headtail.Cut(text, 20000, headtail.Options{HeadRatio: ratio})
			Expect(float64(st.HeadBytes) / float64(st.HeadBytes+st.TailBytes)).To(BeNumerically("~", want, 0.01))
			Expect(checkCut(text, 20000, headtail.Options{HeadRatio: ratio})).To(Succeed())
		},
		func(ratio, want float64) string { return fmt.Sprintf("ratio %v keeps %v head", ratio, want) },
		Entry(nil, 0.0, 0.2),
		Entry(nil, 0.5, 0.5),
		Entry(nil, 0.9, 0.9),
		Entry(nil, -1.0, 0.0),
		Entry(nil, 3.0, 1.0),
	)

	It("keeps an exception of the middle with its stack frames, counts exact", func() {
		text := javaLog(400, 200)
		out, st := headtail.Cut(text, 4000, headtail.Options{})
		Expect(out).To(ContainSubstring("\n" + javaTrace + "["))
		Expect(st.ErrorLinesKept).To(Equal(2)) // the ERROR line and the exception
		Expect(st.ErrorLinesDropped).To(BeZero())
		Expect(st.Markers).To(Equal(2))
		headLines, tailLines := st.HeadBytes/lineLen, st.TailBytes/lineLen
		Expect(out).To(Equal(info(0, headLines) +
			fmt.Sprintf("[... %d lines (%d bytes) cut; 2 error-like lines kept below ...]\n", 200-headLines, (200-headLines)*lineLen) +
			javaTrace +
			fmt.Sprintf("[... %d lines (%d bytes) cut ...]\n", 200-tailLines, (200-tailLines)*lineLen) +
			info(400-tailLines, tailLines)))
		Expect(checkCut(text, 4000, headtail.Options{})).To(Succeed())
	})

	It("keeps at most Context continuation lines, and none below a line that does not continue", func() {
		text := javaLog(400, 200)
		out, _ := headtail.Cut(text, 4000, headtail.Options{Context: 1})
		Expect(out).To(ContainSubstring("java.lang.IllegalStateException: pool exhausted\n\tat com.acme.Pool.take(Pool.java:42)\n[... "))
		out, st := headtail.Cut(text, 4000, headtail.Options{Context: -1})
		Expect(out).To(ContainSubstring("ERROR request failed\njava.lang.IllegalStateException: pool exhausted\n[... "))
		Expect(st.ErrorLinesKept).To(Equal(2))
		Expect(out).NotTo(ContainSubstring("INFO request 00200"))
	})

	It("keeps Python tracebacks and Go panics with their frames", func() {
		py := "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    main()\n" +
			"  File \"app.py\", line 2, in main\n    raise ValueError(\"bad input\")\nValueError: bad input\n"
		goPanic := "panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\n" +
			"main.main()\n\t/src/app/main.go:8 +0x1d\nexit status 2\n"
		text := info(0, 300) + py + info(300, 300) + goPanic + info(600, 300)
		out, st := headtail.Cut(text, 6000, headtail.Options{})
		Expect(out).To(ContainSubstring("\n" + py + "["))
		Expect(out).To(ContainSubstring("\n" + strings.TrimSuffix(goPanic, "exit status 2\n") + "["))
		// Traceback, the raise line (indented, and error-like itself), ValueError, panic
		Expect(st.ErrorLinesKept).To(Equal(4))
		Expect(checkCut(text, 6000, headtail.Options{})).To(Succeed())
	})

	It("keeps the first and the last errors when they do not all fit, and counts the dropped ones", func() {
		var b strings.Builder
		for i := range 1000 {
			if i%10 == 5 {
				fmt.Fprintf(&b, "ERROR job %03d failed: disk full\n", i)
				continue
			}
			b.WriteString(info(i, 1))
		}
		text := b.String()
		out, st := headtail.Cut(text, 8000, headtail.Options{})
		Expect(len(out)).To(BeNumerically("<=", 8000))
		errorsIn := func(s string) []string { return regexp.MustCompile(`ERROR job (\d+)`).FindAllString(s, -1) }
		head := errorsIn(out[:st.HeadBytes])
		tail := errorsIn(out[len(out)-st.TailBytes:])
		middle := errorsIn(out[st.HeadBytes : len(out)-st.TailBytes])
		Expect(middle).To(HaveLen(st.ErrorLinesKept))
		Expect(len(head) + len(middle) + len(tail) + st.ErrorLinesDropped).To(Equal(100))
		Expect(st.ErrorLinesDropped).To(BeNumerically(">", 0))
		// the first error after the head and the last before the tail are kept
		first := 5 + 10*len(head)
		last := 995 - 10*len(tail)
		Expect(middle[0]).To(Equal(fmt.Sprintf("ERROR job %03d", first)))
		Expect(middle[len(middle)-1]).To(Equal(fmt.Sprintf("ERROR job %03d", last)))
		// an error right below the head reads as the head's: "kept below" counts those below the first marker
		firstMarker := strings.Index(out, "\n[... ")
		below := errorsIn(out[firstMarker : len(out)-st.TailBytes])
		Expect(len(below)).To(BeNumerically(">=", st.ErrorLinesKept-1))
		Expect(out).To(MatchRegexp(`; %d error-like lines kept below \.\.\.\]\n`, len(below)))
		Expect(out).To(MatchRegexp(`cut, \d+ error-like lines among them \.\.\.\]\n`))
		Expect(checkCut(text, 8000, headtail.Options{})).To(Succeed())
	})

	It("counts the middle's error-like lines but keeps none under a negative MaxErrorShare", func() {
		text := javaLog(400, 200)
		out, st := headtail.Cut(text, 4000, headtail.Options{MaxErrorShare: -1})
		Expect(st.ErrorLinesKept).To(BeZero())
		Expect(st.ErrorLinesDropped).To(Equal(2))
		Expect(st.Markers).To(Equal(1))
		Expect(out).To(MatchRegexp(`\n\[\.\.\. \d+ lines \(\d+ bytes\) cut, 2 error-like lines among them \.\.\.\]\n`))
	})

	It("takes continuation lines as Options.Continuation says", func() {
		text := info(0, 200) + "FATAL config invalid\n> line 3: key\n> line 4: value\n" + info(200, 200)
		out, _ := headtail.Cut(text, 4000, headtail.Options{})
		Expect(out).To(ContainSubstring("\nFATAL config invalid\n[... "))
		out, _ = headtail.Cut(text, 4000, headtail.Options{Continuation: func(line string) bool { return strings.HasPrefix(line, "> ") }})
		Expect(out).To(ContainSubstring("\nFATAL config invalid\n> line 3: key\n> line 4: value\n[... "))
	})

	It("cuts invalid UTF-8, NUL bytes and lone carriage returns without a panic, within the budget", func() {
		text := strings.Repeat("\xff\xfe\x00ERROR \r\x80\x80\x80\x80\n", 300) + strings.Repeat("\x80", 5000)
		for _, budget := range []int{0, 7, 40, 100, 101, 1000, 5000} {
			Expect(checkCut(text, budget, headtail.Options{})).To(Succeed(), "budget %d", budget)
		}
	})

	It("matches lines against ErrorPattern", func() {
		text := info(0, 200) + "WARN disk at 91%\n" + info(200, 200)
		out, st := headtail.Cut(text, 3000, headtail.Options{ErrorPattern: regexp.MustCompile(`^WARN `)})
		Expect(out).To(ContainSubstring("\nWARN disk at 91%\n["))
		Expect(st.ErrorLinesKept).To(Equal(1))
		out, _ = headtail.Cut(text, 3000, headtail.Options{})
		Expect(out).NotTo(ContainSubstring("WARN"))
	})

	DescribeTable("meets every budget from 0 to the text's length",
		func(text string, o headtail.Options) {
			for budget := -1; budget <= len(text)+1; budget++ {
				if err := checkCut(text, budget, o); err != nil {
					Fail(fmt.Sprintf("budget %d: %v", budget, err))
				}
			}
		},
		func(text string, o headtail.Options) string {
			return fmt.Sprintf("%d bytes %q…, %+v", len(text), text[:min(len(text), 24)], o)
		},
		Entry(nil, javaLog(30, 15), headtail.Options{}),
		Entry(nil, javaLog(30, 15), headtail.Options{HeadRatio: 0.5, MaxErrorShare: 0.9, Context: 2}),
		Entry(nil, strings.ReplaceAll(javaLog(24, 12), "\n", "\r\n"), headtail.Options{}),
		Entry(nil, strings.Repeat("日本語のテキスト✓ ", 30), headtail.Options{}),
		Entry(nil, strings.Repeat("é\n", 300), headtail.Options{}),
		Entry(nil, strings.Repeat("ERROR x\n\tat y\n", 100), headtail.Options{}),
		Entry(nil, "ERROR "+strings.Repeat("long ", 40)+"\n"+info(0, 10), headtail.Options{}),
		Entry(nil, info(0, 12)+strings.Repeat("z", 600)+"\n", headtail.Options{}),
		Entry(nil, strings.Repeat("\n", 500), headtail.Options{}),
	)

	It("keeps CRLF line endings and ends its markers with CRLF", func() {
		text := strings.ReplaceAll(javaLog(400, 200), "\n", "\r\n")
		out, st := headtail.Cut(text, 4000, headtail.Options{})
		Expect(st.ErrorLinesKept).To(Equal(2))
		Expect(strings.Count(out, "\n")).To(Equal(strings.Count(out, "\r\n")))
		Expect(out).To(ContainSubstring(strings.ReplaceAll(javaTrace, "\n", "\r\n")))
		Expect(out).To(MatchRegexp(`\r\n\[\.\.\. \d+ lines \(\d+ bytes\) cut; 2 error-like lines kept below \.\.\.\]\r\n`))
	})

	It("never splits a rune, even in a byte cut", func() {
		text := strings.Repeat("日本語✓é", 500) // one line
		for budget := 0; budget < 300; budget++ {
			out, _ := headtail.Cut(text, budget, headtail.Options{})
			Expect(utf8.ValidString(out)).To(BeTrue(), "budget %d: %q", budget, out)
		}
	})

	It("cuts a single 5 MB line to a byte head and a byte tail around one marker", func() {
		text := `{"items":[` + strings.Repeat(`{"id":1,"ok":true},`, 5<<20/19) + `{"id":2}]}`
		out, st := headtail.Cut(text, 16<<10, headtail.Options{})
		Expect(len(out)).To(BeNumerically("<=", 16<<10))
		Expect(len(out)).To(BeNumerically(">", 16<<10-4))
		Expect(st.Markers).To(Equal(1))
		Expect(st.LinesCut).To(Equal(1))
		Expect(st.Lines).To(Equal(1))
		Expect(out).To(HavePrefix(`{"items":[{"id":1`))
		Expect(out).To(HaveSuffix(`{"id":2}]}`))
		Expect(out).To(ContainSubstring(fmt.Sprintf("\n[... 1 line (%d bytes) cut ...]\n", st.BytesCut)))
		Expect(float64(st.HeadBytes) / float64(st.HeadBytes+st.TailBytes)).To(BeNumerically("~", 0.2, 0.01))
	})

	It("returns its own output unchanged (idempotence)", func() {
		for _, text := range []string{javaLog(400, 200), strings.Repeat("x", 10000), strings.Repeat("é\r\n", 3000)} {
			for _, budget := range []int{0, 10, 50, 100, 1000, 4000} {
				out, _ := headtail.Cut(text, budget, headtail.Options{})
				again, st := headtail.Cut(out, budget, headtail.Options{})
				Expect(again).To(Equal(out))
				Expect(st.BytesCut).To(BeZero())
			}
		}
	})

	It("is deterministic, also when called concurrently", func() {
		text := javaLog(2000, 700) + javaLog(2000, 1500)
		want, wantStats := headtail.Cut(text, 5000, headtail.Options{})
		var wg sync.WaitGroup
		outs := make([]string, 8)
		for i := range outs {
			wg.Go(func() { outs[i], _ = headtail.Cut(text, 5000, headtail.Options{}) })
		}
		wg.Wait()
		for _, out := range outs {
			Expect(out).To(Equal(want))
		}
		_, st := headtail.Cut(text, 5000, headtail.Options{})
		Expect(st).To(Equal(wantStats))
	})

	It("writes a marker without error counts when the budget is too small for them, and none below that", func() {
		text := javaLog(400, 200)
		out, st := headtail.Cut(text, 60, headtail.Options{})
		Expect(len(out)).To(BeNumerically("<=", 60))
		Expect(st.Markers).To(Equal(1))
		Expect(out).To(MatchRegexp(`\[\.\.\. \d+ lines \(\d+ bytes\) cut \.\.\.\]\n`))
		out, st = headtail.Cut(text, 20, headtail.Options{})
		Expect(out).To(Equal(text[:20]))
		Expect(st.Markers).To(BeZero())
		out, _ = headtail.Cut(text, 0, headtail.Options{})
		Expect(out).To(BeEmpty())
	})
})

var _ = Describe("Marker", func() {
	DescribeTable("writes what a gap cut, and MarkerPattern reads it back",
		func(g headtail.Gap, want string) {
			Expect(headtail.Marker(g)).To(Equal(want))
			Expect(headtail.MarkerLen(g)).To(Equal(len(want)))
			m := headtail.MarkerPattern.FindStringSubmatch(want)
			Expect(m).NotTo(BeNil())
			Expect(m[1:]).To(Equal([]string{fmt.Sprint(g.Lines), fmt.Sprint(g.Bytes), nonzero(g.ErrorLines), nonzero(g.KeptBelow)}))
		},
		func(g headtail.Gap, want string) string { return want },
		Entry(nil, headtail.Gap{Lines: 1234, Bytes: 56789}, "[... 1234 lines (56789 bytes) cut ...]"),
		Entry(nil, headtail.Gap{Lines: 1, Bytes: 5000000}, "[... 1 line (5000000 bytes) cut ...]"),
		Entry(nil, headtail.Gap{Lines: 9, Bytes: 90, ErrorLines: 1}, "[... 9 lines (90 bytes) cut, 1 error-like line among them ...]"),
		Entry(nil, headtail.Gap{Lines: 9, Bytes: 90, KeptBelow: 12}, "[... 9 lines (90 bytes) cut; 12 error-like lines kept below ...]"),
		Entry(nil, headtail.Gap{Lines: 9, Bytes: 90, ErrorLines: 7, KeptBelow: 1},
			"[... 9 lines (90 bytes) cut, 7 error-like lines among them; 1 error-like line kept below ...]"),
	)
})

func nonzero(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}

// lineVerdict describes a line-classifier entry: the line quoted, and the
// expected answer.
func lineVerdict(line string, want bool) string { return fmt.Sprintf("%q: %v", line, want) }

var _ = Describe("DefaultErrorPattern", func() {
	DescribeTable("marks error-like lines",
		func(line string, want bool) {
			Expect(headtail.DefaultErrorPattern.MatchString(line)).To(Equal(want))
			Expect(headtail.MatchDefault(line)).To(Equal(want)) // the automaton in front of it
		},
		lineVerdict,
		Entry(nil, "2026-11-25 ERROR db: connection lost", true),
		Entry(nil, "level=error msg=boom", true),
		Entry(nil, "Error: ENOENT: no such file", true),
		Entry(nil, "FATAL: password authentication failed", true),
		Entry(nil, "panic: runtime error: nil map", true),
		Entry(nil, "Exception in thread \"main\" java.lang.NullPointerException", true),
		Entry(nil, "Caused by: java.io.IOException: closed", true),
		Entry(nil, "Traceback (most recent call last):", true),
		Entry(nil, "TypeError: x is not a function", true),
		Entry(nil, "--- FAIL: TestX (0.01s)", true),
		Entry(nil, "Tests: 1 failed, 20 passed", true),
		Entry(nil, "build failure", true),
		Entry(nil, "context deadline exceeded (Client.Timeout exceeded)", true),
		Entry(nil, "rpc error: context deadline exceeded", true),
		Entry(nil, "dial tcp: i/o timeout", true),
		Entry(nil, "request timed out after 30s", true),
		Entry(nil, "Segmentation fault (core dumped)", true),
		Entry(nil, "fatal error: out of memory", true),
		Entry(nil, "open /etc/x: permission denied", true),
		Entry(nil, "connect: connection refused", true),
		Entry(nil, "npm ERR! code E404", true),
		Entry(nil, "E1126 10:00:00.123456 1 main.go:3] boom", true),
		Entry(nil, "CRITICAL disk full", true),
		Entry(nil, "2026-11-25 INFO all good", false),
		Entry(nil, "Found 0 errors", false),
		Entry(nil, "error_count=0", false),
		Entry(nil, "reading from stderr", false),
		Entry(nil, "WARN slow query", false),
		Entry(nil, "mirror updated", false),
		Entry(nil, "connection refu\u017fed (long s, folded to s)", true),
		Entry(nil, "TRACEBAC\u212a (Kelvin sign: folded to k, but no ASCII word boundary after it)", false),
		Entry(nil, "E1126 10:00:00.1", true),
		Entry(nil, "E11 is a road", false),
		Entry(nil, "boom", false),
		Entry(nil, "OOM killer", true),
	)
})

var _ = Describe("IsContinuation", func() {
	DescribeTable("says whether a line continues the error above it",
		func(line string, want bool) { Expect(headtail.IsContinuation(line)).To(Equal(want)) },
		lineVerdict,
		Entry(nil, "\tat com.acme.Pool.take(Pool.java:42)", true),
		Entry(nil, "  File \"app.py\", line 3, in <module>", true),
		Entry(nil, "    at Object.<anonymous> (/app/x.js:1:7)", true),
		Entry(nil, "at run (/app/x.js:1:7)", true),
		Entry(nil, "Caused by: java.io.IOException", true),
		Entry(nil, "... 12 more", true),
		Entry(nil, "goroutine 1 [running]:", true),
		Entry(nil, "main.main()", true),
		Entry(nil, "github.com/acme/app.(*Server).Serve(0xc000010000, {0x0, 0x0})", true),
		Entry(nil, "created by main.main in goroutine 1", true),
		Entry(nil, "", true),
		Entry(nil, "2026-11-25 INFO next request", false),
		Entry(nil, "exit status 2", false),
		Entry(nil, "call f(x)", false),
	)
})
