package jqquery_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/jqquery"
)

// bigOrders is a JSON output of about 2 MB: 12,000 orders.
func bigOrders() string {
	var b strings.Builder
	b.WriteString(`{"orders":[`)
	for i := range 12000 {
		if i > 0 {
			b.WriteByte(',')
		}
		status := "shipped"
		if i%997 == 0 {
			status = "late"
		}
		fmt.Fprintf(&b, `{"id":"A-%05d","status":%q,"customer":{"name":"customer %d","region":"eu-%d"},"items":[{"sku":"S-%d","qty":%d}],"note":"%s"}`,
			i, status, i, i%4, i%50, i%7+1, strings.Repeat("x", 60))
	}
	b.WriteString(`]}`)
	return b.String()
}

func kind(err error) string {
	var e *jqquery.Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return fmt.Sprint(err)
}

var _ = Describe("Run", func() {
	ctx := context.Background()

	It("answers a question on a 2 MB JSON output with what the expression prints", func() {
		doc := bigOrders()
		Expect(len(doc)).To(BeNumerically(">", 2_000_000))
		r, err := jqquery.Run(ctx, doc, `[.orders[] | select(.status == "late") | .id]`, jqquery.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Text).To(Equal(`["A-00000","A-00997","A-01994","A-02991","A-03988","A-04985","A-05982","A-06979","A-07976","A-08973","A-09970","A-10967","A-11964"]`))
	})

	It("reads JSON lines as a stream of values, and keeps a number's digits", func() {
		r, err := jqquery.Run(ctx, "{\"n\":12345678901234567890}\n{\"n\":2}\n", `.n`, jqquery.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Text).To(Equal("12345678901234567890\n2"))
		Expect(r.Values).To(Equal(2))
	})

	DescribeTable("fails with text the model can act on",
		func(doc, expr, wantKind, wantText string) {
			_, err := jqquery.Run(ctx, doc, expr, jqquery.Options{})
			Expect(kind(err)).To(Equal(wantKind))
			Expect(err.Error()).To(ContainSubstring(wantText))
			Expect(err.Error()).NotTo(ContainSubstring("\n"))
		},
		Entry("a syntax error", `{}`, `.orders[ | .id`, jqquery.Syntax, "jq: syntax error: "),
		Entry("an unknown function", `{}`, `.orders | frobnicate`, jqquery.Syntax, "frobnicate"),
		Entry("a runtime error", `{"a":"x"}`, `.a[]`, jqquery.Runtime, "jq: cannot iterate over: string"),
		Entry("not JSON", "ts=1 level=INFO\n", `.`, jqquery.NotJSON, "the output is not JSON (at byte"),
		Entry("no output", "", `.`, jqquery.NotJSON, "the output is empty"),
		Entry("an error the expression raises", `{}`, `error("no orders")`, jqquery.Runtime, "no orders"),
	)

	It("lets a model recover from its error: the message names the type the path met", func() {
		doc := `{"orders":[{"id":"A-1","items":[{"sku":"S-1"}]}]}`
		_, err := jqquery.Run(ctx, doc, `.orders[].items.sku`, jqquery.Options{})
		Expect(err).To(MatchError(ContainSubstring("expected an object but got: array")))
		r, err := jqquery.Run(ctx, doc, `.orders[].items[].sku`, jqquery.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Text).To(Equal(`"S-1"`))
	})

	DescribeTable("stops a runaway expression at its bound",
		func(expr string, o jqquery.Options, wantKind string) {
			start := time.Now()
			r, err := jqquery.Run(ctx, `{"a":1}`, expr, o)
			if wantKind == "cut" {
				Expect(err).NotTo(HaveOccurred())
				Expect(r.Cut).To(BeTrue())
				Expect(len(r.Text)).To(BeNumerically("<=", o.MaxOutputBytes+100))
				return
			}
			Expect(kind(err)).To(Equal(wantKind))
			Expect(time.Since(start)).To(BeNumerically("<", time.Minute)) // a bound, not a timing
		},
		Entry("an endless stream, cut at the output bound", `range(1e12)`, jqquery.Options{MaxOutputBytes: 4096}, "cut"),
		Entry("an endless loop, stopped at the time bound", `def f: f; f`, jqquery.Options{Timeout: 200 * time.Millisecond}, jqquery.Timeout),
		Entry("an array of a billion, stopped at the heap bound", `[range(1e9)] | length`, jqquery.Options{Timeout: time.Minute, MaxHeapBytes: 32 << 20}, jqquery.Memory),
	)

	It("refuses an expression over MaxExprBytes, and runs a deeply nested one within it", func() {
		_, err := jqquery.Run(ctx, `{}`, strings.Repeat(" ", jqquery.MaxExprBytes)+".", jqquery.Options{})
		Expect(err).To(MatchError(ContainSubstring("over 65536: write a shorter one")))
		// 30,000 levels, within the bound: an answer (nested arrays, cut at the
		// output bound; a number), no deep Go stack in gojq's parser or compiler
		r, err := jqquery.Run(ctx, `{}`, strings.Repeat("[", 30000)+"1"+strings.Repeat("]", 30000), jqquery.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Cut).To(BeTrue())
		r, err = jqquery.Run(ctx, `{}`, strings.Repeat("(", 30000)+"1"+strings.Repeat(")", 30000), jqquery.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Text).To(Equal("1"))
	})

	It("refuses an output over MaxInputBytes before decoding it", func() {
		_, err := jqquery.Run(ctx, `[`+strings.Repeat(`1,`, 100)+`1]`, `.`, jqquery.Options{MaxInputBytes: 100})
		Expect(kind(err)).To(Equal(jqquery.TooLarge))
	})

	It("gives the expression no environment and no modules", func() {
		Expect(os.Setenv("JQQUERY_SECRET", "s3cret")).To(Succeed())
		DeferCleanup(os.Unsetenv, "JQQUERY_SECRET")
		r, err := jqquery.Run(ctx, `{}`, `$ENV | tostring`, jqquery.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Text).NotTo(ContainSubstring("s3cret"))
		_, err = jqquery.Run(ctx, `{}`, `import "x" as x; .`, jqquery.Options{})
		Expect(err).To(HaveOccurred())
	})
})

// FuzzRun: on any expression and document, within small bounds, Run
// returns (no panic), its text is within the output bound, and an error
// is an *Error of one line.
func FuzzRun(f *testing.F) {
	f.Add(`.a`, `{"a":[1,2]}`)
	f.Add(`[range(1e9)]`, `1`)
	f.Add(`def f: f; f`, `null`)
	f.Add(`.[] | tostring * 100000`, `["ab"]`)
	f.Add(`input`, `1 2`)
	f.Fuzz(func(t *testing.T, expr, doc string) {
		o := jqquery.Options{Timeout: 50 * time.Millisecond, MaxOutputBytes: 4096, MaxHeapBytes: 32 << 20, MaxInputBytes: 1 << 16}
		r, err := jqquery.Run(context.Background(), doc, expr, o)
		if len(r.Text) > o.MaxOutputBytes+100 {
			t.Fatalf("%d bytes of output", len(r.Text))
		}
		if err != nil {
			var e *jqquery.Error
			if !errors.As(err, &e) || strings.Contains(e.Msg, "\n") {
				t.Fatalf("error %T %q", err, err)
			}
		}
	})
}
