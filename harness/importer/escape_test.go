package importer

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("escapeMap", func() {
	DescribeTable("maps a decoded offset back to the raw offset of what decoded to it",
		func(raw string, decoded int, want int) {
			Expect(rawOffset([]byte(raw), decoded)).To(Equal(want))
		},
		Entry("plain text", `abc`, 2, 2),
		Entry("after \\n (two raw bytes, one decoded)", `a\nb`, 2, 3),
		Entry("after \\\"", `\"x`, 1, 2),
		Entry("after \\u00e9 (six raw bytes, two decoded)", `\u00e9x`, 2, 6),
		Entry("inside \\u00e9's two bytes: the escape", `\u00e9x`, 1, 0),
		Entry("after a surrogate pair (twelve raw bytes, four decoded)", `\ud83d\ude00!`, 4, 12),
		Entry("inside a surrogate pair: the pair", `\ud83d\ude00!`, 3, 0),
		Entry("after a lone surrogate (U+FFFD, three bytes)", `\ud83dx`, 3, 6),
		Entry("a low surrogate first is lone too", `\ude00\ud83dx`, 6, 12),
		Entry("after a character written as it is", `éx`, 2, 2),
		Entry("at the end", `a\tb`, 3, 4),
		Entry("past the end", `ab`, 9, 2),
		Entry("a byte that is not UTF-8 decodes to U+FFFD", "\xffx", 3, 1),
	)

	It("answers offsets asked in increasing order from where it is, and starts over for an earlier one", func() {
		raw := []byte(`a\nb\u00e9c\ud83d\ude00d`) // a \n b é c 😀 d
		m := &escapeMap{raw: raw}
		for d, want := range []int{0, 1, 3, 4, 4, 10, 11, 11, 11, 11, 23} {
			Expect(m.at(d)).To(Equal(want), "decoded offset %d", d)
		}
		Expect(m.at(2)).To(Equal(3))
	})
})

// FuzzEscapeMap checks the offset mapping against encoding/json: for every
// prefix of a string literal's content that decodes to a prefix of the
// whole decoded string, the decoded prefix's length maps back to the
// prefix's raw length; a map asked in increasing order agrees with fresh
// ones; the end maps to the end.
func FuzzEscapeMap(f *testing.F) {
	for _, s := range []string{`abc`, `a\nb`, `\u00e9x`, `\ud83d\ude00!`, `\ud83dx`, `\ude00\ud83d`, "é\\\"x", `\/\b\f\r\t`, "\xff\\u0041", `\uD834\uDD1E`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var full string
		if json.Unmarshal([]byte(`"`+raw+`"`), &full) != nil {
			return // not a literal's content
		}
		shared := &escapeMap{raw: []byte(raw)}
		last := -1
		for p := 0; p <= len(raw); p++ {
			var prefix string
			if json.Unmarshal([]byte(`"`+raw[:p]+`"`), &prefix) != nil || !strings.HasPrefix(full, prefix) {
				continue
			}
			if p < len(raw) && !utf8.RuneStart(raw[p]) {
				continue // inside a character written as it is
			}
			if len(prefix) == last {
				continue // the same decoded offset: the earlier raw offset is its unit's start
			}
			last = len(prefix)
			if got := rawOffset([]byte(raw), len(prefix)); got != p {
				t.Fatalf("%q: decoded offset %d maps to raw offset %d, want %d", raw, len(prefix), got, p)
			}
			if got := shared.at(len(prefix)); got != p {
				t.Fatalf("%q: a map asked in increasing order maps %d to %d, want %d", raw, len(prefix), got, p)
			}
		}
		if got := rawOffset([]byte(raw), len(full)); got != len(raw) {
			t.Fatalf("%q: the end maps to %d, want %d", raw, got, len(raw))
		}
	})
}
