package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/core/schema"
)

func load(name string) []byte {
	data, err := os.ReadFile("../../scenarios/schema/data/" + name + ".json")
	Expect(err).NotTo(HaveOccurred())
	return data
}

func summarize(data []byte) schema.Summary {
	GinkgoHelper()
	s, err := schema.Summarize(data, schema.Options{})
	Expect(err).NotTo(HaveOccurred())
	return s
}

var _ = Describe("Tier-1 regex", func() {
	It("is the spec's text with its Markdown-doubled backslashes undone", func() {
		Expect(strings.ReplaceAll(schema.Tier1RegexSpec, `\\`, `\`)).To(Equal(schema.Tier1Regex))
	})

	It("depends only on a field's own name, which is what walks test", func() {
		parts := []string{"id", "_id", "x_id", "name", "a.name", "type", "", ".", "[]", "[].", "ids", "name[]", "user_id[]", "nameX", "a.b_id"}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 20000 {
			prefix := parts[rng.IntN(len(parts))] + parts[rng.IntN(len(parts))]
			name := parts[rng.IntN(len(parts))] + parts[rng.IntN(len(parts))]
			if name == "" || strings.HasSuffix(name, "[]") {
				continue
			}
			for _, sep := range []string{".", "[]."} {
				Expect(schema.IsTier1(prefix+sep+name)).To(Equal(schema.IsTier1(name)), "%q %q", prefix+sep, name)
			}
		}
	})

	DescribeTable("matches the last segment of a path",
		func(path string, want bool) { Expect(schema.IsTier1(path)).To(Equal(want)) },
		Entry("id", "id", true),
		Entry("nested id", "customer.id", true),
		Entry("array item id", "orders[].id", true),
		Entry("suffix _id", "orders[].line_items[].variant_id", true),
		Entry("email", "customer.email", true),
		Entry("status", "fulfillments[].status", true),
		Entry("price", "line_items[].price", true),
		Entry("not a suffix", "financial_status", false),
		Entry("created_at is not created", "created_at", false),
		Entry("identity", "identity", false),
		Entry("sku", "line_items[].sku", false),
	)
})

var _ = Describe("Summarize", func() {
	It("keeps the dot after a field whose name is empty, so that its fields are not shown as the root's", func() {
		s := summarize([]byte(`{"properties": {"": {"properties": {"l": {}, "m": {}}}, "l": {"type": "string"}}}`))
		Expect(s.OutputFields).To(Equal([]string{"l: string", ".l: any", ".m: any"}))
		s = summarize([]byte(`{"properties": {"a": {"properties": {"": {"properties": {"x": {}}}}}}}`))
		Expect(s.OutputFields).To(Equal([]string{"a..x: any"}))
		s = summarize([]byte(`{"properties": {"": {"type": "array", "items": {"properties": {"y": {}}}}}}`))
		Expect(s.OutputFields).To(Equal([]string{"[].y: any"}))
	})

	It("lists every leaf of a small schema breadth-first, no line for a container, with has_hidden_fields false", func() {
		s := summarize(load("small-fits"))
		Expect(s.HasHiddenFields).To(BeFalse())
		Expect(s.OutputFields).To(Equal([]string{"id: string", "name: string", "created: string", "tags[]: string", "score: number",
			"owner.id: string", "owner.email: string"}))
	})

	It("folds the 416-leaf order list into 30 lines: root fields and markers, then Tier 1", func() {
		s := summarize(load("shop-orders"))
		Expect(s.HasHiddenFields).To(BeTrue())
		Expect(s.OutputFields).To(HaveLen(30))
		Expect(s.OutputFields[0]).To(Equal(`orders[]: object (contains 52 sub-fields; inspect_tool_output(..., field_path="orders[]"))`))
		Expect(s.OutputFields[1]).To(Equal(`page_info: object (contains 2 sub-fields; inspect_tool_output(..., field_path="page_info"))`))
		Expect(s.OutputFields).To(ContainElement("orders[].line_items[].variant_id: integer|null"))
	})

	It("lists only leaves, breadth-first, when nothing is hidden: three levels of containers and exactly 30 leaves", func() {
		props := map[string]any{}
		for i := range 6 {
			inner := map[string]any{}
			for j := range 4 {
				inner[fmt.Sprintf("leaf%d", j)] = map[string]any{"type": "integer"}
			}
			props[fmt.Sprintf("c%d", i)] = map[string]any{"type": "object", "properties": map[string]any{
				"x":     map[string]any{"type": "string"},
				"inner": map[string]any{"type": "object", "properties": inner},
			}}
		}
		data, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
		s := summarize(data)
		Expect(s.HasHiddenFields).To(BeFalse())
		Expect(s.OutputFields).To(HaveLen(30))
		for i, l := range s.OutputFields {
			Expect(l).NotTo(ContainSubstring(": object"), "line %d", i)
		}
		// Breadth-first: the six depth-2 leaves come before the depth-3 ones.
		Expect(s.OutputFields[:6]).To(HaveEach(MatchRegexp(`^c\d\.x: string$`)))
		Expect(s.OutputFields[6:]).To(HaveEach(MatchRegexp(`^c\d\.inner\.leaf\d: integer$`)))
	})

	It("fills all 30 lines from one large root container, listing it in part (its marker gives N)", func() {
		order := map[string]any{}
		for i := range 50 {
			order[fmt.Sprintf("f%02d", i)] = map[string]any{"type": "string"}
		}
		data, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
			"id": map[string]any{"type": "string"}, "order": map[string]any{"type": "object", "properties": order}}})
		s := summarize(data)
		Expect(s.HasHiddenFields).To(BeTrue())
		Expect(s.OutputFields).To(HaveLen(30))
		Expect(s.OutputFields[:3]).To(Equal([]string{"id: string",
			`order: object (contains 50 sub-fields; inspect_tool_output(..., field_path="order"))`, "order.f00: string"}))
		Expect(s.OutputFields[29]).To(Equal("order.f27: string"))
	})

	It("fills breadth-first, one line at a time: a nested container has no line, its fields do", func() {
		data := []byte(`{"properties":{
			"p":{"properties":{"p1":{"type":"string"},"p2":{"type":"string"},"q":{"properties":{"q1":{"type":"string"},"q2":{"type":"string"}}}}},
			"r":{"properties":{"r1":{"type":"string"},"r2":{"type":"string"}}},
			"m":{"type":"object"}}}`)
		marker := func(p string, n int) string {
			return fmt.Sprintf(`%s: object (contains %d sub-fields; inspect_tool_output(..., field_path=%q))`, p, n, p)
		}
		tier2 := []string{marker("p", 3), marker("r", 2), `m: object (unknown keys; inspect_tool_output(..., field_path="m"))`}
		s := summarize(data)
		Expect(s.OutputFields).To(Equal(append(tier2, "p.p1: string", "p.p2: string", "r.r1: string", "r.r2: string", "p.q.q1: string", "p.q.q2: string")))
		s, err := schema.Summarize(data, schema.Options{MaxFields: 6})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.OutputFields).To(Equal(append(tier2, "p.p1: string", "p.p2: string", "r.r1: string")))
	})

	It("lists the customer's first_name, last_name and phone, and uses all 30 lines", func() {
		s := summarize(load("customer"))
		Expect(s.OutputFields).To(HaveLen(30))
		Expect(s.OutputFields).To(ContainElements("customer.first_name: string", "customer.last_name: string", "customer.phone: string|null"))
	})

	It("marks containers cut by the depth limit instead of hiding them", func() {
		s := summarize(load("depth-limited"))
		Expect(s.OutputFields).To(Equal([]string{`a: object (contains 1 sub-fields; inspect_tool_output(..., field_path="a"))`, "id: string", `a.b.c: object (contains 1 sub-fields; inspect_tool_output(..., field_path="a.b.c"))`}))
		Expect(s.HasHiddenFields).To(BeTrue())
	})

	It("stays within 30 lines for 40 root fields, keeping the Tier-1 one, with an overflow marker", func() {
		s := summarize(load("many-root-fields"))
		Expect(s.OutputFields).To(HaveLen(30))
		Expect(s.OutputFields).To(ContainElement("order_id: string"))
		Expect(s.OutputFields[29]).To(Equal(`* (+12 more fields; inspect_tool_output(..., field_path=""))`))
	})

	It("stays bounded on a recursive schema", func() {
		s := summarize(load("ref-cycle"))
		Expect(s.OutputFields).To(ContainElement(`root.children[]: object (contains 4 sub-fields; inspect_tool_output(..., field_path="root.children[]"))`))
		Expect(s.HasHiddenFields).To(BeTrue())
	})

	It("lists every root key on its own line, a container always as its fold marker with N, even when its fields are listed below it", func() {
		s := summarize(load("customer"))
		Expect(s.OutputFields[:8]).To(Equal([]string{
			`customer: object (contains 12 sub-fields; inspect_tool_output(..., field_path="customer"))`,
			`default_address: object (contains 12 sub-fields; inspect_tool_output(..., field_path="default_address"))`,
			`recent_orders[]: object (contains 6 sub-fields; inspect_tool_output(..., field_path="recent_orders[]"))`,
			`loyalty: object (contains 3 sub-fields; inspect_tool_output(..., field_path="loyalty"))`,
			`marketing: object (contains 2 sub-fields; inspect_tool_output(..., field_path="marketing"))`,
			`metafields: object (unknown keys; inspect_tool_output(..., field_path="metafields"))`,
			"segments[]: string",
			"requested_at: string",
		}))
		Expect(s.OutputFields).To(ContainElement("customer.tags: string"))
		// The fill is breadth-first: default_address's fields come before
		// marketing's, and the 30 lines run out inside default_address.
		Expect(s.OutputFields).To(HaveLen(30))
		Expect(s.OutputFields[29]).To(Equal("default_address.last_name: string|null"))
	})

	It("keeps every root key when Tier 2 and Tier 1 do not fit together, and cuts Tier 1", func() {
		s, err := schema.Summarize(load("customer"), schema.Options{MaxFields: 9})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.OutputFields).To(HaveLen(9))
		Expect(s.OutputFields[0]).To(Equal(`customer: object (contains 12 sub-fields; inspect_tool_output(..., field_path="customer"))`))
		Expect(s.OutputFields[8]).To(Equal("customer.id: integer"))
		Expect(s.HasHiddenFields).To(BeTrue())
	})

	It("lists Tier-1 leaves far below the summary depth", func() {
		s := summarize(load("deep-tier1"))
		Expect(s.OutputFields).To(ContainElement("fields.workflow.state.current.category.category_id: string"))
		Expect(s.OutputFields).To(ContainElement("fields.comments[].author.account.profile.display.avatar.url: string"))
	})

	It("reports a bad schema with its byte offset", func() {
		_, err := schema.Summarize([]byte(`{"type": "object", "properties": {`), schema.Options{})
		Expect(err).To(MatchError("schema: invalid JSON at byte 34: unexpected end of input"))
		var syn *jsonlex.SyntaxError
		Expect(errors.As(err, &syn)).To(BeTrue())
		Expect(syn.Offset).To(BeEquivalentTo(34))
	})

	It("holds its invariants on random schemas: at most 30 lines, all of them used while fields remain, every Tier-1 leaf that fits, hidden iff marked, deterministic", func() {
		for seed := range uint64(300) {
			rng := rand.New(rand.NewPCG(seed, 7))
			data, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"data": randomObject(rng, 0)}})
			s := summarize(data)
			Expect(len(s.OutputFields)).To(BeNumerically("<=", 30), "seed %d", seed)
			marked := false
			for _, l := range s.OutputFields {
				marked = marked || strings.Contains(l, "inspect_tool_output(")
			}
			Expect(s.HasHiddenFields).To(Equal(marked), "seed %d: %v", seed, s.OutputFields)
			again := summarize(data)
			Expect(again).To(Equal(s))
			Expect(budgetUnused(data, s, 30, schema.DefaultSummaryMaxDepth)).To(BeEmpty(), "seed %d: the budget is used when fields remain: %q", seed, s.OutputFields)
			if root := rootKeys(data); len(root) <= 30 {
				for _, k := range root {
					Expect(s.OutputFields).To(ContainElement(Or(HavePrefix(k+": "), HavePrefix(k+"[]: "))), "seed %d: root key %s", seed, k)
				}
			}
			if !s.HasHiddenFields { // everything is listed, so every Tier-1 leaf is
				for _, p := range leafPaths(data) {
					if schema.IsTier1(p) {
						Expect(strings.Join(s.OutputFields, "\n")).To(ContainSubstring(p+": "), "seed %d", seed)
					}
				}
			}
		}
	})
})

var names = []string{"id", "name", "status", "amount", "note", "owner_id", "size", "kind", "email", "label", "url", "count", "meta"}

func randomObject(rng *rand.Rand, depth int) map[string]any {
	props := map[string]any{}
	n := 1 + rng.IntN(6)
	if depth == 0 {
		n = 1 + rng.IntN(12)
	}
	for i := range n {
		name := fmt.Sprintf("%s%d", names[rng.IntN(len(names))], i)
		if rng.IntN(3) == 0 {
			name = names[rng.IntN(len(names))]
		}
		switch r := rng.IntN(10); {
		case depth < 4 && r < 3:
			props[name] = map[string]any{"type": "object", "properties": randomObject(rng, depth+1)}
		case depth < 4 && r < 5:
			props[name] = map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": randomObject(rng, depth+1)}}
		case r == 5:
			props[name] = map[string]any{"type": "object", "additionalProperties": true}
		default:
			props[name] = map[string]any{"type": []string{"string", "integer", "boolean"}[rng.IntN(3)]}
		}
	}
	return props
}

// leafPaths lists the leaf paths of a generated schema (no refs, unions).
func leafPaths(data []byte) []string {
	var root map[string]any
	Expect(json.Unmarshal(data, &root)).To(Succeed())
	var out []string
	var walk func(path string, s map[string]any)
	walk = func(path string, s map[string]any) {
		switch {
		case s["type"] == "array":
			walk(path+"[]", s["items"].(map[string]any))
		case s["properties"] != nil:
			for k, v := range s["properties"].(map[string]any) {
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(p, v.(map[string]any))
			}
		case s["type"] != "object":
			out = append(out, path)
		}
	}
	walk("", root["properties"].(map[string]any)["data"].(map[string]any))
	return out
}

// rootKeys lists the root fields of a generated schema.
func rootKeys(data []byte) []string {
	var root struct {
		Properties struct {
			Data struct {
				Properties map[string]any `json:"properties"`
			} `json:"data"`
		} `json:"properties"`
	}
	Expect(json.Unmarshal(data, &root)).To(Succeed())
	var out []string
	for k := range root.Properties.Data.Properties {
		out = append(out, k)
	}
	return out
}
