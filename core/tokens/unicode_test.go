package tokens_test

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/tokens"
)

// fixturePath holds the counts of OpenAI's tiktoken for strings around
// every code point (testdata/tiktoken-unicode/README.md).
const fixturePath = "testdata/tiktoken-unicode/counts.txt.gz"

// fixtureStrings are the strings the fixture counts for each code point c,
// in the order of its digits (generate.mjs's templates).
func fixtureStrings(c rune) [4]string {
	s := string(c)
	return [4]string{s + "-s", "1" + s + "23", "  " + s + "x", "a" + s + "'s"}
}

// fixtureRun is a line of the fixture: the counts of the code points from
// first up to the next run's first, cl100k_base's four then o200k_base's.
type fixtureRun struct {
	first  rune
	counts [8]int
}

// readFixture parses the fixture's runs.
func readFixture(path string) ([]fixtureRun, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var runs []fixtureRun
	sc := bufio.NewScanner(z)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			continue
		}
		cp, digits, ok := strings.Cut(text, " ")
		digits = strings.ReplaceAll(digits, " ", "")
		first, err := strconv.ParseUint(cp, 16, 32)
		if !ok || err != nil || len(digits) != 8 {
			return nil, fmt.Errorf("%s:%d: malformed run %q", path, line, text)
		}
		run := fixtureRun{first: rune(first)}
		for i, d := range digits {
			run.counts[i] = int(d - '0')
		}
		runs = append(runs, run)
	}
	return runs, sc.Err()
}

// fixtureMismatches compares the counts of the code points in [lo, hi]
// that keep picks with the fixture, and describes the first 20 that differ
// and how many do.
func fixtureMismatches(runs []fixtureRun, lo, hi rune, keep func(rune) bool) []string {
	tks := []*tokens.Tiktoken{tokens.MustNew(tokens.CL100K), tokens.MustNew(tokens.O200K)}
	var out []string
	bad := 0
	for i, run := range runs {
		last := rune(0x10FFFF)
		if i+1 < len(runs) {
			last = runs[i+1].first - 1
		}
		for c := max(run.first, lo); c <= min(last, hi); c++ {
			if 0xD800 <= c && c <= 0xDFFF || !keep(c) {
				continue
			}
			for k, s := range fixtureStrings(c) {
				for e, tk := range tks {
					if got, want := tk.Count(s), run.counts[4*e+k]; got != want {
						if bad++; bad <= 20 {
							out = append(out, fmt.Sprintf("U+%04X %s: Count(%q) = %d, tiktoken %d", c, tk.Name(), s, got, want))
						}
					}
				}
			}
		}
	}
	if bad > 20 {
		out = append(out, fmt.Sprintf("... %d counts differ in all", bad))
	}
	return out
}

// unicode16Samples are letters, marks and numbers added in Unicode 16.0,
// one or more of each new script, with the counts OpenAI's tiktoken 1.0.22
// gives them (npm tiktoken, as testdata/tiktoken-unicode; cl100k_base,
// o200k_base). They seed the fuzz targets too.
var unicode16Samples = []struct {
	text          string
	cl100k, o200k int
}{
	{"\U00013CA4-s", 5, 5}, // Egyptian Hieroglyphs Extended-A: 6 tokens with Go's tables
	{"Garay \U00010D50\U00010D70\U00010D71 \U00010D70\U00010D50-s \U00010D40\U00010D41\U00010D42\U00010D43", 42, 42},
	{"Gurung Khema \U00016100\U00016101-s \U00016130\U00016131\U00016132\U00016133", 32, 32},
	{"Kirat Rai \U00016D43\U00016D44-s \U00016D70\U00016D71\U00016D72\U00016D73", 30, 30},
	{"Ol Onal \U0001E5D0\U0001E5D1-s \U0001E5F1\U0001E5F2\U0001E5F3\U0001E5F4", 30, 30},
	{"Sunuwar \U00011BC0\U00011BC1-s \U00011BF0\U00011BF1\U00011BF2\U00011BF3", 30, 29},
	{"Todhri \U000105C0\U000105C1-s", 14, 13},
	{"Tulu-Tigalari \U00011380\U00011381-s", 16, 15},
	{"CJK Extension I \U0002EBF0\U0002EBF1-s, hieroglyphs \U00013CA4\U00013CA5's", 28, 29},
	{"Myanmar Extended-C \U000116D0\U000116D1\U000116D2\U000116D3, outlined digits \U0001CCF0\U0001CCF1\U0001CCF2\U0001CCF3", 41, 40},
	{"Cyrillic \u1C89\u1C8A-s, Latin \uA7CB\uA7DC's, Arabic mark a\u0897-s", 29, 29},
}

// unicode16Texts returns the texts of unicode16Samples.
func unicode16Texts() []string {
	var out []string
	for _, s := range unicode16Samples {
		out = append(out, s.text)
	}
	return out
}

var _ = Describe("Tiktoken on Unicode 16", func() {
	// U+13CA4, an Egyptian hieroglyph of Unicode 16, is a letter in
	// tiktoken's tables: it is one piece and "-s" another (5 tokens), where
	// Go's Unicode 15 tables read it as unassigned, which joins it to "-"
	// (6 tokens).
	for _, name := range tokens.Names() {
		It(name+" counts 𓲤-s as tiktoken does: 5 tokens", func() {
			Expect(tokens.MustNew(name).Count("\U00013CA4-s")).To(Equal(5))
		})
	}

	for _, name := range tokens.Names() {
		tk := tokens.MustNew(name)
		var entries []TableEntry
		for _, s := range unicode16Samples {
			want := s.cl100k
			if name != tokens.CL100K {
				want = s.o200k
			}
			entries = append(entries, Entry(nil, s.text, want))
		}
		DescribeTable(name+" counts the letters and numbers of Unicode 16's scripts as tiktoken does",
			func(s string, want int) { Expect(tk.Count(s)).To(Equal(want)) },
			func(s string, _ int) string { return shortQuote(s) },
			entries,
		)
		It(name+" keeps the tokenizer contract on them", func() {
			Expect(tokens.Check(tk, unicode16Texts()...)).To(Succeed())
		})
	}

	// Every code point, against the counts recorded from tiktoken itself.
	// Without the race detector every one is checked; under it (make test's
	// one pass, where counting is about ten times slower and there is no
	// concurrency to check) a sample: see FixtureSample.
	runs, err := readFixture(fixturePath)
	It("reads the fixture of tiktoken's counts", func() {
		Expect(err).NotTo(HaveOccurred())
		Expect(len(runs)).To(BeNumerically(">", 10_000))
	})
	DescribeTable("counts as tiktoken does around every code point",
		func(lo, hi rune) {
			Expect(fixtureMismatches(runs, lo, hi, tokens.FixtureSample)).To(BeEmpty())
		},
		func(lo, hi rune) string { return fmt.Sprintf("U+%04X..U+%04X", lo, hi) },
		Entry(nil, rune(0), rune(0xFFFF)),
		Entry(nil, rune(0x10000), rune(0x10FFFF)),
	)
})
