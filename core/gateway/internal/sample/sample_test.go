package sample_test

import (
	"hash/maphash"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/gateway/internal/sample"
)

// TestSample: String and Bytes agree on every length around the sample's
// edges; the prefix, the length and a byte in each sampled span change the
// sum; a byte outside them does not (that is what makes it cheap).
func TestSample(t *testing.T) {
	seed := maphash.MakeSeed()
	for _, n := range []int{0, 1, 511, 512, 1535, 1536, 1537, 4096, 200_000} {
		s := strings.Repeat("a", n)
		if sample.String(seed, "p", s) != sample.Bytes(seed, "p", []byte(s)) {
			t.Fatalf("n=%d: String and Bytes differ", n)
		}
		if n > 0 && sample.String(seed, "p", s) == sample.String(seed, "q", s) {
			t.Errorf("n=%d: the prefix is not hashed", n)
		}
		if sample.String(seed, "", s) == sample.String(seed, "", s+"a") {
			t.Errorf("n=%d: the length is not hashed", n)
		}
	}
	base := strings.Repeat("a", 200_000)
	at := func(i int) string { return base[:i] + "b" + base[i+1:] }
	for _, i := range []int{0, 511, 100_000 - 256, 100_000 + 255, 199_999} {
		if sample.String(seed, "", at(i)) == sample.String(seed, "", base) {
			t.Errorf("a byte at %d, in a sampled span, does not change the sum", i)
		}
	}
	if sample.String(seed, "", at(50_000)) != sample.String(seed, "", base) {
		t.Error("a byte at 50,000, outside the sampled spans, changes the sum")
	}
}
