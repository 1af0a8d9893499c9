package leaked_test

import (
	"reflect"
	"testing"

	"github.com/toolout/toolout/core/leaked"
)

// fuzzTools declares the names the seeds use, with every type, so that
// FuzzTyped runs the typed paths: a declared string, JSON-typed values, a
// GLM call without arguments.
const fuzzTools = `[{"name":"a","input_schema":{"properties":{"x":{"type":"string"},"y":{"type":"integer"},"k":{"type":"object"}}}},
{"type":"function","function":{"name":"f","parameters":{"properties":{"a":{"type":"array"},"b":{"type":["boolean","null"]},"k":{"type":"string"}}}}},
{"name":"get_time"},{"name":"get_weather","inputSchema":{"properties":{"city":{"type":"string"},"location":{"type":"number"}}}}]`

// FuzzTyped is FuzzExtract with a tool list: the contract holds, and the
// result is deterministic, when values are typed by declared schemas and
// GLM calls without arguments are recovered.
func FuzzTyped(f *testing.F) {
	tools, err := leaked.ParseTools([]byte(fuzzTools))
	if err != nil {
		f.Fatal(err)
	}
	for _, v := range vectors() {
		f.Add(v.Input)
	}
	for _, s := range familySeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r := leaked.Extract(in, leaked.Options{Sources: seqIDs(), Tools: tools})
		if err := leaked.Check(in, r); err != nil {
			t.Fatal(err)
		}
		if again := leaked.Extract(in, leaked.Options{Sources: seqIDs(), Tools: tools}); !reflect.DeepEqual(r, again) {
			t.Fatal("not deterministic")
		}
	})
}
