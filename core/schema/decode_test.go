package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/core/schema"
)

var _ = Describe("decoding", func() {
	DescribeTable("reports invalid JSON with its byte offset",
		func(in, want string) {
			_, err := schema.Summarize([]byte(in), schema.Options{})
			Expect(err).To(MatchError("schema: " + want))
			var syn *jsonlex.SyntaxError
			Expect(errors.As(err, &syn)).To(BeTrue())
		},
		Entry("empty", ``, "invalid JSON at byte 0: unexpected end of input"),
		Entry("blank", "  \n", "invalid JSON at byte 3: unexpected end of input"),
		Entry("cut object", `{"type":`, "invalid JSON at byte 8: unexpected end of input"),
		Entry("trailing comma", `{"a":1,}`, `invalid JSON at byte 7: unexpected '}' (want a string key)`),
		Entry("missing colon", `{"a" 1}`, `invalid JSON at byte 5: unexpected '1' after a key (want ':')`),
		Entry("missing comma", `[1 2]`, `invalid JSON at byte 3: unexpected '2' after a value (want ',' or ']')`),
		Entry("bad literal", `{"a":tru}`, `invalid JSON at byte 5: unexpected 't' (want a value)`),
		Entry("bad number", `{"a":-}`, `invalid JSON at byte 6: unexpected '}' (want a value)`),
		Entry("leading zero", `[01]`, `invalid JSON at byte 2: unexpected '1' after a value (want ',' or ']')`),
		Entry("bad fraction", `[1.]`, `invalid JSON at byte 3: unexpected ']' in a number (want a digit)`),
		Entry("bad escape", `["\x"]`, `invalid JSON at byte 2: invalid escape \x in a string`),
		Entry("bad u escape", `["\u12G4"]`, `invalid JSON at byte 2: invalid \u escape in a string`),
		Entry("control character", "[\"a\tb\"]", `invalid JSON at byte 3: control character 0x09 in a string`),
		Entry("cut string", `["abc`, `invalid JSON at byte 5: unexpected end of input`),
		Entry("data after", `{} {}`, `invalid JSON at byte 3: data after the schema`),
		Entry("lone bracket", `]`, `invalid JSON at byte 0: unexpected ']' (want a value)`),
	)

	It("refuses nesting deeper than MaxNesting with the offset of the bracket that passes it", func() {
		_, err := schema.Summarize([]byte(strings.Repeat("[", 3_000_000)), schema.Options{})
		Expect(err).To(MatchError("schema: nesting deeper than 10000 levels at byte 10000"))
		var nest *schema.NestingError
		Expect(errors.As(err, &nest)).To(BeTrue())
		Expect(nest.Offset).To(BeEquivalentTo(10000))
		Expect(nest.Limit).To(Equal(schema.MaxNesting))

		deep := strings.Repeat(`{"a":`, 10_001) + "1" + strings.Repeat("}", 10_001)
		_, err = schema.Summarize([]byte(deep), schema.Options{})
		Expect(err).To(MatchError("schema: nesting deeper than 10000 levels at byte 50000"))
	})

	It("refuses deep nesting without copying the input, and reports an earlier syntax error first", func() {
		refuse := func(size int) uint64 {
			in := []byte(strings.Repeat("[", size))
			var err error
			bytes := allocated(func() { _, err = schema.Summarize(in, schema.Options{}) })
			Expect(err).To(MatchError("schema: nesting deeper than 10000 levels at byte 10000"))
			return bytes
		}
		small, large := refuse(20_000), refuse(10<<20)
		Expect(large).To(BeNumerically("<", small+64<<10), "bytes allocated to refuse 20 KB, then 10 MiB of [")

		_, err := schema.Summarize([]byte(`[1,,`+strings.Repeat("[", 20_000)), schema.Options{})
		Expect(err).To(MatchError("schema: invalid JSON at byte 3: unexpected ',' (want a value)"))
		// Brackets inside strings (escaped quotes too) do not count.
		str := `"` + strings.Repeat(`[\"`, 20_000) + `"`
		_, err = schema.Summarize([]byte(`{"type":"object","description":`+str+`}`), schema.Options{})
		Expect(err).NotTo(HaveOccurred())
	})

	It("accepts exactly MaxNesting levels, as encoding/json does", func() {
		in := []byte(strings.Repeat("[", schema.MaxNesting) + strings.Repeat("]", schema.MaxNesting))
		Expect(json.Valid(in)).To(BeTrue())
		_, err := schema.Summarize(in, schema.Options{})
		Expect(err).NotTo(HaveOccurred())
		in = []byte(strings.Repeat("[", schema.MaxNesting+1) + strings.Repeat("]", schema.MaxNesting+1))
		Expect(json.Valid(in)).To(BeFalse())
	})

	It("accepts exactly what encoding/json accepts, on mutated schemas", func() {
		seeds := [][]byte{load("small-fits"), load("union"), load("ref-cycle"), []byte(`{"a":[1,-2.5e+3,true,null,"\u00e9\ud83d\ude00\n"]}`)}
		for i := range 3000 {
			rng := rand.New(rand.NewPCG(uint64(i), 11))
			in := mutate(rng, seeds[i%len(seeds)])
			_, err := schema.Summarize(in, schema.Options{})
			Expect(err == nil).To(Equal(json.Valid(in)), "%q: %v", in, err)
		}
	})

	It("decodes escapes and surrogate pairs in names, and keeps the last of duplicate keys in the first place", func() {
		s := summarize([]byte(`{"properties":{"caf\u00e9":{"type":"string"},"\ud83d\ude00":{"type":"string"},"x\"y":{"type":"integer"},` +
			`"caf\u00e9":{"type":"boolean"},"bad\ud800":{"type":"null"}}}`))
		Expect(s.OutputFields).To(Equal([]string{"café: boolean", "😀: string", `x"y: integer`, "bad\ufffd: null"}))
	})
})

// mutate changes, inserts or deletes a few bytes, mostly JSON punctuation.
func mutate(rng *rand.Rand, in []byte) []byte {
	out := append([]byte(nil), in...)
	const alphabet = `{}[]:,"\ 0123456789.eE+-tfnul` + "\x00\x1f\xff"
	for range 1 + rng.IntN(3) {
		if len(out) == 0 {
			out = append(out, alphabet[rng.IntN(len(alphabet))])
			continue
		}
		i := rng.IntN(len(out))
		switch rng.IntN(3) {
		case 0:
			out[i] = alphabet[rng.IntN(len(alphabet))]
		case 1:
			out = append(out[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, out[i:]...)...)
		default:
			out = append(out[:i], out[i+1:]...)
		}
	}
	return out
}

var _ = Describe("references into a large object", func() {
	// $defs has more keys than the linear-search limit, so lookups go through
	// its key index and the position after the last hit; every order of
	// lookups must find the same targets, and a duplicate key its last value.
	refs := func(order []int) []byte {
		defs := []string{`"D7":{"type":"boolean"}`} // overridden below: the last value wins
		for i := range 40 {
			defs = append(defs, fmt.Sprintf(`"D%d":{"type":"object","properties":{"f%d":{"type":"integer"}}}`, i, i))
		}
		props := make([]string, len(order))
		for i, d := range order {
			props[i] = fmt.Sprintf(`"p%d":{"$ref":"#/$defs/D%d"}`, i, d)
		}
		return fmt.Appendf(nil, `{"$defs":{%s},"type":"object","properties":{%s}}`, strings.Join(defs, ","), strings.Join(props, ","))
	}
	DescribeTable("finds every target in any order",
		func(order []int) {
			in := inspect(refs(order), "", schema.InspectOptions{MaxFields: 1000})
			want := make([]string, len(order))
			for i, d := range order {
				want[i] = fmt.Sprintf("p%d.f%d: integer", i, d)
			}
			Expect(in.FlattenedFields).To(ContainElements(want))
			Expect(in.FlattenedFields).NotTo(ContainElement(HaveSuffix(": boolean")))
		},
		Entry("in declaration order", seq(0, 40, 1)),
		Entry("backwards", seq(39, -1, -1)),
		Entry("every second, then the rest", append(seq(0, 40, 2), seq(1, 40, 2)...)),
		Entry("the same one repeatedly", []int{5, 5, 6, 6, 5, 7, 7, 39, 0}),
		Entry("shuffled", rand.New(rand.NewPCG(7, 7)).Perm(40)),
	)
})

// seq lists from, from+step, ... while before to (after it, for a negative
// step).
func seq(from, to, step int) []int {
	var s []int
	for i := from; (step > 0 && i < to) || (step < 0 && i > to); i += step {
		s = append(s, i)
	}
	return s
}
