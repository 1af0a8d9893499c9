package schema

// obj is a JSON object that keeps its keys in document order, so that
// summaries list fields in the order the schema's author wrote them. A
// duplicate key keeps its first position and its last value.
type obj struct {
	kvs []kv
	idx map[string]int // key -> position in kvs, built once kvs is long
	n   *node          // the node built from this object (builder memo)
	// next is the position after the last key found through idx: lookups
	// in declaration order (definitions that refer to their neighbours,
	// as generated schemas do) find their key there without hashing.
	next int32
	// kws has the bit of each schema keyword (see keyword) the object has:
	// most lookups are for keywords an object lacks, and the bit answers
	// them without comparing a key.
	kws uint16
}

// keyword is a JSON Schema keyword the normalizer reads.
type keyword uint8

const (
	kwRef keyword = iota
	kwType
	kwProperties
	kwAdditionalProperties
	kwPatternProperties
	kwItems
	kwPrefixItems
	kwEnum
	kwConst
	kwNullable
	kwAllOf
	kwAnyOf
	kwOneOf
	kwRequired
	numKeywords
)

var keywordNames = [numKeywords]string{"$ref", "type", "properties", "additionalProperties", "patternProperties",
	"items", "prefixItems", "enum", "const", "nullable", "allOf", "anyOf", "oneOf", "required"}

// keywordOf returns the keyword a key names, or numKeywords.
func keywordOf(k string) keyword {
	switch k {
	case "$ref":
		return kwRef
	case "type":
		return kwType
	case "properties":
		return kwProperties
	case "additionalProperties":
		return kwAdditionalProperties
	case "patternProperties":
		return kwPatternProperties
	case "items":
		return kwItems
	case "prefixItems":
		return kwPrefixItems
	case "enum":
		return kwEnum
	case "const":
		return kwConst
	case "nullable":
		return kwNullable
	case "allOf":
		return kwAllOf
	case "anyOf":
		return kwAnyOf
	case "oneOf":
		return kwOneOf
	case "required":
		return kwRequired
	}
	return numKeywords
}

// kw returns the value of keyword k and whether the object has it.
func (o *obj) kw(k keyword) (any, bool) {
	if o.kws&(1<<k) == 0 {
		return nil, false
	}
	return o.lookup(keywordNames[k])
}

// kwv returns the value of keyword k, nil when the object lacks it.
func (o *obj) kwv(k keyword) any {
	v, _ := o.kw(k)
	return v
}

// hasKW reports whether the object has keyword k.
func (o *obj) hasKW(k keyword) bool { return o.kws&(1<<k) != 0 }

type kv struct {
	key string
	val any
}

// indexFrom is the length from which an object keeps a key index; shorter
// objects are searched linearly.
const indexFrom = 8

// lookup returns the value of key k.
func (o *obj) lookup(k string) (any, bool) {
	if o.idx != nil {
		i := int(o.next)
		if i >= len(o.kvs) || o.kvs[i].key != k {
			var ok bool
			if i, ok = o.idx[k]; !ok {
				return nil, false
			}
		}
		o.next = int32(i) + 1
		return o.kvs[i].val, true
	}
	for i := range o.kvs {
		if o.kvs[i].key == k {
			return o.kvs[i].val, true
		}
	}
	return nil, false
}

// finish indexes a decoded object (when it is long) and removes duplicate
// keys: one map insertion per key, and a second pass only when there is a
// duplicate.
func (o *obj) finish() {
	for i := range o.kvs {
		if k := keywordOf(o.kvs[i].key); k < numKeywords {
			o.kws |= 1 << k
		}
	}
	if len(o.kvs) <= indexFrom {
		for i := 1; i < len(o.kvs); i++ {
			for j := range i {
				if o.kvs[i].key == o.kvs[j].key {
					o.dedupe()
					return
				}
			}
		}
		return
	}
	idx := make(map[string]int, len(o.kvs))
	for i, e := range o.kvs {
		n := len(idx)
		if idx[e.key] = i; len(idx) == n {
			o.dedupe()
			return
		}
	}
	o.idx = idx
}

// dedupe keeps each key once, in its first place, with its last value.
func (o *obj) dedupe() {
	idx := make(map[string]int, len(o.kvs))
	out := o.kvs[:0]
	for _, e := range o.kvs {
		if i, ok := idx[e.key]; ok {
			out[i].val = e.val
			continue
		}
		idx[e.key] = len(out)
		out = append(out, e)
	}
	o.kvs = out
	if len(out) > indexFrom {
		o.idx = idx
	}
}
