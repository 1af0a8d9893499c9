package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/schema"
)

// wideSchema returns an output schema with about leaves leaf fields: a data
// envelope holding groups of records, each an array of objects with nested
// objects, the shape of large API schemas.
func wideSchema(leaves int) []byte {
	const perObject = 20
	groups := map[string]any{}
	n := 0
	for g := 0; n < leaves; g++ {
		props := map[string]any{}
		for i := 0; i < perObject && n < leaves; i++ {
			name := fmt.Sprintf("field_%02d", i)
			switch i % 5 {
			case 0:
				name = fmt.Sprintf("ref_%02d_id", i)
			case 4:
				nested := map[string]any{}
				for j := 0; j < 5 && n < leaves; j++ {
					nested[fmt.Sprintf("sub_%d", j)] = map[string]any{"type": "string"}
					n++
				}
				props[name] = map[string]any{"type": "object", "properties": nested}
				continue
			}
			props[name] = map[string]any{"type": "string"}
			n++
		}
		groups[fmt.Sprintf("group_%03d", g)] = map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": props}}
	}
	data, err := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
		"data": map[string]any{"type": "object", "properties": groups}}})
	if err != nil {
		panic(err)
	}
	return data
}

// BenchmarkSchemaSummarize summarizes a 10,000-field schema into 30 lines.
func BenchmarkSchemaSummarize(b *testing.B) {
	for _, leaves := range []int{1000, 10_000} {
		data := wideSchema(leaves)
		b.Run(fmt.Sprintf("fields=%d", leaves), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var s schema.Summary
			for b.Loop() {
				var err error
				if s, err = schema.Summarize(data, schema.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(s.OutputFields)), "lines")
		})
	}
}

// BenchmarkSchemaInspect inspects one group of the same schema.
func BenchmarkSchemaInspect(b *testing.B) {
	data := wideSchema(10_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := schema.Inspect(data, "t", "group_007[]", schema.InspectOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// schemaAdversarial are the output schemas built to make the summarizer
// super-linear (they were: a stack overflow, 41 s for 80k nested levels,
// 14 s for a 100k-field merge), each as a function of its size. Every one
// runs at 1 MiB and 10 MiB, so the pair shows whether 10x the input costs
// about 10x the time. core/schema/bounds_test.go holds the same generators.
var schemaAdversarial = []struct {
	name string
	gen  func(size int) []byte
}{
	// "[" repeated: refused at the nesting limit (the error path).
	{"deep-brackets", func(n int) []byte { return []byte(strings.Repeat("[", n)) }},
	// Side-by-side chains of nested properties, each 4,000 levels deep
	// (inside the nesting limit) and ending in a Tier-1 leaf.
	{"deep-properties", func(n int) []byte {
		const depth = 4000
		chain := strings.Repeat(`{"type":"object","properties":{"a":`, depth) +
			`{"type":"object","properties":{"id":{"type":"string"}}}` + strings.Repeat("}}", depth)
		return schemaEnvelope(n, func(i int) string { return fmt.Sprintf(`"c%d":%s`, i, chain) }, `{"type":"object","properties":{`, `}}`)
	}},
	// One allOf with a branch per field, and one anyOf of objects.
	{"wide-allof", func(n int) []byte {
		return schemaEnvelope(n, func(i int) string { return fmt.Sprintf(`{"properties":{"f%d":{"type":"string"}}}`, i) }, `{"allOf":[`, `]}`)
	}},
	{"wide-anyof", func(n int) []byte {
		return schemaEnvelope(n, func(i int) string { return fmt.Sprintf(`{"properties":{"f%d":{"type":"string"}}}`, i) }, `{"anyOf":[`, `]}`)
	}},
	// One object with a field per entry.
	{"wide-flat", func(n int) []byte {
		return schemaEnvelope(n, func(i int) string { return fmt.Sprintf(`"field_%d":{"type":"string"}`, i) }, `{"type":"object","properties":{`, `}}`)
	}},
	// A(i) = allOf[A(i+1), {field i}]: each level's merge holds all below.
	{"merge-chain", func(n int) []byte {
		return schemaChain(n, func(i int) string {
			return fmt.Sprintf(`"A%d":{"allOf":[{"$ref":"#/$defs/A%d"},{"properties":{"p%d":{"type":"string"}}}]}`, i, i+1, i)
		})
	}},
	// A(i) has a name and next = A(i+1): one path as deep as the schema.
	{"object-chain", func(n int) []byte {
		return schemaChain(n, func(i int) string {
			return fmt.Sprintf(`"A%d":{"properties":{"name":{"type":"string"},"next":{"$ref":"#/$defs/A%d"}}}`, i, i+1)
		})
	}},
	// A(i) has two fields that are both A(i+1): 2^n paths.
	{"diamond", func(n int) []byte {
		return schemaChain(n, func(i int) string {
			return fmt.Sprintf(`"A%d":{"properties":{"l_id":{"$ref":"#/$defs/A%d"},"r":{"$ref":"#/$defs/A%d"}}}`, i, i+1, i+1)
		})
	}},
}

// schemaEnvelope joins items until the data schema is about size bytes.
func schemaEnvelope(size int, item func(i int) string, open, close string) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"data":` + open)
	for i := 0; i == 0 || b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(item(i))
	}
	b.WriteString(close + `}}`)
	return []byte(b.String())
}

// schemaChain writes $defs A0, A1, ... until about size bytes, the last
// one's successor a string, and a root field that refers to A0.
func schemaChain(size int, def func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	n := 0
	for ; n == 0 || b.Len() < size; n++ {
		b.WriteString(def(n) + ",")
	}
	s := b.String() + `"A_end":{"type":"string"}},"type":"object","properties":{"root":{"$ref":"#/$defs/A0"}}}`
	return []byte(strings.ReplaceAll(s, fmt.Sprintf(`"#/$defs/A%d"`, n), `"#/$defs/A_end"`))
}

// BenchmarkSchemaAdversarial summarizes, and inspects at the root, each
// adversarial schema at 1 MiB and 10 MiB; compare the two sizes of an input
// (linear: 10 MiB costs about 10x 1 MiB).
func BenchmarkSchemaAdversarial(b *testing.B) {
	for _, a := range schemaAdversarial {
		for _, size := range []int{1 << 20, 10 << 20} {
			b.Run(fmt.Sprintf("input=%s/size=%s", a.name, sizeName(size)), func(b *testing.B) {
				data := a.gen(size)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				lines := 0
				for b.Loop() {
					s, _ := schema.Summarize(data, schema.Options{})
					_, _ = schema.Inspect(data, "t", "", schema.InspectOptions{})
					lines = len(s.OutputFields)
				}
				b.ReportMetric(float64(lines), "lines")
			})
		}
	}
}
