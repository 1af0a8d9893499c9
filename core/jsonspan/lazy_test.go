package jsonspan

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/jsonlex"
)

var _ = Describe("Options for large texts", func() {
	It("leaves a list named by Lazy unbuilt and builds its items one at a time, in place", func() {
		body := []byte(`{"input": [ {"a":1}, "x" ,[2] ], "other": [3], "in": {"input": [4]}}`)
		root, err := ParseWith(body, Options{Lazy: []string{"input"}})
		Expect(err).NotTo(HaveOccurred())
		in := root.Get("input")
		Expect(in.Lazy()).To(BeTrue())
		Expect(in.Vals).To(BeNil())
		Expect(string(body[in.Start:in.End])).To(Equal(`[ {"a":1}, "x" ,[2] ]`))
		Expect(root.Get("other").Lazy()).To(BeFalse())
		Expect(root.Get("in").Get("input").Lazy()).To(BeTrue())
		var got []string
		Expect(in.Each(func(k int, it *Node) error {
			got = append(got, fmt.Sprintf("%d:%s", k, body[it.Start:it.End]))
			return nil
		})).To(Succeed())
		Expect(got).To(Equal([]string{`0:{"a":1}`, `1:"x"`, `2:[2]`}))
		stop := errors.New("stop")
		n := 0
		Expect(in.Each(func(int, *Node) error { n++; return stop })).To(MatchError(stop))
		Expect(n).To(Equal(1))
	})

	It("refuses a lazy list that is not JSON as Parse does, and gives Parse's nesting bound to its items", func() {
		for _, body := range []string{`{"input": [1,]}`, `{"input": [1 2]}`, `{"input": [`, `{"input": ` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`} {
			_, want := Parse([]byte(body))
			_, err := ParseWith([]byte(body), Options{Lazy: []string{"input"}})
			Expect(err).To(Equal(want), body)
			Expect(Check([]byte(body))).To(Equal(want), body)
		}
		Expect(Check([]byte(`{"input": [1]}`))).To(Succeed())
	})

	It("reports offsets through Pos: a text cut from a larger one, or the content of a string literal", func() {
		body := []byte(`{"a": [1, "b"]}`)
		root, err := ParseWith(body, Options{Pos: func(i int) int { return 100 + i }})
		Expect(err).NotTo(HaveOccurred())
		a := root.Get("a")
		Expect([]int{root.Start, root.End, root.KeyStarts[0], a.Start, a.End, a.Vals[1].Start}).To(Equal([]int{100, 115, 101, 106, 114, 110}))
		_, err = ParseWith([]byte(`{"a": [1, }`), Options{Pos: func(i int) int { return 100 + i }})
		Expect(err).To(MatchError("invalid JSON at byte 110: unexpected '}'"))
		lazy, err := ParseWith(body, Options{Pos: func(i int) int { return 100 + i }, Lazy: []string{"a"}})
		Expect(err).NotTo(HaveOccurred())
		var starts []int
		Expect(lazy.Get("a").Each(func(_ int, it *Node) error { starts = append(starts, it.Start); return nil })).To(Succeed())
		Expect(starts).To(Equal([]int{107, 110}))
	})

	It("shares keys, short strings and numbers with Intern, and gives a number its text", func() {
		body := []byte(`[{"role":"user","n":12.50},{"role":"user","n":12.50,"long":"` + strings.Repeat("x", 40) + `"},{"role":"us\u0065r"}]`)
		root, err := ParseWith(body, Options{Intern: true})
		Expect(err).NotTo(HaveOccurred())
		a, b, c := root.Vals[0], root.Vals[1], root.Vals[2]
		same := func(x, y string) bool { return unsafe.StringData(x) == unsafe.StringData(y) }
		Expect(same(a.Keys[0], b.Keys[0])).To(BeTrue())
		Expect(same(a.Get("role").Str, b.Get("role").Str)).To(BeTrue())
		Expect(a.Get("n").Str).To(Equal("12.50"))
		Expect(same(a.Get("n").Str, b.Get("n").Str)).To(BeTrue())
		Expect(c.Get("role").Str).To(Equal("user")) // escaped: a string of its own
		Expect(same(c.Get("role").Str, a.Get("role").Str)).To(BeFalse())
		plain, err := Parse(body)
		Expect(err).NotTo(HaveOccurred())
		Expect(plain.Vals[0].Get("n").Str).To(Equal("12.50"))
		Expect(same(plain.Vals[0].Keys[0], plain.Vals[1].Keys[0])).To(BeFalse())
	})

	It("says the body ended where it ends before a value is whole", func() {
		for _, body := range []string{`{"a":1`, `{"a"`, `[1,2`, `{`} {
			_, err := Parse([]byte(body))
			Expect(err).To(MatchError(fmt.Sprintf("invalid JSON at byte %d: unexpected end of input", len(body))), body)
		}
	})
})

// FuzzOptions checks ParseWith's options against Parse on any bytes: with
// Pos, Lazy and Intern together (and KeepParts or not) it accepts what Parse accepts, refuses
// the rest with Parse's message at Pos of Parse's offset, and gives the
// same tree shifted by Pos, a lazy list's items (read with Each) the
// items Parse built; Check gives Parse's error and nil for a body Parse
// accepts.
func FuzzOptions(f *testing.F) {
	for _, s := range []string{`{"input":[{"a":1},"x",[2]],"b":[3]}`, `{"input":[1,]}`, `{"input":"s","n":-1.5e3}`,
		`[{"input":[[{"input":[]}]]}]`, `{"input":[` + strings.Repeat("[", 520), `{"a":"\u00e9","a":2}`, `{"input":[1 2]}`} {
		f.Add([]byte(s), "input", uint8(7))
	}
	f.Fuzz(func(t *testing.T, body []byte, lazy string, base uint8) {
		want, wantErr := Parse(body)
		if err := Check(body); fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("Check: %v, Parse: %v", err, wantErr)
		}
		shift := int(base)
		got, err := ParseWith(body, Options{Pos: func(i int) int { return shift + i }, Lazy: []string{lazy}, Intern: true, KeepParts: base%2 == 0})
		var se, wse *jsonlex.SyntaxError
		switch {
		case wantErr == nil && err == nil:
			sameTree(t, body, want, got, shift)
		case errors.As(wantErr, &wse) && errors.As(err, &se):
			if se.Offset != wse.Offset+shift || se.Msg != wse.Msg {
				t.Fatalf("ParseWith: %v, Parse: %v, shifted by %d", err, wantErr, shift)
			}
		default:
			t.Fatalf("ParseWith: %v, Parse: %v", err, wantErr)
		}
	})
}

// sameTree fails unless got is want with its offsets shifted by shift,
// its lazy lists' items those of want.
func sameTree(t *testing.T, body []byte, want, got *Node, shift int) {
	t.Helper()
	if got.Kind != want.Kind || got.Start != want.Start+shift || got.End != want.End+shift || got.Str != want.Str ||
		fmt.Sprint(got.Keys) != fmt.Sprint(want.Keys) {
		t.Fatalf("node at %d: got %c %d-%d %q %q, want %c %d-%d %q %q", want.Start, got.Kind, got.Start, got.End, got.Str, got.Keys,
			want.Kind, want.Start, want.End, want.Str, want.Keys)
	}
	if want.Kind == 'n' && want.Str != string(body[want.Start:want.End]) {
		t.Fatalf("number at %d: text %q", want.Start, want.Str)
	}
	var items []*Node
	_ = got.Each(func(_ int, it *Node) error { items = append(items, it); return nil })
	if got.Kind == '{' {
		items = got.Vals
	}
	if len(items) != len(want.Vals) {
		t.Fatalf("node at %d: %d items, want %d", want.Start, len(items), len(want.Vals))
	}
	for i := range items {
		sameTree(t, body, want.Vals[i], items[i], shift)
	}
}
