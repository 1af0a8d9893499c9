package schema_test

import (
	"runtime"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/schema"
	"github.com/toolout/toolout/internal/hostile"
)

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
		func(in hostile.Input) {
			gen := in.Make
			work := func(size int) uint64 {
				data := gen(size)
				return allocated(func() {
					_, _ = schema.Summarize(data, schema.Options{})
					_, _ = schema.Inspect(data, "t", "", schema.InspectOptions{})
				})
			}
			// 32 KiB and 320 KiB: a quadratic path allocates a hundred
			// times as much at ten times the size, whatever the size.
			small, large := work(32<<10), work(320<<10)
			// Ten times the input allocates at most twelve times as much
			// (twenty under the race detector: see linearBound).
			Expect(float64(large)/float64(small)).To(BeNumerically("<=", linearBound), "%d then %d bytes", small, large)
			// And a small multiple of the input, plus what the caps allow.
			if !raceEnabled {
				Expect(large).To(BeNumerically("<=", 40*(320<<10)+64<<20), "%d bytes", large)
			}
		},
		func(in hostile.Input) string { return in.Name },
		schemaEntries(),
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
		Expect(float64(large)/float64(small)).To(BeNumerically("<=", linearBound), "%d then %d bytes", small, large)
	})

	It("lists a Tier-1 leaf 4,000 levels deep, below the summary depth", func() {
		s := summarize(hostileSchema("deep-properties")(1))
		Expect(len(s.OutputFields)).To(Equal(3))
		Expect(s.OutputFields[0]).To(Equal(`c0: object (contains 1 sub-fields; inspect_tool_output(..., field_path="c0"))`))
		Expect(s.OutputFields[2]).To(Equal(`c0.a.a: object (contains 1 sub-fields; inspect_tool_output(..., field_path="c0.a.a"))`))
		Expect(s.OutputFields[1]).To(HavePrefix("c0.a.a.a."))
		Expect(s.OutputFields[1]).To(HaveSuffix(".a.id: string"))
		Expect(s.OutputFields[1]).To(HaveLen(len("c0") + 2*4000 + len(".id: string")))
	})

	It("caps a schema whose paths multiply (2^n of them) and says fields are hidden", func() {
		s := summarize(hostileSchema("diamond")(64 << 10))
		Expect(s.HasHiddenFields).To(BeTrue())
		Expect(len(s.OutputFields)).To(BeNumerically("<=", 30))
		in, err := schema.Inspect(hostileSchema("diamond")(64<<10), "t", "root", schema.InspectOptions{MaxDepth: 1000, MaxFields: 1 << 30})
		Expect(err).NotTo(HaveOccurred())
		Expect(in.Truncated).To(BeTrue())
	})

	It("caps merges that would copy more properties than the node cap, and says so", func() {
		s, err := schema.Summarize(hostileSchema("merge-chain")(640<<10), schema.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.HasHiddenFields).To(BeTrue())
	})

	It("merges a wide allOf exactly when it fits the cap", func() {
		data := hostileSchema("wide-allof")(256 << 10)
		in, err := schema.Inspect(data, "t", "", schema.InspectOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(in.TotalChildFields).To(Equal(strings.Count(string(data), `"type":"string"`)))
		s := summarize(data)
		Expect(s.OutputFields[29]).To(MatchRegexp(`^\* \(\+\d+ more fields; inspect_tool_output\(\.\.\., field_path=""\)\)$`))
	})

	It("follows a long chain of $refs and of arrays", func() {
		Expect(summarize(hostileSchema("ref-chain")(640 << 10)).OutputFields).To(Equal([]string{"root: string"}))
		s := summarize(hostileSchema("array-chain")(64 << 10))
		Expect(s.OutputFields).To(HaveLen(1))
		Expect(s.OutputFields[0]).To(HaveSuffix("[][]: string"))
	})

	It("folds a cycle where it closes, and stays bounded on a long one", func() {
		in := inspect(hostileSchema("cycle")(200), "root", schema.InspectOptions{MaxDepth: 100}) // A0, A1, A2, back to A0
		Expect(in.FlattenedFields).To(Equal([]string{"id: string", "next.id: string", "next.next.id: string",
			`next.next.next: object (contains 2 sub-fields; inspect_tool_output(..., field_path="root.next.next.next"))`}))
		Expect(in.Truncated).To(BeFalse())
		s := summarize(hostileSchema("cycle")(640 << 10))
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

// schemaEntries makes one table entry per shared adversarial schema.
func schemaEntries() []TableEntry {
	var out []TableEntry
	for _, in := range hostile.Schemas {
		out = append(out, Entry(nil, in))
	}
	return out
}

// hostileSchema returns the generator of the named adversarial schema.
func hostileSchema(name string) func(size int) []byte {
	for _, in := range hostile.Schemas {
		if in.Name == name {
			return in.Make
		}
	}
	panic("no adversarial schema " + name)
}
