package redisstore_test

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/redisstore"
)

// Two gateway replicas open the same server and prefix: what one puts, the
// other reads, under one byte cap. (This example needs a Redis server on
// localhost:6379, so it is compiled and not run.)
func ExampleNew() {
	ctx := context.Background()
	opts := redisstore.Options{
		URL:    "redis://127.0.0.1:6379/0",
		Prefix: "toolout:",
		Store:  gateway.StoreOptions{OriginalTTL: 5 * time.Minute, MaxBytes: 64 << 20},
	}
	a, err := redisstore.New(ctx, opts)
	if err != nil {
		fmt.Println(err) // redisstore: redis://127.0.0.1:6379/0 unreachable: dial tcp ...
		return
	}
	defer a.Close()
	b, err := redisstore.New(ctx, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()

	// caller is what gateway.Identity.Caller makes of the request's API
	// key: a hash, never the key.
	caller := gateway.Identity{}.Caller(http.Header{"Authorization": {"Bearer sk-example"}})
	if err := a.PutOriginal(ctx, caller, "shadow_1", "the full tool output"); err != nil {
		fmt.Println(err)
		return
	}
	original, ok, err := b.Original(ctx, caller, "shadow_1")
	fmt.Println(original, ok, err)
	_, ok, _ = b.Original(ctx, gateway.AnonymousCaller, "shadow_1")
	fmt.Println("another caller finds it:", ok)
	st, _ := b.Stats(ctx)
	fmt.Printf("%+v\n", st)
}
