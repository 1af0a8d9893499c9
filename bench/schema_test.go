package bench

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolout/toolout/core/schema"
	"github.com/toolout/toolout/internal/hostile"
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

// wideSchemas runs body on wideSchema of 1,000 and 10,000 fields, as
// fields=N.
func wideSchemas(b *testing.B, body func(b *testing.B, data []byte)) {
	for _, leaves := range []int{1000, 10_000} {
		data := wideSchema(leaves)
		b.Run(fmt.Sprintf("fields=%d", leaves), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			body(b, data)
		})
	}
}

// BenchmarkSchemaSummarize summarizes a 10,000-field schema into 30 lines.
func BenchmarkSchemaSummarize(b *testing.B) {
	wideSchemas(b, func(b *testing.B, data []byte) {
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

// BenchmarkSchemaSummarizeBaseline decodes the same schemas as
// BenchmarkSchemaSummarize with encoding/json into an `any` tree, in the same
// run and with the same sub-benchmark names: the goal for the summary
// is at most twice this (make bench-ratios).
func BenchmarkSchemaSummarizeBaseline(b *testing.B) {
	wideSchemas(b, func(b *testing.B, data []byte) {
		for b.Loop() {
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
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

// BenchmarkSchemaAdversarial summarizes, and inspects at the root, each
// adversarial schema of internal/hostile at 1 MiB and 10 MiB; compare the two sizes of an input
// (linear: 10 MiB costs about 10x 1 MiB).
func BenchmarkSchemaAdversarial(b *testing.B) {
	hostile.Pairs(b, hostile.Schemas, func(b *testing.B, data []byte) {
		lines := 0
		for b.Loop() {
			s, _ := schema.Summarize(data, schema.Options{})
			_, _ = schema.Inspect(data, "t", "", schema.InspectOptions{})
			lines = len(s.OutputFields)
		}
		b.ReportMetric(float64(lines), "lines")
	})
}

// BenchmarkSchemaAdversarialBaseline does the same kind of work as
// BenchmarkSchemaAdversarial on the same inputs with the standard library, in
// the same run: it decodes each input with encoding/json into an `any` tree
// and then looks every object member up by its key (as the summarizer looks
// up members and resolves $refs through its key index), twice (as Summarize
// and Inspect each decode the schema once). A schema whose 10 MiB tree and
// key tables no longer fit in the CPU cache costs more per byte than its 1 MiB
// pair for any such reader, the more so the larger the share of hash lookups
// in its work; bench/linear.awk compares each schema pair's ratio with this
// one's.
func BenchmarkSchemaAdversarialBaseline(b *testing.B) {
	hostile.Pairs(b, hostile.Schemas, func(b *testing.B, data []byte) {
		members := 0
		for b.Loop() {
			for range 2 {
				var v any
				_ = json.Unmarshal(data, &v) // deep-brackets is an error at depth 10,000
				members = lookUpAll(v)
			}
		}
		b.ReportMetric(float64(members), "members")
	})
}

// lookUpAll looks up every member of every object of tree v by its key and
// returns how many there were; it keeps its own stack, as the tree may be
// thousands of levels deep.
func lookUpAll(v any) int {
	n := 0
	stack := []any{v}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t := top.(type) {
		case map[string]any:
			for k := range t {
				stack = append(stack, t[k])
				n++
			}
		case []any:
			stack = append(stack, t...)
		}
	}
	return n
}
