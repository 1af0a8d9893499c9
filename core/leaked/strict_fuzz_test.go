package leaked

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// strictSeeds are JSON texts, valid and not, at the edges of the grammar the
// strict parser reads itself: numbers, escapes, nesting, duplicate and
// escaped keys, white space JSON does not allow, invalid UTF-8.
var strictSeeds = []string{
	`{"name":"a","arguments":{"x":1}}`,
	`[{"name":"a"},{"name":"b","arguments":"{\"k\": [1, 2.5e-3]}"}]`,
	`{"name":"a","name":"b"}`,
	`{"na\u006de":"a"}`,
	`{"type":"function","function":{"name":"f","arguments":"{}"}}`,
	`{"name":"t","description":"d","parameters":{"type":"object","properties":{}}}`,
	`{"name":"a","parameters":null,"arguments":{"x":1}}`,
	`{"tool":"t","arguments":{"x":[true,false,null]}}`, `{"function":"f","arguments":"{\"a\":1}"}`,
	`[]`, `{}`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `"\x"`, `"\u12"`, "\"\x01\"", "\"\x1f\"", "\" \x7f\"",
	"-", "-0", "01", "1.", "1e", "1e+", ".5", "1.5E+10", "-0.0e-0", "tru", "nulll", "true false",
	"{\f}", "{\v}", " {} ", "\t[\r\n]\n",
	"\"\xff\"", "{\"name\":\"\xffa\"}", `{"name":"\ud800"}`,
	strings.Repeat("[", 100) + strings.Repeat("]", 100),
	strings.Repeat(`{"a":`, 50) + "1" + strings.Repeat("}", 50),
	`{ "s" : "` + strings.Repeat(`a\\\"\\`, 20) + `" , "t" : [ 1 , "\\" ] }`,
}

// FuzzStrict checks the strict parser against encoding/json, its reference:
// it accepts exactly the texts json.Valid accepts (but for nesting deeper
// than encoding/json's limit, which it leaves to the slow path), it stops
// exactly at the end of a valid value followed by other text, and what it
// records of a value's members gives the same calls as decoding with
// encoding/json. On a valid text, appendCompact (which finds a string's end
// by its quotes alone) gives json.Compact's bytes.
func FuzzStrict(f *testing.F) {
	for _, s := range strictSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var p strict
		end := p.value(s, 0)
		trimmed := trimJSONSpace(s)
		valid := json.Valid([]byte(s))
		switch {
		case end > len(s) || end < -1:
			t.Fatalf("end %d out of range for %d bytes", end, len(s))
		case end == len(s) && !valid:
			t.Fatalf("strict accepts what json.Valid refuses: %q", s)
		case valid && trimmed == s && end != len(s) && strings.Count(s, "[")+strings.Count(s, "{") < maxStrictDepth:
			t.Fatalf("strict refuses what json.Valid accepts: %q (end %d)", s, end)
		case end >= 0 && end < len(s) && !json.Valid([]byte(s[:end])):
			t.Fatalf("strict stops at %d after an invalid prefix: %q", end, s)
		}
		if valid {
			var want bytes.Buffer
			if err := json.Compact(&want, []byte(s)); err != nil {
				t.Fatal(err)
			}
			if got := appendCompact(nil, trimmed); !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("appendCompact(%q) = %q, json.Compact %q", s, got, want.Bytes())
			}
		}
		if !valid || trimmed == "" || trimmed[0] != '{' && trimmed[0] != '[' {
			return
		}
		fast := decodeCalls(nil, &p, s, false)
		slow := decodeSlow(trimmed)
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("decoding %q:\nstrict        %+v\nencoding/json %+v", s, fast, slow)
		}
	})
}
