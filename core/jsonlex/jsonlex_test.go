package jsonlex_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/jsonlex"
)

var _ = Describe("Number", func() {
	DescribeTable("ends a number, or says where its grammar fails",
		func(in string, end int, ok bool) {
			gotEnd, gotOK := jsonlex.Number(in, 0)
			Expect([]any{gotEnd, gotOK}).To(Equal([]any{end, ok}))
			bEnd, bOK := jsonlex.Number([]byte(in), 0)
			Expect([]any{bEnd, bOK}).To(Equal([]any{end, ok}), "as []byte")
		},
		Entry(nil, "0", 1, true),
		Entry(nil, "-0.5e+10,", 8, true),
		Entry(nil, "12ab", 2, true),
		Entry("a leading zero ends the number", "012", 1, true),
		Entry("no digit", "x", 0, false),
		Entry("a lone minus", "-", 1, false),
		Entry("a minus and a letter", "-a", 1, false),
		Entry("no digit after the point", "1.e5", 2, false),
		Entry("no digit in the exponent", "1e+", 3, false),
		Entry("empty", "", 0, false),
	)
})

var _ = Describe("String", func() {
	DescribeTable("ends a literal, or names its fault and where",
		func(in string, at int, escaped bool, f jsonlex.Fault) {
			gotAt, gotEsc, gotF := jsonlex.String(in, 0)
			Expect([]any{gotAt, gotEsc, gotF}).To(Equal([]any{at, escaped, f}))
		},
		Entry(nil, `"ab"c`, 4, false, jsonlex.OK),
		Entry(nil, `"a\"b"`, 6, true, jsonlex.OK),
		Entry(nil, `"\u00E9"`, 8, true, jsonlex.OK),
		Entry("bytes from 0x80 as they are", "\"\xff\xfe\"", 4, false, jsonlex.OK),
		Entry("no closing quote", `"ab`, 3, false, jsonlex.Unterminated),
		Entry("cut after a backslash", `"a\`, 2, true, jsonlex.Unterminated),
		Entry("a control byte", "\"a\tb\"", 2, false, jsonlex.Control),
		Entry("DEL is not a control byte", "\"\x7f\"", 3, false, jsonlex.OK),
		Entry("a bad escape", `"a\x"`, 2, true, jsonlex.BadEscape),
		Entry("three hex digits", `"\u12x4"`, 1, true, jsonlex.BadHex),
		Entry("cut in the hex digits", `"\u12`, 1, true, jsonlex.BadHex),
	)
})

var _ = Describe("Unescape", func() {
	DescribeTable("decodes a literal's content",
		func(raw string, replace bool, want string) {
			Expect(string(jsonlex.Unescape(nil, raw, replace))).To(Equal(want))
			Expect(string(jsonlex.Unescape([]byte("x"), []byte(raw), replace))).To(Equal("x"+want), "as []byte, appended")
		},
		Entry(nil, `a\"b\\c\/d\b\f\n\r\t`, false, "a\"b\\c/d\b\f\n\r\t"),
		Entry("a surrogate pair", `\ud83d\ude00`, false, "😀"),
		Entry("a lone high surrogate", `\ud83dx`, false, "\ufffdx"),
		Entry("a high surrogate before a non-surrogate escape", `\ud83d\u0041`, false, "\ufffdA"),
		Entry("a lone low surrogate", `\ude00`, false, "\ufffd"),
		Entry("a high surrogate at the end", `\ud83d`, false, "\ufffd"),
		Entry("invalid UTF-8 kept", "a\xffb", false, "a\xffb"),
		Entry("invalid UTF-8 replaced byte by byte", "a\xff\xfeb", true, "a\ufffd\ufffdb"),
		Entry("a cut character replaced", "\xe2\x82", true, "\ufffd\ufffd"),
		Entry("valid UTF-8 kept", "é€😀", true, "é€😀"),
	)
})

var _ = Describe("Space and Literal", func() {
	It("skips JSON's four white space bytes and no other", func() {
		Expect(jsonlex.Space(" \t\r\n\fx", 0)).To(Equal(4))
		Expect(jsonlex.Space("  ", 1)).To(Equal(2))
	})
	It("finds a literal where it stands, and only there", func() {
		Expect(jsonlex.Literal("[true]", 1, "true")).To(Equal(5))
		Expect(jsonlex.Literal("[tru", 1, "true")).To(Equal(-1))
		Expect(jsonlex.Literal([]byte("nul"), 0, "null")).To(Equal(-1))
		Expect(jsonlex.Literal("null", -1, "null")).To(Equal(-1))
	})
})

var _ = Describe("String and Unescape, eight bytes at a time", func() {
	It("find every byte that ends a run of plain ones, at each place in a word", func() {
		for _, special := range []string{`"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, "\x00", "\x1f", " ", "\x7f", "\x80", "é", "\xff", "😀", "\xe2\x82"} {
			for at := range 20 {
				s := `"` + strings.Repeat("a", at) + special + strings.Repeat("b", 20-at) + `"`
				end, _, fault := jsonlex.String(s, 0)
				whole := fault == jsonlex.OK && end == len(s)
				Expect(whole).To(Equal(json.Valid([]byte(s))), "String(%q) = %d, %d", s, end, fault)
				if !whole {
					continue
				}
				var want string
				Expect(json.Unmarshal([]byte(s), &want)).To(Succeed())
				Expect(string(jsonlex.Unescape(nil, s[1:len(s)-1], true))).To(Equal(want), "Unescape(%q)", s)
				for max := 1; max < 10; max++ {
					Expect(unescapeInPieces(s[1:len(s)-1], max)).To(Equal(want), "UnescapeSome(%q) in pieces of %d", s, max)
				}
				if kept := jsonlex.Unescape(nil, []byte(s[1:len(s)-1]), false); utf8.Valid(kept) {
					Expect(string(kept)).To(Equal(want), "Unescape(%q, keep)", s)
				} else {
					Expect(string(kept)).To(Equal(s[1:len(s)-1]), "Unescape(%q, keep): invalid UTF-8 as it is", s)
				}
			}
		}
	})
})

// unescapeInPieces decodes raw by calls of UnescapeSome appending at
// least max bytes each (but the last), each going on where the one before
// stopped; an error says a call appended more than max+4 bytes or read
// nothing.
func unescapeInPieces(raw string, max int) (string, error) {
	var out []byte
	for raw != "" {
		more, n := jsonlex.UnescapeSome(out, raw, true, max)
		switch {
		case n <= 0 || n > len(raw):
			return "", fmt.Errorf("read %d of %d bytes", n, len(raw))
		case len(more)-len(out) > max+4:
			return "", fmt.Errorf("appended %d bytes, max %d", len(more)-len(out), max)
		case n < len(raw) && len(more)-len(out) < max:
			return "", fmt.Errorf("stopped after %d bytes, max %d", len(more)-len(out), max)
		}
		out, raw = more, raw[n:]
	}
	return string(out), nil
}

// FuzzLex holds the grammar to encoding/json on any input: String accepts a
// literal exactly when json.Valid does, and Unescape (replacing invalid
// UTF-8) gives what json.Unmarshal decodes; Number reads a whole number
// exactly when json.Valid accepts it, and never ends past the input.
func FuzzLex(f *testing.F) {
	for _, s := range []string{`"a\u00e9\ud83d\ude00"`, `"\ud800\u0041"`, "\"\xff\"", `"\x"`, "\"\x1f\"", `"\u12"`,
		"-0.5e+10", "01", "1.", "-", "1e", "\"\\", "\"\\u", strings.Repeat(`\n`, 40),
		`"abcdefghijklmno\"pqrstuvw"`, "\"abcdefgh\xffijklmnop\"", "\"abcdefghijk\x01lmnop\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s != "" && s[0] == '"' {
			at, _, fault := jsonlex.String(s, 0)
			whole := fault == jsonlex.OK && at == len(s)
			// json.Valid also takes white space after the literal.
			if valid := s[len(s)-1] == '"' && json.Valid([]byte(s)); whole != valid {
				t.Fatalf("String(%q) = %d, %d; json.Valid %v", s, at, fault, valid)
			}
			if whole {
				var want string
				if err := json.Unmarshal([]byte(s), &want); err != nil {
					t.Fatal(err)
				}
				if got := string(jsonlex.Unescape(nil, s[1:len(s)-1], true)); got != want {
					t.Fatalf("Unescape(%q) = %q, json.Unmarshal %q", s, got, want)
				}
				if got, err := unescapeInPieces(s[1:len(s)-1], 1+len(s)%9); err != nil || got != want {
					t.Fatalf("UnescapeSome(%q) in pieces of %d = %q, %v; json.Unmarshal %q", s, 1+len(s)%9, got, err, want)
				}
				if kept := jsonlex.Unescape(nil, s[1:len(s)-1], false); utf8.Valid(kept) && string(kept) != want {
					t.Fatalf("Unescape(%q, keep) = %q on valid UTF-8, json.Unmarshal %q", s, kept, want)
				}
			}
		}
		end, ok := jsonlex.Number(s, 0)
		if end < 0 || end > len(s) {
			t.Fatalf("Number(%q) ends at %d", s, end)
		}
		numeric := s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && s[len(s)-1] >= '0' && s[len(s)-1] <= '9'
		if whole, valid := ok && end == len(s), numeric && json.Valid([]byte(s)); whole != valid {
			t.Fatalf("Number(%q) = %d, %v; json.Valid %v", s, end, ok, valid)
		}
	})
}

var _ = Describe("Append", func() {
	DescribeTable("writes a literal as encoding/json does without HTML escaping",
		func(s, want string) {
			Expect(string(jsonlex.Append(nil, s))).To(Equal(want))
			Expect(string(jsonlex.Append([]byte("x"), []byte(s)))).To(Equal("x"+want), "as []byte, appended")
			Expect(want).To(Equal(encodeJSON(s)))
		},
		Entry(nil, "", `""`),
		Entry("HTML as it is", `<a href="x">&</a>`, `"<a href=\"x\">&</a>"`),
		Entry("escapes by name", "\\\b\f\n\r\t", `"\\\b\f\n\r\t"`),
		Entry("other control bytes", "\x00\x1f\x7f", `"\u0000\u001f`+"\x7f"+`"`),
		Entry("line and paragraph separators", "a\u2028b\u2029", `"a\u2028b\u2029"`),
		Entry("invalid UTF-8 byte by byte", "a\xff\xe2\x82b", `"a\ufffd\ufffd\ufffdb"`),
		Entry("valid UTF-8 as it is", "é€😀", `"é€😀"`),
	)
})

// encodeJSON is what encoding/json writes for s without HTML escaping.
func encodeJSON(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// FuzzAppend holds Append to encoding/json's encoder (without HTML
// escaping) on any input.
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "<&>\"\\", "\b\f\n\r\t\x00\x1f\x7f", "\u2028\u2029é", "\xff\xe2\x82", "😀\xf0\x9f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(jsonlex.Append(nil, s)), encodeJSON(s); got != want {
			t.Fatalf("Append(%q) = %s, encoding/json %s", s, got, want)
		}
	})
}

var _ = Describe("LineCol", func() {
	DescribeTable("names a byte offset by line and column in characters",
		func(text string, off, line, col int) {
			l, c := jsonlex.LineCol(text, off)
			Expect([]int{l, c}).To(Equal([]int{line, col}))
			l, c = jsonlex.LineCol([]byte(text), off)
			Expect([]int{l, c}).To(Equal([]int{line, col}), "the same for a byte slice")
		},
		Entry("the start", `{"a": 1}`, 0, 1, 1),
		Entry("on the first line", `{"a": 1}`, 6, 1, 7),
		Entry("after a line break", "{\n  \"a\": x}", 9, 2, 8),
		Entry("after multi-byte characters", "{\"é😀\": x}", 10, 1, 7),
		Entry("a byte that is not UTF-8 counts as one", "\xff\xfe x", 3, 1, 4),
		Entry("past the end: the end", "ab\ncd", 99, 2, 3),
		Entry("before the start: the start", "ab", -5, 1, 1),
	)
})
