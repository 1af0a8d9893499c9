package gateway_test

import (
	"errors"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/internal/wireparse"
)

// shapeThenParse is how a body was read before the bounds were counted in
// the parse, kept as the oracle of ParseObjectBounded: a scan of the shape
// first, then the parse.
func shapeThenParse(body []byte, b gateway.Bounds) error {
	if err := gateway.CheckJSONShape(body, b.MaxValues, b.MaxNesting); err != nil {
		return err
	}
	_, err := wireparse.ParseObject(body, "request")
	return err
}

func boundedError(body []byte, b gateway.Bounds) error {
	_, err := gateway.ParseObjectBounded(body, "request", b)
	return err
}

var _ = Describe("ParseObjectBounded", func() {
	DescribeTable("gives the error of a shape scan before the parse",
		func(body string, b gateway.Bounds) {
			want := shapeThenParse([]byte(body), b)
			got := boundedError([]byte(body), b)
			Expect(got == nil).To(Equal(want == nil))
			if want != nil {
				Expect(got.Error()).To(Equal(want.Error()))
				var wl, gl *gateway.LimitError
				Expect(errors.As(got, &gl)).To(Equal(errors.As(want, &wl)))
			}
		},
		Entry("within both", `{"a":[1,2,{"b":"[,:"}]}`, gateway.Bounds{MaxValues: 9, MaxNesting: 3}),
		Entry("one token too many", `{"a":[1,2,{"b":"[,:"}]}`, gateway.Bounds{MaxValues: 7, MaxNesting: 3}),
		Entry("one level too deep", `{"a":[1,2,{"b":"[,:"}]}`, gateway.Bounds{MaxValues: 100, MaxNesting: 2}),
		Entry("both at the same bracket: nesting is named", `[[[[`, gateway.Bounds{MaxValues: 2, MaxNesting: 2}),
		Entry("a syntax error before the bound: the bound", `{"a" 1, "b":[`+strings.Repeat("0,", 50)+`0]}`, gateway.Bounds{MaxValues: 10, MaxNesting: 5}),
		Entry("a syntax error, within the bounds", `{"a" 1}`, gateway.Bounds{MaxValues: 10, MaxNesting: 5}),
		Entry("a literal holding brackets", `[1{{{{]`, gateway.Bounds{MaxValues: 10, MaxNesting: 2}),
		Entry("escaped quotes", `{"a\"[[[[":"\\",":[[[[1]]]]}`, gateway.Bounds{MaxValues: 10, MaxNesting: 3}),
		Entry("not an object", `[1,2]`, gateway.Bounds{MaxValues: 10, MaxNesting: 5}),
		Entry("deeper than the parser goes, within the bound", strings.Repeat("[", 600)+strings.Repeat("]", 600), gateway.Bounds{MaxValues: 1000, MaxNesting: 1000}),
		Entry("empty", ``, gateway.Bounds{MaxValues: 1, MaxNesting: 1}),
	)

	It("bounds nothing with zero bounds", func() {
		_, err := gateway.ParseObjectBounded([]byte(`{"a":[[[1,2,3]]]}`), "request", gateway.Bounds{})
		Expect(err).NotTo(HaveOccurred())
		_, err = gateway.ParseObjectBounded([]byte(`{"a":[[[1,2,3]]]`), "request", gateway.Bounds{MaxNesting: 1})
		Expect(err).To(MatchError("JSON nested deeper than 1 levels at byte 5"))
	})
})

// FuzzParseObjectBounded holds the one bounded parse to a shape scan then
// a parse on any body and bounds: the same error, or none.
func FuzzParseObjectBounded(f *testing.F) {
	f.Add([]byte(`{"a":[1,2,{"b":"[,:"}]}`), 7, 3)
	f.Add([]byte(`{"a" 1, "b":[0,0,0,0]}`), 3, 3)
	f.Add([]byte(`[1{{{{]`), 10, 2)
	f.Add([]byte(`{"a\"[[[[":"\\",":[[[[1]]]]}`), 10, 3)
	f.Fuzz(func(t *testing.T, body []byte, values, nesting int) {
		b := gateway.Bounds{MaxValues: 1 + max(0, min(values, 1<<20)), MaxNesting: 1 + max(0, min(nesting, 1000))}
		want, got := shapeThenParse(body, b), boundedError(body, b)
		if (want == nil) != (got == nil) || want != nil && want.Error() != got.Error() {
			t.Fatalf("%q within %+v: got %v, want %v", body, b, got, want)
		}
	})
}
