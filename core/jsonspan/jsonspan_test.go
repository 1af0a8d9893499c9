package jsonspan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/hostile"
	"github.com/toolout/toolout/internal/seeds"
)

var _ = Describe("Parse", func() {
	DescribeTable("names a byte offset inside the body",
		func(body, want string) {
			_, err := Parse([]byte(body))
			Expect(err).To(MatchError(want))
		},
		Entry("string cut after a backslash", `"\`, "invalid JSON at byte 2: unterminated string"),
		Entry("key cut after a backslash", `{"a\`, "invalid JSON at byte 4: unterminated string"),
		Entry("string cut", `["ab`, "invalid JSON at byte 4: unterminated string"),
	)
})

// walkNodes calls fn for n and every value below it, parents first.
func walkNodes(n *Node, fn func(*Node)) {
	fn(n)
	for _, c := range n.Vals {
		walkNodes(c, fn)
	}
}

// maxNesting is the most containers open at once in a valid JSON text.
func maxNesting(b []byte) int {
	depth, most, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			most = max(most, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return most
}

// asValue rebuilds the value of n as encoding/json would decode it (numbers
// as json.Number, the last of duplicate keys wins).
func asValue(n *Node, body []byte) any {
	switch n.Kind {
	case '{':
		m := map[string]any{}
		for i, k := range n.Keys {
			m[k] = asValue(n.Vals[i], body)
		}
		return m
	case '[':
		s := []any{}
		for _, v := range n.Vals {
			s = append(s, asValue(v, body))
		}
		return s
	case '"':
		return n.Str
	case 't', 'f':
		return n.Kind == 't'
	case '0':
		return nil
	}
	return json.Number(body[n.Start:n.End])
}

func decodeStd(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		panic(err)
	}
	if v == nil {
		return nil
	}
	return v
}

var spanErrRE = regexp.MustCompile(`^invalid JSON at byte (\d+): [^\n]+$`)

// checkParse checks Parse against encoding/json on body and returns the
// tree, or nil when body is rejected.
func checkParse(t *testing.T, body []byte) *Node {
	t.Helper()
	root, err := Parse(body)
	valid := json.Valid(body)
	if err != nil {
		m := spanErrRE.FindStringSubmatch(err.Error())
		if m == nil {
			t.Fatalf("error is not `invalid JSON at byte N: why`: %q", err)
		}
		if at, _ := strconv.Atoi(m[1]); at > len(body) {
			t.Fatalf("error offset %d is past the end of a %d-byte body: %v", at, len(body), err)
		}
		deep := strings.Contains(err.Error(), "nested too deeply")
		switch {
		case valid && !deep:
			t.Fatalf("rejected valid JSON %q: %v", body, err)
		case deep && maxNesting(body) <= 512:
			t.Fatalf("%q: %v, but it nests %d deep", body, err, maxNesting(body))
		}
		return nil
	}
	if !valid {
		t.Fatalf("accepted invalid JSON %q", body)
	}
	if maxNesting(body) > 513 {
		t.Fatalf("accepted %d levels of nesting", maxNesting(body))
	}
	walkNodes(root, func(n *Node) {
		span := body[n.Start:n.End]
		if !json.Valid(span) {
			t.Fatalf("node span %q is not JSON", span)
		}
		if len(n.Keys) != len(n.KeyStarts) || n.Kind == '{' && len(n.Keys) != len(n.Vals) {
			t.Fatalf("object at %d: %d keys, %d key offsets, %d values", n.Start, len(n.Keys), len(n.KeyStarts), len(n.Vals))
		}
		at := n.Start + 1
		for i, v := range n.Vals {
			if n.Kind == '{' {
				var k string
				dec := json.NewDecoder(bytes.NewReader(body[n.KeyStarts[i]:]))
				if n.KeyStarts[i] < at || dec.Decode(&k) != nil || k != n.Keys[i] {
					t.Fatalf("key %d of the object at %d: offset %d does not hold %q", i, n.Start, n.KeyStarts[i], n.Keys[i])
				}
			}
			if v.Start < at || v.End > n.End-1 {
				t.Fatalf("child %d [%d,%d) outside its parent [%d,%d) or before its sibling", i, v.Start, v.End, n.Start, n.End)
			}
			at = v.End
		}
	})
	if got, want := asValue(root, body), decodeStd(body); !reflect.DeepEqual(got, want) {
		t.Fatalf("the tree of %q is %#v, encoding/json reads %#v", body, got, want)
	}
	return root
}

// checkSplice checks that out is valid JSON equal to body outside the edits.
func checkSplice(t *testing.T, what string, body, out []byte, edits ...Edit) *Node {
	t.Helper()
	if !json.Valid(out) {
		t.Fatalf("%s: invalid JSON out of %q: %q", what, body, out)
	}
	var want []byte
	at := 0
	for _, e := range edits { // sorted by splice
		want = append(append(want, body[at:e.Start]...), e.Text...)
		at = e.End
	}
	want = append(want, body[at:]...)
	if !bytes.Equal(out, want) {
		t.Fatalf("%s: bytes outside the Edit changed:\n got %q\nwant %q", what, out, want)
	}
	n, err := Parse(out)
	if err != nil {
		t.Fatalf("%s: the output does not parse: %v", what, err)
	}
	return n
}

// nodeAt returns the node of root starting at byte start with the given kind.
func nodeAt(root *Node, start int, kind byte) *Node {
	var found *Node
	walkNodes(root, func(n *Node) {
		if found == nil && n.Start == start && n.Kind == kind {
			found = n
		}
	})
	return found
}

// roundString is s after a trip through a JSON string (invalid UTF-8 becomes
// U+FFFD).
func roundString(s string) string {
	var back string
	if err := json.Unmarshal(String(s), &back); err != nil {
		panic(err)
	}
	return back
}

// maxSeed leaves out the largest request bodies (64 KiB logs): the same
// shapes come in smaller files, and the fuzzer minimizes big inputs slowly.
const maxSeed = 16 << 10

func gatewaySeeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, b := range seeds.Files(f, "../../scenarios/gateway/data/*.json") {
		if len(b) <= maxSeed {
			out = append(out, b)
		}
	}
	return out
}

// FuzzJSONSpan checks the span editor on any bytes and any Edit it supports:
//   - Parse accepts exactly what encoding/json accepts, except nesting
//     deeper than 512, which is an error; errors read "invalid JSON at byte
//     N: why" with N inside the body; nothing panics;
//   - the tree agrees with encoding/json (values, keys, spans: each node's
//     bytes are JSON, children lie inside their parent, in order);
//   - replacing values with JSON strings (one or several at once), adding a
//     key, removing each key, and appending to an array give valid JSON that
//     is byte-equal to the input outside the edited value, and whose parsed
//     tree shows the Edit.
func FuzzJSONSpan(f *testing.F) {
	for _, b := range gatewaySeeds(f) {
		f.Add(b, "tools", uint16(0), "compressed text")
	}
	for _, s := range []string{
		`{}`, `[]`, ` { "a" : [ 1 , 2 ] , "b" : { } } `, `{"a":1,"a":2}`, `{"":null}`, `"\ud800"`, `"\u0000"`,
		`[1e999,-0,0.5e-3,true,false,null]`, `01`, `[1,]`, `{"a" 1}`, `"\`, `"abc`, "\"\xff\"", "\ufeff{}",
		`[` + strings.Repeat(`[`, 600) + strings.Repeat(`]`, 600) + `]`, strings.Repeat(`{"a":`, 520) + `1` + strings.Repeat(`}`, 520),
		`{"messages":[{"role":"tool","content":"x"}],"tools":[]}`, "[1\"a\"]", `{"a":1}x`, "\t\r\n 5 \n", `"<<<SHADOW:x>>>"`,
	} {
		f.Add([]byte(s), "k", uint16(1), "é\xff\x00\"\\</script>")
	}
	f.Fuzz(func(t *testing.T, body []byte, key string, pick uint16, text string) {
		root := checkParse(t, body)
		if root == nil {
			return
		}
		var nodes, objects, arrays, stringsAt []*Node
		walkNodes(root, func(n *Node) {
			nodes = append(nodes, n)
			switch n.Kind {
			case '{':
				objects = append(objects, n)
			case '[':
				arrays = append(arrays, n)
			case '"':
				stringsAt = append(stringsAt, n)
			}
		})
		i := int(pick)
		n := nodes[i%len(nodes)]
		e := Edit{Start: n.Start, End: n.End, Text: String(text)}
		out := checkSplice(t, "replace", body, Splice(body, []Edit{e}), e)
		if got := nodeAt(out, n.Start, '"'); got == nil || got.Str != roundString(text) {
			t.Fatalf("replace: no string %q at %d", text, n.Start)
		}
		if len(stringsAt) > 1 {
			var edits []Edit
			for j := i % 2; j < len(stringsAt); j += 2 {
				edits = append(edits, Edit{Start: stringsAt[j].Start, End: stringsAt[j].End, Text: String(text + strconv.Itoa(j))})
			}
			checkSplice(t, "replace several", body, Splice(body, slices.Clone(edits)), edits...)
		}
		if len(objects) > 0 {
			checkObjectEdits(t, body, objects[i%len(objects)], key, text, i)
		}
		if len(arrays) > 0 {
			arr := arrays[i%len(arrays)]
			elems := [][]byte{String(text), []byte(`{"k":[1]}`)}
			e := AppendToArray(arr, elems...)
			out := checkSplice(t, "append", body, Splice(body, []Edit{e}), e)
			if got := nodeAt(out, arr.Start, '['); got == nil || len(got.Vals) != len(arr.Vals)+2 {
				t.Fatalf("append: the array at %d does not have two more items", arr.Start)
			}
		}
	})
}

func checkObjectEdits(t *testing.T, body []byte, obj *Node, key, text string, pick int) {
	t.Helper()
	e := AddKey(obj, key, String(text))
	out := checkSplice(t, "add key", body, Splice(body, []Edit{e}), e)
	got := nodeAt(out, obj.Start, '{')
	if got == nil || len(got.Keys) != len(obj.Keys)+1 || got.Keys[len(obj.Keys)] != roundString(key) ||
		got.Vals[len(obj.Keys)].Str != roundString(text) {
		t.Fatalf("add key: the object at %d does not end with %q: %q", obj.Start, key, text)
	}
	// The first, the last and a picked key: each removal parses the whole
	// output again, so trying every key would make the check quadratic.
	for _, j := range []int{0, len(obj.Keys) - 1, pick % max(len(obj.Keys), 1)} {
		if len(obj.Keys) == 0 {
			break
		}
		k := obj.Keys[j]
		e, ok := RemoveKey(obj, k)
		if !ok {
			t.Fatalf("remove key: %q not found", k)
		}
		out := checkSplice(t, fmt.Sprintf("remove key %q", k), body, Splice(body, []Edit{e}), e)
		// The first key of that name goes; the others stay in order.
		first := indexOf(obj.Keys, k)
		want := append(append([]string{}, obj.Keys[:first]...), obj.Keys[first+1:]...)
		if got := nodeAt(out, obj.Start, '{'); got == nil || !reflect.DeepEqual(append([]string{}, got.Keys...), want) {
			t.Fatalf("remove key %q: keys %q did not become %q", k, obj.Keys, want)
		}
	}
}

func indexOf(keys []string, k string) int {
	for i, kk := range keys {
		if kk == k {
			return i
		}
	}
	return -1
}

// BenchmarkParseSpansAdversarial times Parse at 1 MiB and 10 MiB on
// nesting at the depth limit (repeated), nesting past it, many keys, and
// strings full of escapes; 10 MiB should cost about ten times 1 MiB.
func BenchmarkParseSpansAdversarial(b *testing.B) {
	hostile.WarmHeap()
	repeat := func(unit string, n int, open, close string) []byte {
		return []byte(open + strings.Repeat(unit+",", n/(len(unit)+1)) + unit + close)
	}
	nest := strings.Repeat("[", 511) + strings.Repeat("]", 511)
	inputs := []struct {
		name string
		make func(n int) []byte
	}{
		{"nested-at-limit", func(n int) []byte { return repeat(nest, n, "[", "]") }},
		{"nested-past-limit", func(n int) []byte { return []byte(strings.Repeat("[", n)) }},
		{"many-keys", func(n int) []byte {
			var s strings.Builder
			s.WriteString("{")
			for i := 0; s.Len() < n; i++ {
				fmt.Fprintf(&s, `"k%d":%d,`, i, i)
			}
			return []byte(s.String() + `"end":0}`)
		}},
		{"escaped-strings", func(n int) []byte { return repeat(`"\"\\\u00e9\n\ud83d\ude00"`, n, "[", "]") }},
	}
	for _, in := range inputs {
		for _, size := range []struct {
			name string
			n    int
		}{{"1MiB", 1 << 20}, {"10MiB", 10 << 20}} {
			body := in.make(size.n)
			b.Run(in.name+"/size="+size.name, func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					_, _ = Parse(body)
				}
			})
		}
	}
}

var _ = Describe("Node.Held", func() {
	DescribeTable("is the allocation a long string has to itself, and 0 for a short one",
		func(content string, long bool) {
			n, err := Parse([]byte(`"` + content + `"`))
			Expect(err).NotTo(HaveOccurred())
			if !long {
				Expect(n.Held).To(BeZero())
				return
			}
			Expect(n.Held).To(BeNumerically(">=", len(n.Str)))
			// the content's size and a page of rounding, or what a builder
			// grew to (invalid UTF-8 decodes to 3 bytes a byte)
			Expect(n.Held).To(BeNumerically("<=", 2*max(len(content), len(n.Str))+8192))
		},
		Entry("short", "abc", false),
		Entry("short, escaped", `a\nb`, false),
		Entry("long", strings.Repeat("word ", 1000), true),
		Entry("long, escaped", strings.Repeat(`line\n`, 1000), true),
		Entry("long, \\u escapes that decode to a sixth of it", strings.Repeat(`\u0041`, 1000), true),
		Entry("long, invalid UTF-8", strings.Repeat("a\xff", 3000), true),
	)
})

var _ = Describe("Valid", func() {
	DescribeTable("agrees with Parse",
		func(body string) {
			_, err := Parse([]byte(body))
			Expect(Valid([]byte(body))).To(Equal(err == nil))
		},
		Entry("an object", ` {"a": [1, -2.5e3, true, false, null, "x\u00e9\n"], "b": {}} `),
		Entry("empty containers", `[[],{},[{}]]`),
		Entry("a lone string", `"s"`),
		Entry("a number", `-0.1e+2`),
		Entry("a bad number", `01`),
		Entry("a bad literal", `[tru]`),
		Entry("a missing colon", `{"a" 1}`),
		Entry("a trailing comma", `[1,]`),
		Entry("a non-string key", `{1:2}`),
		Entry("data after the value", `{} {}`),
		Entry("a control byte in a string", "[\"a\x01\"]"),
		Entry("a bad escape", `["\x"]`),
		Entry("unterminated", `{"a":"b`),
		Entry("nested 512 levels", strings.Repeat("[", 512)+strings.Repeat("]", 512)),
		Entry("nested 513 levels", strings.Repeat("[", 513)+strings.Repeat("]", 513)),
		Entry("an object key at 513 levels", strings.Repeat("[", 512)+`{"k":1}`+strings.Repeat("]", 512)),
		Entry("nothing", ``),
		Entry("white space only", " \n"),
	)
})

// FuzzValid: Valid is true exactly when Parse accepts the body.
func FuzzValid(f *testing.F) {
	f.Add([]byte(`{"a":[1,"b",{"c":null}]}`))
	f.Add([]byte(`[` + strings.Repeat("[", 600)))
	f.Add([]byte(`{"a" : tru }`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_, err := Parse(body)
		if Valid(body) != (err == nil) {
			t.Fatalf("Valid %v, Parse error %v", Valid(body), err)
		}
	})
}
