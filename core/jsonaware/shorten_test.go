package jsonaware_test

import (
	"errors"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/jsonaware"
	"github.com/toolout/toolout/core/jsonlex"
)

// shorten runs Shorten, fails the spec on an error or a broken contract,
// and returns the output as a string.
func shorten(doc string, budget int, o jsonaware.Options) (string, jsonaware.Stats) {
	GinkgoHelper()
	Expect(checkShorten([]byte(doc), budget, o)).To(Succeed())
	out, st, err := jsonaware.Shorten([]byte(doc), budget, o)
	Expect(err).NotTo(HaveOccurred())
	return string(out), st
}

// exactly shortens doc to the size of want, the form a step of the ladder
// gives (and no milder step fits in), and expects want.
func exactly(doc, want string, o jsonaware.Options) jsonaware.Stats {
	GinkgoHelper()
	out, st := shorten(doc, len(want), o)
	Expect(out).To(Equal(want))
	return st
}

// rows returns n comma-separated rows made by row.
func rows(n int, row func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = row(i)
	}
	return strings.Join(parts, ",")
}

var _ = Describe("Shorten", func() {
	Describe("an input that fits", func() {
		It("comes back as it is, white space and all", func() {
			in := "{\n  \"a\": [1, 2],\n  \"b\": \"x\"\n}\n"
			out, st := shorten(in, len(in), jsonaware.Options{})
			Expect(out).To(Equal(in))
			Expect(st.Step).To(Equal(0))
			Expect(st.OutBytes).To(Equal(len(in)))
		})
		It("loses a leading byte order mark", func() {
			out, _ := shorten("\uFEFF[1]", 100, jsonaware.Options{})
			Expect(out).To(Equal("[1]"))
		})
		It("is written compact when only that is needed", func() {
			out, st := shorten(`{ "a" : [ 1 , 2 ] , "b" : "x" }`, 20, jsonaware.Options{})
			Expect(out).To(Equal(`{"a":[1,2],"b":"x"}`))
			Expect(st.Step).To(Equal(1))
			Expect(st.StringsShortened + st.RowsCut).To(BeZero())
		})
	})

	DescribeTable("refuses what is not JSON with its position",
		func(in string, offset, line, col int, msg string) {
			_, _, err := jsonaware.Shorten([]byte(in), 10, jsonaware.Options{})
			var se *jsonlex.SyntaxError
			Expect(errors.As(err, &se)).To(BeTrue(), "error %v", err)
			Expect([]int{se.Offset, se.Line, se.Col}).To(Equal([]int{offset, line, col}))
			Expect(err.Error()).To(ContainSubstring(msg))
			Expect(err.Error()).To(HavePrefix(fmt.Sprintf("jsonaware: invalid JSON at %d:%d (byte %d): ", line, col, offset)))
		},
		Entry("empty", "", 0, 1, 1, "empty input"),
		Entry("white space alone", " \n ", 3, 2, 2, "empty input"),
		Entry("a byte order mark alone", "\uFEFF", 3, 1, 2, "empty input"),
		Entry("a trailing comma", "[1,\n 2,]", 7, 2, 4, "unexpected ']', looking for a value"),
		Entry("trailing garbage", `{"a":1} x`, 8, 1, 9, "data after the top-level value: 'x'"),
		Entry("two values", `1 2`, 2, 1, 3, "data after the top-level value"),
		Entry("unterminated", `["abc`, 5, 1, 6, "unterminated string"),
		Entry("a missing colon", `{"a" 1}`, 5, 1, 6, "looking for ':'"),
		Entry("a key that is not a string", `{1:2}`, 1, 1, 2, "looking for an object key"),
		Entry("a bad literal", `[tru]`, 1, 1, 2, "invalid literal"),
		Entry("a bad number", `[1.]`, 3, 1, 4, "invalid number"),
		Entry("invalid UTF-8", "[\"ab\xffc\"]", 4, 1, 5, "invalid UTF-8 in string"),
		Entry("a cut character", "[\"é\xe2\x82\"]", 4, 1, 4, "invalid UTF-8 in string"),
		Entry("a control byte", "[\"a\tb\"]", 3, 1, 4, "control character"),
		Entry("a bad escape", `["\q"]`, 2, 1, 3, "invalid escape"),
		Entry("nesting too deep", strings.Repeat("[", jsonaware.MaxDepth+1), jsonaware.MaxDepth, 1, jsonaware.MaxDepth+1, "nesting deeper than 10000 levels"),
	)

	It("reads nesting up to MaxDepth, and shortens inside it", func() {
		in := strings.Repeat("[", jsonaware.MaxDepth-1) + `{"k":"` + strings.Repeat("x", 100) + `"}` + strings.Repeat("]", jsonaware.MaxDepth-1)
		want := strings.Repeat("[", jsonaware.MaxDepth-1) + `{"k":"xxxxxxxx… [+92 bytes]"}` + strings.Repeat("]", jsonaware.MaxDepth-1)
		st := exactly(in, want, jsonaware.Options{MaxStringBytes: 8})
		Expect(st.StringsShortened).To(Equal(1))
	})

	Describe("strings", func() {
		long := `{"id":"a1","body":"` + strings.Repeat("abcdefghij", 100) + `"}`
		It("keep a head and say how many bytes were cut", func() {
			st := exactly(long, `{"id":"a1","body":"abcdefghijabcdefghijabcdefghijab… [+968 bytes]"}`, jsonaware.Options{MaxStringBytes: 32})
			Expect([]int{st.StringsShortened, st.BytesCut}).To(Equal([]int{1, 968}))
		})
		It("are cut only as far as the budget needs", func() {
			out, _ := shorten(long, 700, jsonaware.Options{MaxStringBytes: 32})
			Expect(len(out)).To(BeNumerically("<=", 700))
			Expect(len(out)).To(BeNumerically(">", 560), "within about a fifth of the budget")
		})
		DescribeTable("never cut a character, an escape or a surrogate pair",
			func(text string, maxStr int, head string, cut int) {
				exactly(`["`+text+`"]`, `["`+head+jsonaware.StringMarker(cut)+`"]`, jsonaware.Options{MaxStringBytes: maxStr})
			},
			Entry("a two-byte character at the cut", strings.Repeat("é", 40), 5, "éé", 76),
			Entry("a three-byte character at the cut", "a"+strings.Repeat("€", 40), 3, "a", 120),
			Entry("an escape at the cut", `abc\n`+strings.Repeat("x", 40), 4, "abc", 42),
			Entry("a \\u escape at the cut", `a\u00e9`+strings.Repeat("x", 40), 4, "a", 46),
			Entry("a surrogate pair at the cut", `\ud83d\ude00`+strings.Repeat("x", 40), 8, "", 52),
			Entry("a surrogate pair within the head", `\ud83d\ude00`+strings.Repeat("x", 40), 13, `\ud83d\ude00x`, 39),
			Entry("a lone surrogate escape is an escape like another", `\ud83dxyz`+strings.Repeat("x", 40), 8, `\ud83dxy`, 41),
		)
		It("are left whole when the marker would not save a byte", func() {
			out, st := shorten(`["abcdefghijkl", 1]`, 5, jsonaware.Options{MaxStringBytes: 2})
			Expect(out).To(Equal(`["abcdefghijkl",1]`))
			Expect(st.StringsShortened).To(BeZero())
			Expect(st.OverBudget).To(BeTrue())
		})
		It("add the counts of a second cut to the marker of the first", func() {
			first := `{"id":"a1","body":"abcdefghijabcdefghijabcdefghijab… [+968 bytes]"}`
			exactly(long, first, jsonaware.Options{MaxStringBytes: 32})
			st := exactly(first, `{"id":"a1","body":"… [+1000 bytes]"}`, jsonaware.Options{MaxStringBytes: 8})
			Expect(st.BytesCut).To(Equal(32))
		})
		It("cut a top-level string", func() {
			exactly(`"`+strings.Repeat("z", 100)+`"`, `"zzzzzzzzzz… [+90 bytes]"`, jsonaware.Options{MaxStringBytes: 10})
		})
		It("never cut keys, numbers or literals", func() {
			key := strings.Repeat("k", 300)
			num := "1" + strings.Repeat("0", 400) + ".5e-7"
			in := `{"` + key + `":` + num + `,"t":true,"n":null}`
			out, st := shorten(in, 10, jsonaware.Options{})
			Expect(out).To(Equal(in))
			Expect(st.OverBudget).To(BeTrue())
		})
	})

	Describe("arrays", func() {
		record := func(i int) string { return fmt.Sprintf(`{"seq":%d,"level":"info","ms":%d}`, i, 10+i%4) }
		It("keep the first and last rows and mark the rows cut between", func() {
			in := `{"rows":[` + rows(100, record) + `]}`
			st := exactly(in, `{"rows":[`+record(0)+","+record(1)+`,"[… 96 rows cut …]",`+record(98)+","+record(99)+`]}`, jsonaware.Options{KeepRows: 2})
			Expect([]int{st.ArraysShortened, st.RowsCut}).To(Equal([]int{1, 96}))
		})
		It("mark a single row cut in the singular", func() {
			a, b, c, e := strings.Repeat("a", 30), strings.Repeat("b", 30), strings.Repeat("c", 30), strings.Repeat("e", 30)
			errRow := "ERROR " + strings.Repeat("x", 24)
			exactly(`["`+a+`","`+b+`","`+errRow+`","`+c+`","`+e+`"]`, `["`+a+`","[… 1 row cut …]","`+errRow+`","[… 1 row cut …]","`+e+`"]`, jsonaware.Options{KeepRows: 1})
		})
		It("keep rows a marker would not make shorter", func() {
			out, st := shorten(`[1000,2000,3000]`, 12, jsonaware.Options{KeepRows: 1})
			Expect(out).To(Equal(`[1000,2000,3000]`))
			Expect(st.OverBudget).To(BeTrue())
		})
		// base rows share every key the error rows use, so that no row is
		// kept for its key paths.
		base := func(i int) string {
			return fmt.Sprintf(`{"seq":%d,"level":"info","msg":"ok","error":null,"status":200,"ok":true}`, i)
		}
		middle := func(row string, base func(int) string) string {
			return `[` + rows(100, func(i int) string {
				if i == 50 {
					return row
				}
				return base(i)
			}) + `]`
		}
		DescribeTable("keep an error-like row from the middle, with a marker each side",
			func(errRow string) {
				st := exactly(middle(errRow, base), `[`+base(0)+`,"[… 49 rows cut …]",`+errRow+`,"[… 48 rows cut …]",`+base(99)+`]`, jsonaware.Options{KeepRows: 1})
				Expect([]int{st.ErrorRowsKept, st.KeyRowsKept}).To(Equal([]int{1, 0}))
			},
			Entry("ErrorPattern in a string", `{"seq":50,"level":"info","msg":"upstream timed out","error":null,"status":200,"ok":true}`),
			Entry("a Java exception", `{"seq":50,"level":"info","msg":"java.lang.NullPointerException","error":null,"status":200,"ok":true}`),
			Entry("an error member", `{"seq":50,"level":"info","msg":"ok","error":"disk full","status":200,"ok":true}`),
			Entry("a status of 503", `{"seq":50,"level":"info","msg":"ok","error":null,"status":503,"ok":true}`),
			Entry("a status of \"502\"", `{"seq":50,"level":"info","msg":"ok","error":null,"status":"502","ok":true}`),
			Entry("a level of ERR", `{"seq":50,"level":"ERR","msg":"ok","error":null,"status":200,"ok":true}`),
			Entry("a level of crit", `{"seq":50,"level":"crit","msg":"ok","error":null,"status":200,"ok":true}`),
			Entry("ok: false", `{"seq":50,"level":"info","msg":"ok","error":null,"status":200,"ok":false}`),
		)
		It("keep a row whose error is deep inside it", func() {
			span := func(i int) string { return fmt.Sprintf(`{"seq":%d,"spans":[{"events":[{"name":"ok"}]}]}`, i) }
			errRow := `{"seq":50,"spans":[{"events":[{"name":"panic: nil map"}]}]}`
			exactly(middle(errRow, span), `[`+span(0)+`,"[… 49 rows cut …]",`+errRow+`,"[… 48 rows cut …]",`+span(99)+`]`, jsonaware.Options{KeepRows: 1})
		})
		It("keep an error-like string row", func() {
			line := func(i int) string { return fmt.Sprintf(`"2026-11-25 INFO request %d served"`, i) }
			errRow := `"2026-11-25 ERROR disk full"`
			exactly(middle(errRow, line), `[`+line(0)+`,"[… 49 rows cut …]",`+errRow+`,"[… 48 rows cut …]",`+line(99)+`]`, jsonaware.Options{KeepRows: 1})
		})
		DescribeTable("do not take these rows for errors",
			func(row string) {
				st := exactly(middle(row, base), `[`+base(0)+`,"[… 98 rows cut …]",`+base(99)+`]`, jsonaware.Options{KeepRows: 1})
				Expect(st.ErrorRowsKept).To(BeZero())
			},
			Entry("an error member that is null", `{"seq":50,"level":"info","msg":"ok","error":null,"status":200,"ok":true}`),
			Entry("an error member that is empty", `{"seq":50,"level":"info","msg":"ok","error":"","status":200,"ok":true}`),
			Entry("a status of 200", `{"seq":50,"level":"info","msg":"ok","error":null,"status":201,"ok":true}`),
			Entry("a status of 5000", `{"seq":50,"level":"info","msg":"ok","error":null,"status":5000,"ok":true}`),
			Entry("a level of warn", `{"seq":50,"level":"warn","msg":"ok","error":null,"status":200,"ok":true}`),
			Entry("an error member that is 0", `{"seq":50,"level":"info","msg":"ok","error":0,"status":200,"ok":true}`),
		)
		It("keep an outlier row, by a number far from the median", func() {
			body := rows(60, func(i int) string {
				if i == 30 {
					return `{"seq":30,"level":"info","ms":9000}`
				}
				return record(i)
			})
			st := exactly(`[`+body+`]`, `[`+record(0)+`,"[… 29 rows cut …]",{"seq":30,"level":"info","ms":9000},"[… 28 rows cut …]",`+record(59)+`]`, jsonaware.Options{KeepRows: 1})
			Expect(st.OutlierRowsKept).To(Equal(1))
		})
		It("keep a row that holds the only occurrence of a key path", func() {
			body := rows(100, func(i int) string {
				if i == 70 {
					return `{"seq":70,"level":"info","ms":1,"retry":{"after":5}}`
				}
				return record(i)
			})
			out, st := shorten(`{"rows":[`+body+`]}`, 10, jsonaware.Options{})
			Expect(out).To(Equal(`{"rows":[` + record(0) + `,"[… 69 rows cut …]",{"seq":70,"level":"info","ms":1,"retry":{"after":5}},"[… 29 rows cut …]"]}`))
			Expect(st.KeyRowsKept).To(Equal(2), "the first row too, at the smallest form")
			Expect(st.OverBudget).To(BeTrue())
		})
		It("cap the error-like rows kept per array at the late steps, keeping the last", func() {
			body := rows(200, func(i int) string {
				if i%10 == 5 {
					return fmt.Sprintf(`{"seq":%d,"level":"error"}`, i)
				}
				return fmt.Sprintf(`{"seq":%d,"level":"info"}`, i)
			})
			st := exactly(`[`+body+`]`, `[{"seq":0,"level":"info"},"[… 194 rows cut …]",{"seq":195,"level":"error"},"[… 3 rows cut …]",{"seq":199,"level":"info"}]`, jsonaware.Options{KeepRows: 1})
			Expect(st.ErrorRowsKept).To(Equal(1))
		})
		It("count the rows of a marker already in the input", func() {
			exactly(`[1,2,"[… 40 rows cut …]",3,4,5,6,7,8,9]`, `[1,"[… 47 rows cut …]",9]`, jsonaware.Options{KeepRows: 1})
		})
		It("leave a short array whole", func() {
			out, st := shorten(`{"a":[1,2,3],"s":"`+strings.Repeat("q", 600)+`"}`, 100, jsonaware.Options{KeepRows: 1})
			Expect(out).To(HavePrefix(`{"a":[1,2,3],"s":"`))
			Expect(st.RowsCut).To(BeZero())
		})
	})

	Describe("the budget", func() {
		doc := records(500, 250, 400)
		It("is met at every size down to the smallest form, every key path kept", func() {
			_, smallest, err := jsonaware.Shorten([]byte(doc), 0, jsonaware.Options{})
			Expect(err).NotTo(HaveOccurred())
			for budget := smallest.OutBytes; budget < len(doc)+10; budget += len(doc) / 12 {
				out, st := shorten(doc, budget, jsonaware.Options{})
				Expect(len(out)).To(BeNumerically("<=", budget))
				Expect(st.OverBudget).To(BeFalse())
			}
		})
		It("says when even the smallest form is over it", func() {
			out, st := shorten(doc, 50, jsonaware.Options{})
			Expect(st.OverBudget).To(BeTrue())
			Expect(st.Step).To(Equal(st.Steps))
			Expect(out).To(Equal(`{"service":"api","records":[{"seq":0,"level":"info","ms":10,"msg":"… [+40 bytes]"},"[… 499 rows cut …]"],"total":500}`))
		})
		It("keeps the error and outlier rows until the late steps", func() {
			out, st := shorten(doc, 2000, jsonaware.Options{})
			Expect(out).To(ContainSubstring(`"seq":250,"level":"error"`))
			Expect(out).To(ContainSubstring(`"seq":400,"level":"info","ms":5000`))
			Expect([]int{st.ErrorRowsKept, st.OutlierRowsKept}).To(Equal([]int{1, 1}))
		})
	})

	Describe("as a function", func() {
		doc := records(300, 100, 200)
		It("is deterministic", func() {
			a, _ := shorten(doc, 3000, jsonaware.Options{})
			for range 5 {
				b, _ := shorten(doc, 3000, jsonaware.Options{})
				Expect(b).To(Equal(a))
			}
		})
		It("is idempotent: its output, shortened again, comes back unchanged", func() {
			for _, budget := range []int{0, 100, 1000, 3000, 30000} {
				out, _ := shorten(doc, budget, jsonaware.Options{})
				again, _ := shorten(out, budget, jsonaware.Options{})
				Expect(again).To(Equal(out), "budget %d", budget)
			}
		})
		It("keeps unicode keys and values as they are", func() {
			in := `{"名前":"` + strings.Repeat("日本語", 100) + `","emoji":["😀","\ud83d\ude00"],"ключ":1}`
			exactly(in, `{"名前":"日本語… [+891 bytes]","emoji":["😀","\ud83d\ude00"],"ключ":1}`, jsonaware.Options{MaxStringBytes: 10})
		})
		It("keeps duplicate keys and their order", func() {
			out, _ := shorten(`{"b":1, "a":2, "b":3}`, 19, jsonaware.Options{})
			Expect(out).To(Equal(`{"b":1,"a":2,"b":3}`))
		})
		It("takes each adversarial schema of internal/hostile", func() {
			for _, d := range hostileDocs(16 << 10) {
				Expect(checkShorten(d, 4096, jsonaware.Options{})).To(Succeed())
			}
		})
	})
})

var _ = Describe("markers", func() {
	It("format and parse string markers", func() {
		Expect(jsonaware.StringMarker(1234)).To(Equal("… [+1234 bytes]"))
		head, n, ok := jsonaware.ParseStringMarker("abc… [+1234 bytes]")
		Expect([]any{head, n, ok}).To(Equal([]any{"abc", 1234, true}))
	})
	It("format and parse rows markers", func() {
		Expect(jsonaware.RowsMarker(1)).To(Equal("[… 1 row cut …]"))
		Expect(jsonaware.RowsMarker(980)).To(Equal("[… 980 rows cut …]"))
		n, ok := jsonaware.ParseRowsMarker("[… 980 rows cut …]")
		Expect([]any{n, ok}).To(Equal([]any{980, true}))
	})
	DescribeTable("reject what is not a marker",
		func(s string) {
			_, _, ok := jsonaware.ParseStringMarker(s)
			Expect(ok).To(BeFalse())
			_, ok = jsonaware.ParseRowsMarker(s)
			Expect(ok).To(BeFalse())
		},
		Entry(nil, "abc [+12 bytes]"),
		Entry(nil, "… [+ bytes]"),
		Entry(nil, "… [+012 bytes]"),
		Entry(nil, "… [+-1 bytes]"),
		Entry(nil, "… [+1234567890123456 bytes]"),
		Entry(nil, "[… 1 rows cut …]"),
		Entry(nil, "[… 2 row cut …]"),
		Entry(nil, "[… 2 rows cut …] "),
		Entry(nil, "[…  2 rows cut …]"),
	)
})
