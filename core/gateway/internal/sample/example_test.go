package sample_test

import (
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/toolout/toolout/core/gateway/internal/sample"
)

// Two texts of the same length that differ only between the sampled spans
// share a sum: a memo takes it as a guess and compares the bytes.
func ExampleString() {
	seed := maphash.MakeSeed()
	a := strings.Repeat("log line\n", 20_000)
	b := a[:50_000] + "X" + a[50_001:]
	fmt.Println(sample.String(seed, "", a) == sample.String(seed, "", b), a == b)
	fmt.Println(sample.String(seed, "", a) == sample.Bytes(seed, "", []byte(a)))
	// Output:
	// true false
	// true
}
