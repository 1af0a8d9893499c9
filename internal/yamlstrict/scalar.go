package yamlstrict

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Scalar sets v, a settable string, bool, integer, unsigned integer or
// float, from node n by the one policy both readers follow, and returns
// "" or what v wants instead ("an integer", "an integer of 0 or more", "a
// finite number", "true or false", "a string"), for the reader to word
// the error its way ("want an integer, got …"). The value's YAML type
// decides, as YAML resolves a plain scalar, never its text alone:
//
//   - an integer is a plain integer (!!int: 42, -7, 0x1F, 0o17, 1_000)
//     that fits the field; a quoted "42" is a string, not an integer;
//   - an unsigned integer is such an integer of 0 or more;
//   - a number is a plain integer or float, finite (.nan and .inf are
//     refused: no knob of toolout means anything by them);
//   - a boolean is a plain true or false (any case YAML allows), not
//     "yes", "on" or a quoted "true";
//   - a string is any scalar's text; null leaves v as it was.
//
// Durations are Duration's.
func Scalar(n *yaml.Node, v reflect.Value) string {
	want := scalarWant(v.Kind())
	if n == nil || n.Kind != yaml.ScalarNode {
		return want
	}
	tag, text := n.ShortTag(), strings.ReplaceAll(n.Value, "_", "")
	switch v.Kind() {
	case reflect.String:
		if tag != "!!null" {
			v.SetString(n.Value)
		}
		return ""
	case reflect.Bool:
		if tag != "!!bool" {
			return want
		}
		v.SetBool(strings.EqualFold(n.Value, "true"))
		return ""
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := strconv.ParseInt(text, 0, 64)
		if tag != "!!int" || err != nil || v.OverflowInt(i) {
			return want
		}
		v.SetInt(i)
		return ""
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		u, err := strconv.ParseUint(strings.TrimPrefix(text, "+"), 0, 64)
		if tag != "!!int" || err != nil || v.OverflowUint(u) {
			return want
		}
		v.SetUint(u)
		return ""
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(text, 64)
		if tag == "!!int" && err != nil { // 0x1F, 0o17: integers YAML writes in another base
			var i int64
			i, err = strconv.ParseInt(text, 0, 64)
			f = float64(i)
		}
		if tag != "!!int" && tag != "!!float" || err != nil || math.IsNaN(f) || math.IsInf(f, 0) || v.OverflowFloat(f) {
			return want
		}
		v.SetFloat(f)
		return ""
	}
	return "a value"
}

// scalarWant is what Scalar says a value of kind k wants.
func scalarWant(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer of 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a finite number"
	}
	return "a value"
}
