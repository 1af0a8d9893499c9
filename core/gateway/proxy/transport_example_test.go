package proxy_test

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// The proxy's upstream transport keeps an idle connection per request
// slot, so concurrent requests to one upstream reuse their connections.
func ExampleTransport() {
	limits := proxy.Limits{MaxConcurrent: 32}
	t := proxy.Transport(limits)
	fmt.Println(t.MaxIdleConnsPerHost, t.MaxIdleConns)
	pipe, err := gateway.NewPipe(gateway.Options{Compressor: gateway.Passthrough{}, Store: memstore.New(gateway.StoreOptions{})})
	if err != nil {
		fmt.Println(err)
		return
	}
	u, _ := url.Parse("http://127.0.0.1:8000")
	p := proxy.New(&gateway.Gateway{Pipe: pipe, Wire: openai.Wire{}}, u, &http.Client{Transport: t})
	p.Limits = limits.WithDefaults()
	// Output: 32 100
}
