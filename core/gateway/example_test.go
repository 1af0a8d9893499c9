package gateway_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
)

// A pipe compresses the tool outputs of a request: a large one is stored
// under a shadow id and replaced by its compressed form with the id's
// marker, which expand_context resolves later; a small one passes through.
func ExamplePipe_Process() {
	n := 0
	src := core.Sources{NewID: func() string { n++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }}
	c, err := gateway.NewCompressor(gateway.CompressorConfig{Strategy: gateway.StrategySimple, SimpleWords: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	pipe, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{MinBytes: 100}, Compressor: c,
		Store: memstore.New(gateway.StoreOptions{Sources: src}), Sources: src})
	if err != nil {
		fmt.Println(err)
		return
	}
	big := strings.Repeat("order 1042 shipped to Lisbon on Monday. ", 20)
	results, err := pipe.Process(context.Background(), []gateway.ToolOutput{
		{Index: 0, CallID: "c1", Tool: "orders__list", Content: big},
		{Index: 1, CallID: "c2", Tool: "clock", Content: "10:42"},
	}, "Where did order 1042 go?")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		fmt.Printf("%s %s (%s): %q\n", r.Tool, r.Action, r.Reason, r.Text)
	}
	// Output:
	// orders__list compressed (compressed): "<<<SHADOW:shadow_2b95d0b26b5a991f23bef5387d9e0034>>>\norder 1042 shipped to Lisbon [... 135 more words]"
	// clock passthrough (5 bytes <= min_bytes 100): "10:42"
}

// Only a remote compressor is rate-limited when rate_limit is not set.
func ExampleIsRemote() {
	for _, c := range []gateway.Compressor{gateway.Simple{}, gateway.Passthrough{}, gateway.API{Endpoint: "http://compressor"}} {
		fmt.Printf("%T %v\n", c, gateway.IsRemote(c))
	}
	// Output:
	// gateway.Simple false
	// gateway.Passthrough false
	// gateway.API true
}
