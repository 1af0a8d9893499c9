package yamlstrict_test

import (
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/internal/yamlstrict"
)

// TestScalarIsOnePolicy: the values the scenario loader and the gateway
// config loader once read differently (an integer written as a quoted
// string, an unsigned field, .nan and .inf, "yes" for a boolean) are read
// the same way now, by yamlstrict.Scalar.
func TestScalarIsOnePolicy(t *testing.T) {
	type fields struct {
		I  int
		I8 int8
		U  uint
		F  float64
		B  bool
		S  string
	}
	cases := []struct {
		field, yaml string
		want        any    // the value set, when accepted
		refused     string // what Scalar wants instead, when refused
	}{
		{"I", "42", 42, ""},
		{"I", "-7", -7, ""},
		{"I", "0x1F", 31, ""},
		{"I", "1_000", 1000, ""},
		{"I", `"42"`, nil, "an integer"},
		{"I", "1.5", nil, "an integer"},
		{"I", "99999999999999999999", nil, "an integer"},
		{"I8", "300", nil, "an integer"},
		{"U", "7", uint(7), ""},
		{"U", "-1", nil, "an integer of 0 or more"},
		{"F", "0.5", 0.5, ""},
		{"F", "3", 3.0, ""},
		{"F", "1e3", 1000.0, ""},
		{"F", ".nan", nil, "a finite number"},
		{"F", "-.inf", nil, "a finite number"},
		{"F", `"0.5"`, nil, "a finite number"},
		{"B", "true", true, ""},
		{"B", "False", false, ""},
		{"B", "yes", nil, "true or false"},
		{"B", `"true"`, nil, "true or false"},
		{"B", "1", nil, "true or false"},
		{"S", "${VAR}", "${VAR}", ""}, // a reader that expands variables does it before (the gateway config)
		{"S", "42", "42", ""},
		{"S", "[a]", nil, "a string"},
	}
	for _, c := range cases {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(c.yaml), &doc); err != nil {
			t.Fatalf("%s: %v", c.yaml, err)
		}
		var f fields
		v := reflect.ValueOf(&f).Elem().FieldByName(c.field)
		want := yamlstrict.Scalar(doc.Content[0], v)
		switch {
		case want != c.refused:
			t.Errorf("%s into %s: want %q, got %q", c.yaml, c.field, c.refused, want)
		case want == "" && !reflect.DeepEqual(v.Interface(), reflect.ValueOf(c.want).Convert(v.Type()).Interface()):
			t.Errorf("%s into %s: set %v, want %v", c.yaml, c.field, v.Interface(), c.want)
		}
	}
}

// TestMessage: yaml.v3's errors on one line without its "yaml: " prefix,
// a TypeError's problems joined.
func TestMessage(t *testing.T) {
	var v struct{ A int }
	err := yaml.Unmarshal([]byte("a: [1"), &v)
	if got, want := yamlstrict.Message(err), "line 1: did not find expected ',' or ']'"; !strings.HasPrefix(err.Error(), "yaml: ") || got != want {
		t.Errorf("Message(%q) = %q, want %q", err, got, want)
	}
	err = yaml.Unmarshal([]byte("a: x\nb: [\n  1]"), &struct{ A, B int }{})
	if got, want := yamlstrict.Message(err), "line 1: cannot unmarshal !!str `x` into int; line 2: cannot unmarshal !!seq into int"; got != want {
		t.Errorf("Message(%q) = %q, want %q", err, got, want)
	}
}
