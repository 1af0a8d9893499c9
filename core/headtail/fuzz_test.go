package headtail_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/headtail"
	"github.com/toolout/toolout/internal/hostile"
	"github.com/toolout/toolout/internal/seeds"
)

// maxFuzzBytes bounds the fuzzed text.
const maxFuzzBytes = 8 << 10

// FuzzCut checks every property of checkCut (never panics; within the
// budget, markers included, always (a budget is a bound for every
// strategy); valid UTF-8 out of valid UTF-8; every kept byte the text's, in
// order; exact marker counts; stats that add up; determinism), and that the
// automaton in front of DefaultErrorPattern changes none of its answers on
// the text's lines, for any text
// up to 8 KiB, any budget up to a little over its length, and options from
// the fuzzed bytes: head ratio, error share, context, and the default or a
// one-letter error pattern. Seeds: the tool outputs of the bundled
// scenarios and the shapes of the specs (logs with traces, CRLF, unicode,
// one long line, an object of many keys on one line at 1,000).
func FuzzCut(f *testing.F) {
	texts := append(seeds.MustOutputs(f, "../../scenarios", 100), specTexts()...)
	for i, s := range texts {
		s = s[:min(len(s), maxFuzzBytes)]
		f.Add(s, uint16(len(s)*(i%10)/10), uint8(i*37), uint8(i*53), int8(i%7-2), i%3 == 0)
	}
	f.Add(hostile.ManyKeys(3000)[:maxFuzzBytes], uint16(1000), uint8(40), uint8(0), int8(0), false) // many keys, one line
	letter := regexp.MustCompile(`x`)
	f.Fuzz(func(t *testing.T, text string, budget uint16, ratio, share uint8, context int8, x bool) {
		text = text[:min(len(text), maxFuzzBytes)]
		o := headtail.Options{
			HeadRatio:     float64(ratio)/200 - 0.1, // -0.1 to 1.175: none, default, all
			MaxErrorShare: float64(share)/200 - 0.1,
			Context:       int(context),
		}
		if x {
			o.ErrorPattern = letter
		}
		for _, line := range strings.Split(text, "\n") {
			if headtail.MatchDefault(line) != headtail.DefaultErrorPattern.MatchString(line) {
				t.Fatalf("%q: the automaton and DefaultErrorPattern differ", line)
			}
		}
		if err := checkCut(text, int(budget)%(len(text)+64), o); err != nil {
			t.Fatalf("budget %d, %+v: %v", int(budget)%(len(text)+64), o, err)
		}
	})
}

// specTexts are the shapes the specs cut, small.
func specTexts() []string {
	return []string{
		javaLog(40, 20),
		strings.ReplaceAll(javaLog(30, 10), "\n", "\r\n"),
		strings.Repeat("héllo wörld ✓ 日本語 ", 40),
		strings.Repeat("x", 3000),
		strings.Repeat("ERROR a\n\tat b\n", 100),
		strings.Repeat("\n", 300),
		strings.Repeat("é\r\n", 200) + "tail without newline",
		"one\r\ntwo\r\n" + strings.Repeat("ERROR\r\n", 50) + "three\r\n",
		"TRACEBAC\u212a\nexception\u017f\nE1126 10:00:00.1 x\nF0000 00:00:00\nE12\nerr!\nERR!\nTypeError\nxOOM\n",
	}
}
