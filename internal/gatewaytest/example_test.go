package gatewaytest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/internal/gatewaytest"
)

// Texts of a known size, and a compressor that keeps the first word.
func ExampleCompressorFunc() {
	fmt.Println(gatewaytest.Words(3), len(gatewaytest.Sized(7)))
	first := gatewaytest.CompressorFunc(func(in gateway.Input) (string, error) {
		return strings.Fields(in.Content)[0], nil
	})
	out, _ := first.Compress(context.Background(), gateway.Input{Content: gatewaytest.Words(100)})
	fmt.Println(out)
	// Output:
	// w00000 w00001 w00002 7
	// w00000
}
