package schema_test

import (
	"fmt"
	"runtime"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/schema"
)

// adversarial builds schemas of about size bytes that were (or could be)
// super-linear: the same generators feed bench/schema_test.go.
var adversarial = map[string]func(size int) []byte{
	// brackets: "[" repeated, the stack overflow of the issue (an error).
	"brackets": func(size int) []byte { return []byte(strings.Repeat("[", size)) },
	// deep-properties: side-by-side chains of nested properties, each 4,000
	// levels deep (within the nesting limit), ending in a Tier-1 leaf.
	"deep-properties": func(size int) []byte {
		const depth = 4000
		chain := strings.Repeat(`{"type":"object","properties":{"a":`, depth) + `{"type":"object","properties":{"id":{"type":"string"}}}` + strings.Repeat("}}", depth)
		return envelope(size, func(i int) string { return fmt.Sprintf(`"c%d":%s`, i, chain) }, `{"type":"object","properties":{`, `}}`)
	},
	// wide-allof: one allOf with a branch per field.
	"wide-allof": func(size int) []byte {
		return envelope(size, func(i int) string { return fmt.Sprintf(`{"properties":{"f%d":{"type":"string"}}}`, i) }, `{"allOf":[`, `]}`)
	},
	// wide-anyof: one anyOf with an object branch per field.
	"wide-anyof": func(size int) []byte {
		return envelope(size, func(i int) string { return fmt.Sprintf(`{"properties":{"f%d":{"type":"string"}}}`, i) }, `{"anyOf":[`, `]}`)
	},
	// wide-flat: one object with a field per entry.
	"wide-flat": func(size int) []byte {
		return envelope(size, func(i int) string { return fmt.Sprintf(`"field_%d":{"type":"string"}`, i) }, `{"type":"object","properties":{`, `}}`)
	},
	// shared-base: many objects extending one big base with allOf.
	"shared-base": func(size int) []byte {
		var base strings.Builder
		for i := range 200 {
			fmt.Fprintf(&base, `%s"b%d":{"type":"string"}`, map[bool]string{true: ",", false: ""}[i > 0], i)
		}
		return envelope(size, func(i int) string {
			return fmt.Sprintf(`"x%d":{"allOf":[{"$ref":"#/$defs/Base"},{"properties":{"own%d":{"type":"string"}}}]}`, i, i)
		}, `{"$defs":{"Base":{"properties":{`+base.String()+`}}},"type":"object","properties":{`, `}}`)
	},
	// merge-chain: A(i) = allOf[A(i+1), {field i}]; each level holds all below.
	"merge-chain": func(size int) []byte {
		return chain(size, func(i int) string {
			return fmt.Sprintf(`"A%d":{"allOf":[{"$ref":"#/$defs/A%d"},{"properties":{"p%d":{"type":"string"}}}]}`, i, i+1, i)
		})
	},
	// ref-chain: A(i) = $ref A(i+1).
	"ref-chain": func(size int) []byte {
		return chain(size, func(i int) string { return fmt.Sprintf(`"A%d":{"$ref":"#/$defs/A%d"}`, i, i+1) })
	},
	// array-chain: A(i) = array of A(i+1).
	"array-chain": func(size int) []byte {
		return chain(size, func(i int) string {
			return fmt.Sprintf(`"A%d":{"type":"array","items":{"$ref":"#/$defs/A%d"}}`, i, i+1)
		})
	},
	// object-chain: A(i) has fields id and next = A(i+1): a path as deep as
	// the schema is long.
	"object-chain": func(size int) []byte {
		return chain(size, func(i int) string {
			return fmt.Sprintf(`"A%d":{"properties":{"name":{"type":"string"},"next":{"$ref":"#/$defs/A%d"}}}`, i, i+1)
		})
	},
	// diamond: A(i) has two fields that are both A(i+1): 2^n paths.
	"diamond": func(size int) []byte {
		return chain(size, func(i int) string {
			return fmt.Sprintf(`"A%d":{"properties":{"l_id":{"$ref":"#/$defs/A%d"},"r":{"$ref":"#/$defs/A%d"}}}`, i, i+1, i+1)
		})
	},
	// cycle: like object-chain, but the last refers back to the first.
	"cycle": func(size int) []byte {
		data := chain(size, func(i int) string {
			return fmt.Sprintf(`"A%d":{"properties":{"id":{"type":"string"},"next":{"$ref":"#/$defs/A%d"}}}`, i, i+1)
		})
		return []byte(strings.Replace(string(data), `"A_end":{"type":"string"}`, `"A_end":{"$ref":"#/$defs/A0"}`, 1))
	},
}

// envelope joins items made by item until the result is about size bytes.
func envelope(size int, item func(i int) string, open, close string) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"data":`)
	b.WriteString(open)
	for i := 0; i == 0 || b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(item(i))
	}
	b.WriteString(close + `}}`)
	return []byte(b.String())
}

// chain writes $defs A0, A1, ... (each made by def) and a root field that
// refers to A0; the last definition's successor is A_end.
func chain(size int, def func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	n := 0
	for ; n == 0 || b.Len() < size; n++ {
		b.WriteString(def(n) + ",")
	}
	s := b.String() + `"A_end":{"type":"string"}},"type":"object","properties":{"root":{"$ref":"#/$defs/A0"}}}`
	return []byte(strings.ReplaceAll(s, fmt.Sprintf(`"#/$defs/A%d"`, n), `"#/$defs/A_end"`))
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

var _ = Describe("bounds", func() {
	DescribeTable("summarizes and inspects adversarial schemas with work linear in their size",
		func(kind string) {
			gen := adversarial[kind]
			work := func(size int) uint64 {
				data := gen(size)
				return allocated(func() {
					_, _ = schema.Summarize(data, schema.Options{})
					_, _ = schema.Inspect(data, "t", "", schema.InspectOptions{})
				})
			}
			small, large := work(64<<10), work(640<<10)
			// Ten times the input allocates at most twelve times as much.
			Expect(float64(large)/float64(small)).To(BeNumerically("<=", 12), "%d then %d bytes", small, large)
			// And a small multiple of the input, plus what the caps allow.
			if !raceEnabled {
				Expect(large).To(BeNumerically("<=", 40*(640<<10)+64<<20), "%d bytes", large)
			}
		},
		func(kind string) string { return kind },
		Entry(nil, "brackets"),
		Entry(nil, "deep-properties"),
		Entry(nil, "wide-allof"),
		Entry(nil, "wide-anyof"),
		Entry(nil, "wide-flat"),
		Entry(nil, "shared-base"),
		Entry(nil, "merge-chain"),
		Entry(nil, "ref-chain"),
		Entry(nil, "array-chain"),
		Entry(nil, "object-chain"),
		Entry(nil, "diamond"),
		Entry(nil, "cycle"),
	)

	It("walks a long field path in time linear in its length", func() {
		self := []byte(`{"type":"object","properties":{"id":{"type":"string"},"self":{"$ref":"#"}}}`)
		work := func(n int) uint64 {
			path := strings.Repeat("self.", n) + "id"
			return allocated(func() {
				in, err := schema.Inspect(self, "t", path, schema.InspectOptions{})
				Expect(err).NotTo(HaveOccurred())
				Expect(in.NodeType).To(Equal("string"))
			})
		}
		small, large := work(20_000), work(200_000)
		Expect(float64(large)/float64(small)).To(BeNumerically("<=", 12), "%d then %d bytes", small, large)
	})

	It("lists a Tier-1 leaf 4,000 levels deep, below the summary depth", func() {
		s := summarize(adversarial["deep-properties"](1))
		Expect(len(s.OutputFields)).To(Equal(3))
		Expect(s.OutputFields[0]).To(Equal("c0: object"))
		Expect(s.OutputFields[2]).To(Equal(`c0.a.a: object (contains 1 sub-fields; inspect_tool_output(..., field_path="c0.a.a"))`))
		Expect(s.OutputFields[1]).To(HavePrefix("c0.a.a.a."))
		Expect(s.OutputFields[1]).To(HaveSuffix(".a.id: string"))
		Expect(s.OutputFields[1]).To(HaveLen(len("c0") + 2*4000 + len(".id: string")))
	})

	It("caps a schema whose paths multiply (2^n of them) and says fields are hidden", func() {
		s := summarize(adversarial["diamond"](64 << 10))
		Expect(s.HasHiddenFields).To(BeTrue())
		Expect(len(s.OutputFields)).To(BeNumerically("<=", 30))
		in, err := schema.Inspect(adversarial["diamond"](64<<10), "t", "root", schema.InspectOptions{MaxDepth: 1000, MaxFields: 1 << 30})
		Expect(err).NotTo(HaveOccurred())
		Expect(in.Truncated).To(BeTrue())
	})

	It("caps merges that would copy more properties than the node cap, and says so", func() {
		s, err := schema.Summarize(adversarial["merge-chain"](640<<10), schema.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.HasHiddenFields).To(BeTrue())
	})

	It("merges a wide allOf exactly when it fits the cap", func() {
		data := adversarial["wide-allof"](256 << 10)
		in, err := schema.Inspect(data, "t", "", schema.InspectOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(in.TotalChildFields).To(Equal(strings.Count(string(data), `"type":"string"`)))
		s := summarize(data)
		Expect(s.OutputFields[29]).To(MatchRegexp(`^\* \(\+\d+ more fields; inspect_tool_output\(\.\.\., field_path=""\)\)$`))
	})

	It("follows a long chain of $refs and of arrays", func() {
		Expect(summarize(adversarial["ref-chain"](640 << 10)).OutputFields).To(Equal([]string{"root: string"}))
		s := summarize(adversarial["array-chain"](64 << 10))
		Expect(s.OutputFields).To(HaveLen(1))
		Expect(s.OutputFields[0]).To(HaveSuffix("[][]: string"))
	})

	It("folds a cycle where it closes, and stays bounded on a long one", func() {
		in := inspect(adversarial["cycle"](200), "root", schema.InspectOptions{MaxDepth: 100}) // A0, A1, A2, back to A0
		Expect(in.FlattenedFields).To(Equal([]string{"id: string", "next.id: string", "next.next.id: string",
			`next.next.next: object (contains 2 sub-fields; inspect_tool_output(..., field_path="root.next.next.next"))`}))
		Expect(in.Truncated).To(BeFalse())
		s := summarize(adversarial["cycle"](640 << 10))
		Expect(s.HasHiddenFields).To(BeTrue())
		Expect(s.OutputFields).To(HaveLen(30))
	})
})

var _ = It("takes huge max_fields and max_depth without allocating for them", func() {
	s, err := schema.Summarize(load("customer"), schema.Options{MaxFields: 1 << 40, MaxDepth: 1 << 40, MaxNodes: 1 << 40})
	Expect(err).NotTo(HaveOccurred())
	Expect(s.HasHiddenFields).To(BeTrue()) // metafields: unknown keys
	in, err := schema.Inspect(load("customer"), "t", "", schema.InspectOptions{MaxFields: 1 << 40, MaxDepth: 1 << 40, MaxNodes: 1 << 40})
	Expect(err).NotTo(HaveOccurred())
	Expect(in.Truncated).To(BeFalse())
})

var _ = It("is safe for concurrent use (no shared state between calls)", func() {
	data := load("page-tree")
	want := summarize(data)
	done := make(chan schema.Summary)
	for range 4 {
		go func() {
			defer GinkgoRecover()
			s, _ := schema.Summarize(data, schema.Options{})
			_, _ = schema.Inspect(data, "t", "blocks[].children[]", schema.InspectOptions{})
			done <- s
		}()
	}
	for range 4 {
		Expect(<-done).To(Equal(want))
	}
})
