package importer_test

import (
	"testing"

	"github.com/toolout/toolout/harness/importer"
)

// FuzzChild holds child, which finds a member or an element of a JSON
// value in place, to what encoding/json's Decoder found (the earlier child,
// which copied every value it stepped over): the same
// offset, or -1, for a key and an index, on any input, broken ones
// included (auto-detection asks it about traces before their syntax is
// checked).
func FuzzChild(f *testing.F) {
	for _, seed := range []string{`{"request"`, `{"response": {"type"`, `{"request": {"messages": [`, `{"a":1,"A":2}`, `{"m\u0065ssages": []}`,
		`[1, 2, [3]]`, `[,1]`, `{,"a":1}`, `{"a" 1}`, `{"a":1 "b":2}`, `{"a":tru}`, `{"a":-}`, `{"a":"\x01"}`, `[[[[[[`, `{"a":[1,]}`,
		`  {"messages" : [ ] } `, `"s"`, `{"a":{"b":[1,{"c":"\""}]},"messages":null}`, `{"a":1e5,"b":-0.5E-3,"c":01}`,
		// An element after the one before without a comma: the Decoder
		// finds it, unless the one before started after a ',' or ':'; and
		// a '}' ends an array as a ']' does.
		"[00", `[1 2]`, "[,00", "[}", "[0:", "[,0,", `{"a"::1,"messages":2}`} {
		f.Add([]byte(seed), "messages", 1)
	}
	f.Fuzz(func(t *testing.T, v []byte, key string, index int) {
		if got, want := importer.Child(v, key), importer.DecoderChild(v, key); got != want {
			t.Fatalf("child(%q, %q) = %d, the Decoder's %d", v, key, got, want)
		}
		if got, want := importer.Child(v, index), importer.DecoderChild(v, index); got != want {
			t.Fatalf("child(%q, %d) = %d, the Decoder's %d", v, index, got, want)
		}
	})
}
