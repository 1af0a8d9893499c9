package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// This file is in package gateway because the span editor is internal: the
// adapters reach it only through whole provider bodies.

var _ = Describe("parseSpans", func() {
	DescribeTable("names a byte offset inside the body",
		func(body, want string) {
			_, err := parseSpans([]byte(body))
			Expect(err).To(MatchError(want))
		},
		Entry("string cut after a backslash", `"\`, "invalid JSON at byte 2: unterminated string"),
		Entry("key cut after a backslash", `{"a\`, "invalid JSON at byte 4: unterminated string"),
		Entry("string cut", `["ab`, "invalid JSON at byte 4: unterminated string"),
	)
})

// walkNodes calls fn for n and every value below it, parents first.
func walkNodes(n *jnode, fn func(*jnode)) {
	fn(n)
	for _, c := range n.vals {
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
func asValue(n *jnode, body []byte) any {
	switch n.kind {
	case '{':
		m := map[string]any{}
		for i, k := range n.keys {
			m[k] = asValue(n.vals[i], body)
		}
		return m
	case '[':
		s := []any{}
		for _, v := range n.vals {
			s = append(s, asValue(v, body))
		}
		return s
	case '"':
		return n.str
	case 't', 'f':
		return n.kind == 't'
	case '0':
		return nil
	}
	return json.Number(body[n.start:n.end])
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

// checkParse checks parseSpans against encoding/json on body and returns the
// tree, or nil when body is rejected.
func checkParse(t *testing.T, body []byte) *jnode {
	t.Helper()
	root, err := parseSpans(body)
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
	walkNodes(root, func(n *jnode) {
		span := body[n.start:n.end]
		if !json.Valid(span) {
			t.Fatalf("node span %q is not JSON", span)
		}
		if len(n.keys) != len(n.keyStarts) || n.kind == '{' && len(n.keys) != len(n.vals) {
			t.Fatalf("object at %d: %d keys, %d key offsets, %d values", n.start, len(n.keys), len(n.keyStarts), len(n.vals))
		}
		at := n.start + 1
		for i, v := range n.vals {
			if n.kind == '{' {
				var k string
				dec := json.NewDecoder(bytes.NewReader(body[n.keyStarts[i]:]))
				if n.keyStarts[i] < at || dec.Decode(&k) != nil || k != n.keys[i] {
					t.Fatalf("key %d of the object at %d: offset %d does not hold %q", i, n.start, n.keyStarts[i], n.keys[i])
				}
			}
			if v.start < at || v.end > n.end-1 {
				t.Fatalf("child %d [%d,%d) outside its parent [%d,%d) or before its sibling", i, v.start, v.end, n.start, n.end)
			}
			at = v.end
		}
	})
	if got, want := asValue(root, body), decodeStd(body); !reflect.DeepEqual(got, want) {
		t.Fatalf("the tree of %q is %#v, encoding/json reads %#v", body, got, want)
	}
	return root
}

// checkSplice checks that out is valid JSON equal to body outside the edits.
func checkSplice(t *testing.T, what string, body, out []byte, edits ...edit) *jnode {
	t.Helper()
	if !json.Valid(out) {
		t.Fatalf("%s: invalid JSON out of %q: %q", what, body, out)
	}
	var want []byte
	at := 0
	for _, e := range edits { // sorted by splice
		want = append(append(want, body[at:e.start]...), e.text...)
		at = e.end
	}
	want = append(want, body[at:]...)
	if !bytes.Equal(out, want) {
		t.Fatalf("%s: bytes outside the edit changed:\n got %q\nwant %q", what, out, want)
	}
	n, err := parseSpans(out)
	if err != nil {
		t.Fatalf("%s: the output does not parse: %v", what, err)
	}
	return n
}

// nodeAt returns the node of root starting at byte start with the given kind.
func nodeAt(root *jnode, start int, kind byte) *jnode {
	var found *jnode
	walkNodes(root, func(n *jnode) {
		if found == nil && n.start == start && n.kind == kind {
			found = n
		}
	})
	return found
}

// roundString is s after a trip through a JSON string (invalid UTF-8 becomes
// U+FFFD).
func roundString(s string) string {
	var back string
	if err := json.Unmarshal(jsonString(s), &back); err != nil {
		panic(err)
	}
	return back
}

// maxSeed leaves out the largest request bodies (64 KiB logs): the same
// shapes come in smaller files, and the fuzzer minimizes big inputs slowly.
const maxSeed = 16 << 10

func gatewaySeeds(f *testing.F) [][]byte {
	files, err := filepath.Glob("../../scenarios/gateway/data/*.json")
	if err != nil || len(files) == 0 {
		f.Fatalf("no request bodies under scenarios/gateway/data")
	}
	var out [][]byte
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) <= maxSeed {
			out = append(out, b)
		}
	}
	return out
}

// FuzzJSONSpan checks the span editor on any bytes and any edit it supports:
//   - parseSpans accepts exactly what encoding/json accepts, except nesting
//     deeper than 512, which is an error; errors read "invalid JSON at byte
//     N: why" with N inside the body; nothing panics;
//   - the tree agrees with encoding/json (values, keys, spans: each node's
//     bytes are JSON, children lie inside their parent, in order);
//   - replacing values with JSON strings (one or several at once), adding a
//     key, removing each key, and appending to an array give valid JSON that
//     is byte-equal to the input outside the edited value, and whose parsed
//     tree shows the edit.
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
		var nodes, objects, arrays, stringsAt []*jnode
		walkNodes(root, func(n *jnode) {
			nodes = append(nodes, n)
			switch n.kind {
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
		e := edit{start: n.start, end: n.end, text: jsonString(text)}
		out := checkSplice(t, "replace", body, splice(body, []edit{e}), e)
		if got := nodeAt(out, n.start, '"'); got == nil || got.str != roundString(text) {
			t.Fatalf("replace: no string %q at %d", text, n.start)
		}
		if len(stringsAt) > 1 {
			var edits []edit
			for j := i % 2; j < len(stringsAt); j += 2 {
				edits = append(edits, edit{start: stringsAt[j].start, end: stringsAt[j].end, text: jsonString(text + strconv.Itoa(j))})
			}
			checkSplice(t, "replace several", body, splice(body, slices.Clone(edits)), edits...)
		}
		if len(objects) > 0 {
			checkObjectEdits(t, body, objects[i%len(objects)], key, text, i)
		}
		if len(arrays) > 0 {
			arr := arrays[i%len(arrays)]
			elems := [][]byte{jsonString(text), []byte(`{"k":[1]}`)}
			e := appendToArray(arr, elems...)
			out := checkSplice(t, "append", body, splice(body, []edit{e}), e)
			if got := nodeAt(out, arr.start, '['); got == nil || len(got.vals) != len(arr.vals)+2 {
				t.Fatalf("append: the array at %d does not have two more items", arr.start)
			}
		}
	})
}

func checkObjectEdits(t *testing.T, body []byte, obj *jnode, key, text string, pick int) {
	t.Helper()
	e := addKey(obj, key, jsonString(text))
	out := checkSplice(t, "add key", body, splice(body, []edit{e}), e)
	got := nodeAt(out, obj.start, '{')
	if got == nil || len(got.keys) != len(obj.keys)+1 || got.keys[len(obj.keys)] != roundString(key) ||
		got.vals[len(obj.keys)].str != roundString(text) {
		t.Fatalf("add key: the object at %d does not end with %q: %q", obj.start, key, text)
	}
	// The first, the last and a picked key: each removal parses the whole
	// output again, so trying every key would make the check quadratic.
	for _, j := range []int{0, len(obj.keys) - 1, pick % max(len(obj.keys), 1)} {
		if len(obj.keys) == 0 {
			break
		}
		k := obj.keys[j]
		e, ok := removeKey(obj, k)
		if !ok {
			t.Fatalf("remove key: %q not found", k)
		}
		out := checkSplice(t, fmt.Sprintf("remove key %q", k), body, splice(body, []edit{e}), e)
		// The first key of that name goes; the others stay in order.
		first := indexOf(obj.keys, k)
		want := append(append([]string{}, obj.keys[:first]...), obj.keys[first+1:]...)
		if got := nodeAt(out, obj.start, '{'); got == nil || !reflect.DeepEqual(append([]string{}, got.keys...), want) {
			t.Fatalf("remove key %q: keys %q did not become %q", k, obj.keys, want)
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

// BenchmarkParseSpansAdversarial times parseSpans at 1 MiB and 10 MiB on
// nesting at the depth limit (repeated), nesting past it, many keys, and
// strings full of escapes; 10 MiB should cost about ten times 1 MiB.
func BenchmarkParseSpansAdversarial(b *testing.B) {
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
					_, _ = parseSpans(body)
				}
			})
		}
	}
}
