package gateway_test

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
)

// The proxy's upstream transport keeps an idle connection per request
// slot, so concurrent requests to one upstream reuse their connections.
func ExampleTransport() {
	limits := gateway.Limits{MaxConcurrent: 32}
	t := gateway.Transport(limits)
	fmt.Println(t.MaxIdleConnsPerHost, t.MaxIdleConns)
	pipe, err := gateway.NewPipe(gateway.Options{Compressor: gateway.Passthrough{}, Store: memstore.New(gateway.StoreOptions{})})
	if err != nil {
		fmt.Println(err)
		return
	}
	u, _ := url.Parse("http://127.0.0.1:8000")
	p := gateway.NewProxy(&gateway.Gateway{Pipe: pipe, Wire: openai.Wire{}}, u, &http.Client{Transport: t})
	p.Limits = limits.WithDefaults()
	// Output: 32 100
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
