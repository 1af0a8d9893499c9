// Package hostile builds the adversarial inputs that the specs and the
// benchmarks share, so that a linearity spec and its benchmark pair measure
// the same thing. Each generator takes a size in bytes and returns an input of
// about that size. Pairs runs inputs as the size=1MiB / size=10MiB
// sub-benchmarks that `make bench-linear` compares, in whatever package the
// parser lives, after WarmHeap (which every adversarial benchmark, or its
// package's TestMain, calls first). Test and benchmark code only.
package hostile

import (
	"fmt"
	"strings"
)

// Input is one adversarial input, by name.
type Input struct {
	Name string
	Make func(size int) []byte
}

// Schemas are JSON Schemas that a naive summarizer or inspector handles in
// super-linear time or not at all: nested brackets (a recursive decoder's
// stack overflow), deep nesting, wide allOf merges, $ref chains, cycles and
// diamonds.
var Schemas = []Input{
	// deep-brackets: "[" repeated, a recursive decoder's stack overflow (an
	// error).
	{"deep-brackets", func(size int) []byte { return []byte(strings.Repeat("[", size)) }},
	// deep-properties: side-by-side chains of nested properties, each 4,000
	// levels deep (within the nesting limit), ending in a Tier-1 leaf.
	{"deep-properties", func(size int) []byte {
		const depth = 4000
		chain := strings.Repeat(`{"type":"object","properties":{"a":`, depth) + `{"type":"object","properties":{"id":{"type":"string"}}}` + strings.Repeat("}}", depth)
		return envelope(size, func(i int) string { return fmt.Sprintf(`"c%d":%s`, i, chain) }, `{"type":"object","properties":{`, `}}`)
	}},
	// wide-allof: one allOf with a branch per field.
	{"wide-allof", func(size int) []byte {
		return envelope(size, func(i int) string { return fmt.Sprintf(`{"properties":{"f%d":{"type":"string"}}}`, i) }, `{"allOf":[`, `]}`)
	}},
	// wide-anyof: one anyOf with an object branch per field.
	{"wide-anyof", func(size int) []byte {
		return envelope(size, func(i int) string { return fmt.Sprintf(`{"properties":{"f%d":{"type":"string"}}}`, i) }, `{"anyOf":[`, `]}`)
	}},
	// wide-flat: one object with a field per entry.
	{"wide-flat", func(size int) []byte {
		return envelope(size, func(i int) string { return fmt.Sprintf(`"field_%d":{"type":"string"}`, i) }, `{"type":"object","properties":{`, `}}`)
	}},
	// shared-base: many objects extending one big base with allOf.
	{"shared-base", func(size int) []byte {
		var base strings.Builder
		for i := range 200 {
			fmt.Fprintf(&base, `%s"b%d":{"type":"string"}`, map[bool]string{true: ",", false: ""}[i > 0], i)
		}
		return envelope(size, func(i int) string {
			return fmt.Sprintf(`"x%d":{"allOf":[{"$ref":"#/$defs/Base"},{"properties":{"own%d":{"type":"string"}}}]}`, i, i)
		}, `{"$defs":{"Base":{"properties":{`+base.String()+`}}},"type":"object","properties":{`, `}}`)
	}},
	// merge-chain: A(i) = allOf[A(i+1), {field i}]; each level holds all below.
	{"merge-chain", func(size int) []byte {
		return chain(size, func(i int) string {
			return fmt.Sprintf(`"A%d":{"allOf":[{"$ref":"#/$defs/A%d"},{"properties":{"p%d":{"type":"string"}}}]}`, i, i+1, i)
		})
	}},
	// ref-chain: A(i) = $ref A(i+1).
	{"ref-chain", func(size int) []byte {
		return chain(size, func(i int) string { return fmt.Sprintf(`"A%d":{"$ref":"#/$defs/A%d"}`, i, i+1) })
	}},
	// array-chain: A(i) = array of A(i+1).
	{"array-chain", func(size int) []byte {
		return chain(size, func(i int) string {
			return fmt.Sprintf(`"A%d":{"type":"array","items":{"$ref":"#/$defs/A%d"}}`, i, i+1)
		})
	}},
	// object-chain: A(i) has fields id and next = A(i+1): a path as deep as
	// the schema is long.
	{"object-chain", func(size int) []byte {
		return chain(size, func(i int) string {
			return fmt.Sprintf(`"A%d":{"properties":{"name":{"type":"string"},"next":{"$ref":"#/$defs/A%d"}}}`, i, i+1)
		})
	}},
	// diamond: A(i) has two fields that are both A(i+1): 2^n paths.
	{"diamond", func(size int) []byte {
		return chain(size, func(i int) string {
			return fmt.Sprintf(`"A%d":{"properties":{"l_id":{"$ref":"#/$defs/A%d"},"r":{"$ref":"#/$defs/A%d"}}}`, i, i+1, i+1)
		})
	}},
	// cycle: like object-chain, but the last refers back to the first.
	{"cycle", func(size int) []byte {
		data := chain(size, func(i int) string {
			return fmt.Sprintf(`"A%d":{"properties":{"id":{"type":"string"},"next":{"$ref":"#/$defs/A%d"}}}`, i, i+1)
		})
		return []byte(strings.Replace(string(data), `"A_end":{"type":"string"}`, `"A_end":{"$ref":"#/$defs/A0"}`, 1))
	}},
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
