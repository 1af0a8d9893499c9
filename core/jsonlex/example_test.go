package jsonlex_test

import (
	"fmt"

	"github.com/toolout/toolout/core/jsonlex"
)

// A reader skips white space, reads a string and a number, and words its
// own error where the grammar fails.
func Example() {
	in := ` "caf\u00e9\n" -12.5e3 1.x`
	i := jsonlex.Space(in, 0)
	end, escaped, fault := jsonlex.String(in, i)
	fmt.Println(end, escaped, fault == jsonlex.OK, string(jsonlex.Unescape(nil, in[i+1:end-1], true)) == "café\n")

	i = jsonlex.Space(in, end)
	end, ok := jsonlex.Number(in, i)
	fmt.Println(in[i:end], ok)

	i = jsonlex.Space(in, end)
	end, ok = jsonlex.Number(in, i)
	fmt.Printf("%v: want a digit at byte %d, got %q\n", ok, end, in[end])
	// Output:
	// 14 true true true
	// -12.5e3 true
	// false: want a digit at byte 25, got 'x'
}
